// Writes a data directory the test databases on PGlite start from (test-database.ts) to the file named
// by its first argument: a new in-memory PGlite, served by the service's own server and migrated over
// it as the app migrates on start, pg-boss's schema included (not with `--empty`), then checkpointed (so loading it replays no
// WAL) and dumped as a tar. Written under a name of its own and renamed: no reader sees part of it.
import { mkdirSync, renameSync, writeFileSync } from 'fs';
import { dirname } from 'path';
import { PGlite } from '@electric-sql/pglite';
import { DataSource } from 'typeorm';
import { dataSourceOptions } from '../../src/database/data-source.options.js';
import { runMigrationsLocked } from '../../src/database/migrations-runner.js';
import { PgliteServer } from '../../src/database/pglite-server.js';
import { installJobSchema } from './job-schema.js';

const [file, empty] = [process.argv[2], process.argv[3] === '--empty'];
const db = await PGlite.create();
if (!empty) {
  const server = new PgliteServer(db);
  const port = await server.listen();
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  const dataSource = await new DataSource(dataSourceOptions(url, 2)).initialize();
  await runMigrationsLocked(dataSource);
  await installJobSchema(url, dataSource);
  await dataSource.destroy();
  await server.close();
}
await db.exec('CHECKPOINT');
const dump = await db.dumpDataDir('none');
await db.close();
mkdirSync(dirname(file), { recursive: true });
const partial = `${file}.${process.pid}.partial`;
writeFileSync(partial, Buffer.from(await dump.arrayBuffer()));
renameSync(partial, file);
