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

/** A loopback port nothing listens on right now, for a child process (or a stub) to take. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
