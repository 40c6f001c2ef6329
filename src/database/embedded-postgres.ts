import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'fs';
import { resolve } from 'path';

/**
 * PGlite (PostgreSQL compiled to WASM) inside this process, served on a loopback port through
 * pglite-socket, so the service talks to it with the same `pg` driver and SQL as to a real PostgreSQL.
 * The socket server multiplexes connections and keeps a transaction's statements on one connection.
 */
export class EmbeddedPostgres {
  private constructor(
    private readonly db: PGlite,
    private readonly server: PGLiteSocketServer,
    readonly url: string,
    private readonly lockFile: string | null,
  ) {}

  /** `dataDir` null keeps the database in memory (tests). */
  static async start(dataDir: string | null): Promise<EmbeddedPostgres> {
    const lockFile = dataDir ? lockDataDir(dataDir) : null;
    const db = await PGlite.create(dataDir ?? undefined);
    const server = new PGLiteSocketServer({ db, host: '127.0.0.1', port: 0, maxConnections: 200 });
    await server.start();
    const [host, port] = server.getServerConn().split(':');
    return new EmbeddedPostgres(
      db,
      server,
      `postgres://postgres@${host}:${port}/postgres`,
      lockFile,
    );
  }

  async stop(): Promise<void> {
    await this.server.stop();
    await this.db.close();
    if (this.lockFile) rmSync(this.lockFile, { force: true });
  }
}

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
      throw new Error(
        `The embedded database in ${dataDir} is in use by process ${pid}. Stop it first, or point ` +
          `DATABASE_URL at a PostgreSQL server to run several processes.`,
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
