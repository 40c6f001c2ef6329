import { createHash, randomBytes } from 'crypto';
import { existsSync, readdirSync, readFileSync, rmSync } from 'fs';
import { Client } from 'pg';
import { spawn } from 'child_process';
import { dirname, join, relative, resolve } from 'path';
import { exited, ROOT, tsFile } from './run-process.js';

export interface TestDatabase {
  url: string;
  /** Makes the database unreachable, as an outage would (for health and recovery tests). */
  cut(): Promise<void>;
  drop(): Promise<void>;
}

export interface TestDatabaseOptions {
  /**
   * No schema at all, for the tests of migrating itself (a first start, processes racing to migrate,
   * what the migrations create). Otherwise every migration is already applied.
   */
  empty?: boolean;
  /**
   * Without pg-boss's schema, as a database is before the service's first start, for the tests of
   * what that start does to it (the pg-boss 10 upgrade). Otherwise it is there (`installJobSchema`).
   */
  withoutJobSchema?: boolean;
}

/**
 * A database of its own for one test app: a new database on the PostgreSQL named by DATABASE_URL, or
 * an in-memory PGlite served on a loopback port (so child worker processes can connect to it too).
 *
 * Migrating takes longer than the rest of creating a database, so it is done once per set of
 * migrations, not per database: on PostgreSQL into a template database every test database is copied
 * from (`CREATE DATABASE ... TEMPLATE`), on PGlite into a data directory each PGlite server loads.
 * Both are named by a hash of the migrations' sources (`migrationsKey`), so a changed migration is never
 * served from an old copy, and a run with the same migrations reuses the copy a run before made. A run
 * makes it before its first test file starts (`prepareTestDatabases`, Vitest's global setup), so the
 * files running at once on parallel workers only copy it. The app still runs its migrations when it
 * starts, as in production; it finds none pending.
 */
export async function createTestDatabase(options: TestDatabaseOptions = {}): Promise<TestDatabase> {
  const database = await newTestDatabase(options);
  if (options.withoutJobSchema && !options.empty) {
    await withClient(database.url, (c) => c.query(`DROP SCHEMA ${JOB_SCHEMA} CASCADE`));
  }
  return database;
}

async function newTestDatabase(options: TestDatabaseOptions): Promise<TestDatabase> {
  if (usesPglite()) return startPgliteProcess(await pgliteSnapshot(!options.empty));
  const adminUrl = process.env.DATABASE_URL!;
  const name = `ccs_test_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  if (options.empty) await withClient(adminUrl, (c) => c.query(`CREATE DATABASE ${name}`));
  else await copyTemplate(adminUrl, name);
  return {
    url: databaseUrl(adminUrl, name),
    cut: () =>
      withClient(adminUrl, async (c) => {
        await c.query(`ALTER DATABASE ${name} WITH ALLOW_CONNECTIONS false`);
        await c.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1`, [
          name,
        ]);
      }),
    drop: async () => {
      await withClient(adminUrl, (c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
    },
  };
}

/**
 * Makes the migrated copy test databases start from, if there is none yet for these migrations: the
 * PGlite data directory, or the template database on DATABASE_URL's PostgreSQL. Called once per run
 * before any test file (test-databases.global-setup.ts); a file that finds none makes it itself.
 */
export async function prepareTestDatabases(): Promise<void> {
  if (usesPglite()) await pgliteSnapshot(true);
  else {
    const adminUrl = process.env.DATABASE_URL!;
    await withClient(adminUrl, (c) => migratedTemplate(c, adminUrl));
  }
}

/** Tests run on PGlite unless DATABASE_URL names a PostgreSQL server. */
export function usesPglite(): boolean {
  const url = process.env.DATABASE_URL;
  return !url || url.startsWith('pglite://');
}

