import type { PGlite } from '@electric-sql/pglite';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'fs';
import { resolve } from 'path';
import type { PgliteServer } from './pglite-server.js';

/**
 * PGlite (PostgreSQL compiled to WASM) inside this process, served on a loopback port through
 * pglite-socket's protocol handler, so the service talks to it with the same `pg` driver and SQL as to
 * a real PostgreSQL. `PgliteServer` multiplexes the connections onto PGlite's single session.
 */
export class EmbeddedPostgres {
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
    return new EmbeddedPostgres(
      db,
      server,
      `postgres://postgres@127.0.0.1:${port}/postgres`,
      lockFile,
    );
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
  const lockFile = `${resolve(dataDir)}.lock`;
  try {
    const pid = Number(readFileSync(lockFile, 'utf8'));
    if (pid && pid !== process.pid && isAlive(pid)) {
      throw new EmbeddedDatabaseInUseError(
        `another process (pid ${pid}) holds the embedded database at ${resolve(dataDir)}; ` +
          `stop it or set DATABASE_URL to a PostgreSQL server to run several processes`,
      );
    }
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  writeFileSync(lockFile, String(process.pid));
  return lockFile;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
