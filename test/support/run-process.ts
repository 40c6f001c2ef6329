import { ChildProcess, spawn, spawnSync } from 'child_process';
import { createServer } from 'net';
import { tmpdir } from 'os';
import { join } from 'path';
import { Agent, setGlobalDispatcher } from 'undici';

export const ROOT = join(import.meta.dirname, '..', '..');

/** Node options under which `.ts` files run without a build (scripts/register-ts.js). */
export const TS_LOADER = ['--import', join(ROOT, 'scripts', 'register-ts.js')];

/** Node arguments that run a TypeScript file without a build. */
export function tsFile(file: string): string[] {
  return [...TS_LOADER, file];
}

/** Node arguments that run a TypeScript entry point of src/ without a build. */
export function tsEntry(entry: string): string[] {
  return tsFile(join(ROOT, 'src', entry));
}

export function runCli(args: string[], env: Record<string, string>) {
  const result = spawnSync(process.execPath, [...tsEntry('cli.ts'), ...args], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    encoding: 'utf8',
    timeout: 60_000,
  });
  // spawnSync held the event loop: a keep-alive socket of fetch's pool that a server closed meanwhile
  // (Node's servers close idle ones after 5 s) is not yet known to be closed, and the test's next
  // fetch would go out on it and fail with "other side closed". The next requests take a new pool.
  setGlobalDispatcher(new Agent());
  const parse = (text: string) => {
    try {
      return JSON.parse(text);
    } catch {
      return text;
    }
  };
  return { status: result.status, stdout: parse(result.stdout), stderr: result.stderr };
}

export type StartedProcess = ChildProcess & { output: () => string };

/** A child process of Node with what it prints (stdout and stderr together) kept for the test. */
function startNode(args: string[], cwd: string, env: Record<string, string>): StartedProcess {
  const child = spawn(process.execPath, args, {
    cwd,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (output += d.toString()));
  return Object.assign(child, { output: () => output });
}

/** A TypeScript entry of the sources (`src/...`), run from the checkout. */
export function startProcess(entry: string, env: Record<string, string>): StartedProcess {
  return startNode(tsEntry(entry), ROOT, env);
}

/**
 * The build, `dist/main.js`, as `npm start` runs it, from a folder holding no .env of the checkout.
 * Call ensureBuilt() first (in a beforeAll).
 */
export function startBuiltService(env: Record<string, string>): StartedProcess {
  return startNode([join(ROOT, 'dist', 'main.js')], tmpdir(), env);
}

/**
 * Builds dist/ when it is missing or older than the sources, as `npm start` does: the service and the
 * console both, so that a suite running at the same time on another worker finds it fresh and does
 * not rebuild dist/ (emptying dist/console) under another.
 */
export function ensureBuilt(): void {
  const build = spawnSync(process.execPath, [join(ROOT, 'scripts', 'ensure-built.js')], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  if (build.status !== 0) throw new Error(`build failed:\n${build.stdout}${build.stderr}`);
}

/**
 * `ensureBuilt` without blocking: a test file starts its app and its browser meanwhile (the console's
 * files are read per request, so a build that ends before the first page is enough).
 */
export function ensureBuiltAsync(): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(ROOT, 'scripts', 'ensure-built.js')], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    child.on('error', reject);
    child.on('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`build failed (exit ${code}):\n${output}`)),
    );
  });
}

export function exited(child: ChildProcess): Promise<number | null> {
  return child.exitCode !== null
    ? Promise.resolve(child.exitCode)
    : new Promise((resolve) => child.once('exit', (code) => resolve(code)));
}

/**
 * A loopback port nothing listens on right now, for a child process (or a stub) to take a moment later.
 * It is drawn below the kernel's ephemeral range (32768-60999 on Linux, 49152-65535 on macOS), where
 * listen(0) and outgoing connections never pick ports, so no other listener of the suite (a PGlite
 * server, an emulator, an app on port 0) takes it in between; and each Vitest worker draws from a
 * stripe of its own (VITEST_POOL_ID, 1 to the number of workers), so two test files running at once
 * never draw the same port.
 */
export async function freePort(): Promise<number> {
  const worker = Number(process.env.VITEST_POOL_ID ?? 1);
  const stripes = 16;
  const first = 10_000;
  const slots = Math.floor((32_768 - first) / stripes);
  for (let attempt = 0; attempt < 100; attempt++) {
    const port = first + Math.floor(Math.random() * slots) * stripes + ((worker - 1) % stripes);
    if (await canListen(port)) return port;
  }
  throw new Error('freePort: no free loopback port found below the ephemeral range');
}

function canListen(port: number): Promise<boolean> {
  const server = createServer();
  return new Promise((resolve) => {
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}