/** Runs `fn` with a client connected to `url`, and closes it. */
export async function withClient<T>(url: string, fn: (c: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

function databaseUrl(adminUrl: string, name: string): string {
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/**
 * A hash of what decides the migrated schema: the sources of the migrations and of the code that runs
 * them, every file data-source.options.ts, migrations-runner.ts and the job queue's adapter import,
 * transitively, and the versions of TypeORM, which records what is applied, and of pg-boss, which
 * makes its own schema.
 */
function migrationsKey(): string {
  const hash = createHash('sha256').update(
    `typeorm ${packageVersion('typeorm')}\0pg-boss ${packageVersion('pg-boss')}\0`,
  );
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    const source = readFileSync(file, 'utf8');
    hash.update(`${relative(ROOT, file)}\0${source}\0`);
    for (const [, path] of source.matchAll(/from '(\.{1,2}\/[^']+)\.js'/g)) {
      visit(resolve(dirname(file), `${path}.ts`));
    }
  };
  visit(join(ROOT, 'src', 'database', 'data-source.options.ts'));
  visit(join(ROOT, 'src', 'database', 'migrations-runner.ts'));
  visit(join(ROOT, 'src', 'jobs', 'pg-boss-job-queue.ts'));
  visit(join(import.meta.dirname, 'job-schema.ts'));
  return hash.digest('hex').slice(0, 16);
}

function packageVersion(name: string): string {
  const file = join(ROOT, 'node_modules', ...name.split('/'), 'package.json');
  return (JSON.parse(readFileSync(file, 'utf8')) as { version: string }).version;
}

const TEMPLATE_PREFIX = 'ccs_test_template_';
/** pg-boss's schema (src/jobs/pg-boss-job-queue.ts). */
const JOB_SCHEMA = 'pgboss';
/** A template of another set of migrations is dropped once it is this old (a branch since left). */
const TEMPLATE_KEPT_MS = 24 * 60 * 60 * 1000;

/** The template this test file's databases were copied from: known to exist, not looked up again. */
let knownTemplate: string | undefined;

/** Creates database `name` as a copy of the migrated template, made first if there is none. */
async function copyTemplate(adminUrl: string, name: string): Promise<void> {
  await withClient(adminUrl, async (c) => {
    for (let attempt = 1; ; attempt++) {
      knownTemplate ??= await migratedTemplate(c, adminUrl);
      try {
        await c.query(`CREATE DATABASE ${name} TEMPLATE ${knownTemplate}`);
        return;
      } catch (err) {
        knownTemplate = undefined;
        // 3D000: dropped as too old by a run of another checkout since it was looked up.
        if ((err as { code?: string }).code !== '3D000' || attempt > 1) throw err;
      }
    }
  });
}

/**
 * The name of the template database holding the current migrations, migrated now if it does not
 * exist. Test runs of several checkouts may share the server: one of them migrates a template while
 * the others wait on an advisory lock (in DATABASE_URL's database), and it is built under another
 * name and renamed when complete, so no run copies a half-migrated one. It takes no connections
 * (copying a database needs it to have none).
 */
async function migratedTemplate(c: Client, adminUrl: string): Promise<string> {
  const key = migrationsKey();
  const template = `${TEMPLATE_PREFIX}${key}`;
  const exists = async () =>
    (await c.query(`SELECT 1 FROM pg_database WHERE datname = $1`, [template])).rowCount === 1;
  if (await exists()) return template;
  const lock = BigInt(`0x${key.slice(0, 15)}`).toString();
  await c.query(`SELECT pg_advisory_lock($1)`, [lock]);
  try {
    if (await exists()) return template;
    const building = `${template}_building`;
    // What a run killed while building left.
    await c.query(`DROP DATABASE IF EXISTS ${building} WITH (FORCE)`);
    await c.query(`CREATE DATABASE ${building}`);
    await migrate(databaseUrl(adminUrl, building));
    await c.query(`ALTER DATABASE ${building} WITH ALLOW_CONNECTIONS false`);
    await c.query(`COMMENT ON DATABASE ${building} IS '${new Date().toISOString()}'`);
    await c.query(`ALTER DATABASE ${building} RENAME TO ${template}`);
    await c.query(`ALTER DATABASE ${template} WITH IS_TEMPLATE true`);
    await dropOldTemplates(c, template);
    return template;
  } finally {
    await c.query(`SELECT pg_advisory_unlock($1)`, [lock]);
  }
}

/** Migrates the database at `url` as the app does when it starts, pg-boss's schema included. */
async function migrate(url: string): Promise<void> {
  // Loaded here: most test files never build a template, and TypeORM is slow to load.
  const { DataSource } = await import('typeorm');
  const { dataSourceOptions } = await import('../../src/database/data-source.options.js');
  const { runMigrationsLocked } = await import('../../src/database/migrations-runner.js');
  const { installJobSchema } = await import('./job-schema.js');
  const dataSource = await new DataSource(dataSourceOptions(url, 2)).initialize();
  try {
    await runMigrationsLocked(dataSource);
    await installJobSchema(url, dataSource);
  } finally {
    await dataSource.destroy();
  }
}

/** Drops the templates of other migrations built more than TEMPLATE_KEPT_MS ago. */
async function dropOldTemplates(c: Client, current: string): Promise<void> {
  const { rows } = await c.query<{ name: string; built: string | null }>(
    `SELECT datname AS name, shobj_description(oid, 'pg_database') AS built
       FROM pg_database WHERE datname LIKE $1 AND datname <> $2`,
    [`${TEMPLATE_PREFIX}%`, current],
  );
  for (const { name, built } of rows) {
    // One being built has no time yet; one another run is copying right now is not dropped.
    if (!(Date.now() - Date.parse(built ?? '') > TEMPLATE_KEPT_MS)) continue;
    await c
      .query(`ALTER DATABASE ${name} WITH IS_TEMPLATE false`)
      .then(() => c.query(`DROP DATABASE ${name}`))
      .catch(() => undefined);
  }
}

const PGLITE_SNAPSHOTS = join(ROOT, 'node_modules', '.cache', 'test-databases');

/**
 * The file of a PGlite data directory to start from, made first if there is none: in this checkout's
 * node_modules, named by the PGlite version (a data directory is only read by the PGlite that wrote
 * it) and, migrated, by the migrations' hash. Even the empty one saves time: a new PGlite runs initdb
 * (4 to 5 s on a busy machine), loading a data directory takes about 1 s. Made by a child process
 * (pglite-snapshot.main.ts), as the servers are (pglite-server.main.ts). Two processes making one at
 * once (two checkouts' runs, or two test files asking for the empty one) each write it whole under a
 * name of their own and rename it.
 */
async function pgliteSnapshot(migrated: boolean): Promise<string> {
  const version = packageVersion('@electric-sql/pglite');
  const names = {
    migrated: `pglite-${version}-migrated-${migrationsKey()}.tar`,
    empty: `pglite-${version}-empty.tar`,
  };
  const file = join(PGLITE_SNAPSHOTS, migrated ? names.migrated : names.empty);
  if (existsSync(file)) return file;
  const child = spawn(
    process.execPath,
    [
      ...tsFile(join(import.meta.dirname, 'pglite-snapshot.main.ts')),
      file,
      ...(migrated ? [] : ['--empty']),
    ],
    { stdio: ['ignore', 'inherit', 'inherit'] },
  );
  const code = await exited(child);
  if (code !== 0) throw new Error(`pglite-snapshot exited with ${code}`);
  // Those of other migrations or another PGlite version, from earlier runs of this checkout.
  for (const other of readdirSync(PGLITE_SNAPSHOTS)) {
    if (other.endsWith('.tar') && other !== names.migrated && other !== names.empty) {
      rmSync(join(PGLITE_SNAPSHOTS, other), { force: true });
    }
  }
  return file;
}

/** A PGlite server on a loopback port, started from the data directory in the file `snapshot`. */
async function startPgliteProcess(snapshot: string): Promise<TestDatabase> {
  const child = spawn(
    process.execPath,
    [...tsFile(join(import.meta.dirname, 'pglite-server.main.ts')), snapshot],
    { stdio: ['pipe', 'pipe', 'inherit'] },
  );
  const url = await new Promise<string>((resolve, reject) => {
    let buffered = '';
    child.stdout.on('data', (chunk: Buffer) => {
      buffered += chunk.toString();
      const line = buffered.split('\n')[0];
      if (buffered.includes('\n')) resolve(JSON.parse(line).url);
    });
    child.once('exit', (code) => reject(new Error(`pglite-server exited with ${code}`)));
  });
  const stop = (signal: NodeJS.Signals) =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill(signal);
    });
  return { url, cut: () => stop('SIGKILL'), drop: () => stop('SIGTERM') };
}
