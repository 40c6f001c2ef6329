import { ChildProcess, spawn, spawnSync } from 'child_process';
import { createServer } from 'net';
import { join } from 'path';

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
  const parse = (text: string) => {
    try {
      return JSON.parse(text);
    } catch {
      return text;
    }
  };
  return { status: result.status, stdout: parse(result.stdout), stderr: result.stderr };
}

export function startProcess(
  entry: string,
  env: Record<string, string>,
): ChildProcess & { output: () => string } {
  const child = spawn(process.execPath, tsEntry(entry), {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (output += d.toString()));
  return Object.assign(child, { output: () => output });
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
