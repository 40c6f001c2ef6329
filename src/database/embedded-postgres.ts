import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import { mkdirSync } from 'fs';

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
  ) {}

  /** `dataDir` null keeps the database in memory (tests). */
  static async start(dataDir: string | null): Promise<EmbeddedPostgres> {
    if (dataDir) mkdirSync(dataDir, { recursive: true });
    const db = await PGlite.create(dataDir ?? undefined);
    const server = new PGLiteSocketServer({ db, host: '127.0.0.1', port: 0, maxConnections: 200 });
    await server.start();
    const [host, port] = server.getServerConn().split(':');
    return new EmbeddedPostgres(db, server, `postgres://postgres@${host}:${port}/postgres`);
  }

  async stop(): Promise<void> {
    await this.server.stop();
    await this.db.close();
  }
}
