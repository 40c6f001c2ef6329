// An in-memory PGlite served on a loopback port, in a process of its own: worker and CLI child
// processes share the database, and PGlite's WebAssembly Postgres does not run on the test's event loop. Prints {"url": ...} once listening; exits when its parent does.
// It runs the service's own server (src/database/pglite-server.ts), so tests meet the same protocol
// handling as `npm start`. Started through scripts/register-ts.js (see `tsEntry`). Its argument, if
// any, is a data directory to start from (a migrated one: pglite-snapshot.main.ts); else it is empty.
import { readFileSync } from 'fs';
import { PGlite } from '@electric-sql/pglite';
import { PgliteServer } from '../../src/database/pglite-server.js';

const snapshot = process.argv[2];
const db = await PGlite.create(
  snapshot ? { loadDataDir: new Blob([readFileSync(snapshot)]) } : undefined,
);
const server = new PgliteServer(db);
const port = await server.listen();
process.stdout.write(
  JSON.stringify({ url: `postgres://postgres@127.0.0.1:${port}/postgres` }) + '\n',
);
const stop = async () => {
  await server.close().catch(() => undefined);
  await db.close().catch(() => undefined);
  process.exit(0);
};
process.on('SIGTERM', stop);
process.stdin.on('end', stop);
process.stdin.resume();
