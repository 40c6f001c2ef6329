import { ChildProcess, spawn } from 'child_process';
import { tsEntry } from './run-process.js';

export interface WorkerProcess {
  child: ChildProcess;
  /** Resolves once the app has started (its job handlers are registered). */
  ready: Promise<void>;
  /** SIGKILL: no graceful shutdown, running calls are abandoned mid-flight. */
  kill(): Promise<void>;
  /** SIGTERM and wait for the graceful exit. */
  stop(): Promise<void>;
}

/**
 * A `ROLE=worker` service process (src/main.ts through scripts/register-ts.js, no type check) on the test app's
 * database, with the test app's environment plus `env`.
 */
export function startWorkerProcess(
  base: { databaseUrl: string; env: Record<string, string> },
  env: Record<string, string> = {},
): WorkerProcess {
  const child = spawn(process.execPath, tsEntry('main.ts'), {
    env: {
      ...process.env,
      ...base.env,
      DATABASE_URL: base.databaseUrl,
      ROLE: 'worker',
      MIGRATIONS_RUN: 'false',
      TS_NODE_TRANSPILE_ONLY: 'true',
      CALLING_WORKER_READY_IPC: '1',
      ...env,
    },
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const ready = new Promise<void>((resolve, reject) => {
    child.on('message', (message: { type?: string }) => {
      if (message?.type === 'calling-worker-ready') resolve();
    });
    child.once('exit', (code) =>
      reject(new Error(`worker process exited with ${code} before it started`)),
    );
  });
  ready.catch(() => undefined);
  return {
    child,
    ready,
    kill: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    },
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}
