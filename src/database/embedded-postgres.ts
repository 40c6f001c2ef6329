import type { PGlite } from '@electric-sql/pglite';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'fs';
import { resolve } from 'path';
import type { PgliteServer } from './pglite-server.js';

/** A database URL to connect to, and what to do once done with it. */
export interface EmbeddedDatabase {
  readonly url: string;
  stop(): Promise<void>;
}

/**
 * PGlite (PostgreSQL compiled to WASM) inside this process, served on a loopback port through
 * pglite-socket's protocol handler, so the service talks to it with the same `pg` driver and SQL as to
 * a real PostgreSQL. `PgliteServer` multiplexes the connections onto PGlite's single session.
 */
export class EmbeddedPostgres implements EmbeddedDatabase {
  private constructor(
    private readonly db: PGlite,
    private readonly server: PgliteServer,
    readonly url: string,
    private readonly lockFile: string | null,
  ) {}

  /** `dataDir` null keeps the database in memory (tests). */
  static async start(dataDir: string | null): Promise<EmbeddedPostgres> {
    const lockFile = dataDir ? lockDataDir(dataDir) : null;
    // Required here, not at the top: a process on PostgreSQL never loads PGlite and its socket
    // server (docs/architecture.md, "Cold start").
    const [{ PGlite }, { PgliteServer }] = await Promise.all([
      import('@electric-sql/pglite'),
      import('./pglite-server.js'),
    ]);
    const db = await PGlite.create(dataDir ?? undefined);
    const server = new PgliteServer(db);
    const port = await server.listen();
    const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
    // Published beside the pid, so a command-line tool can use the database while this process runs.
    if (lockFile) writeFileSync(lockFile, `${process.pid}\n${url}\n`);
    return new EmbeddedPostgres(db, server, url, lockFile);
  }

  /**
   * For the CLI: the database of the process that holds `dataDir` (through the loopback port it
   * serves it on), or, when none does, a PGlite of its own as `start` makes. A process that holds the
   * directory but serves it on no port yet (still starting) is refused as by `start`.
   */
  static async startOrJoin(dataDir: string | null): Promise<EmbeddedDatabase> {
    const holder = dataDir ? readLock(lockFileOf(dataDir)) : null;
    if (holder?.url && holder.pid !== process.pid && isAlive(holder.pid)) {
      return { url: holder.url, stop: async () => {} };
    }
    return EmbeddedPostgres.start(dataDir);
  }

  async stop(): Promise<void> {
    await this.server.close();
    await this.db.close();
    if (this.lockFile) rmSync(this.lockFile, { force: true });
  }
}

/** An operator's mistake with a clear remedy: reported as one line, not a stack trace. */
export class EmbeddedDatabaseInUseError extends Error {}

/**
 * PGlite is single-process: two processes on one data directory would corrupt it. A pid file refuses
 * the second one with a clear message (and is taken over when its process is gone).
 */
function lockDataDir(dataDir: string): string {
  mkdirSync(dataDir, { recursive: true });
  const lockFile = lockFileOf(dataDir);
  const holder = readLock(lockFile);
  if (holder && holder.pid !== process.pid && isAlive(holder.pid)) {
    throw new EmbeddedDatabaseInUseError(
      `another process (pid ${holder.pid}) holds the embedded database at ${resolve(dataDir)}; ` +
        `stop it or set DATABASE_URL to a PostgreSQL server to run several processes`,
    );
  }
  writeFileSync(lockFile, String(process.pid));
  return lockFile;
}

const lockFileOf = (dataDir: string) => `${resolve(dataDir)}.lock`;

/** The lock file's pid and, once its process serves the database, the URL it serves it on. */
function readLock(lockFile: string): { pid: number; url: string | null } | null {
  let text: string;
  try {
    text = readFileSync(lockFile, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
  const [pid, url] = text.split('\n');
  return Number(pid)
    ? { pid: Number(pid), url: url?.startsWith('postgres://') ? url : null }
    : null;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
