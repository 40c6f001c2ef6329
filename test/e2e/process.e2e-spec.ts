import { mkdtempSync, rmSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';
import { createTestApp, TestApp, waitFor } from '../support/test-app.js';
import { exited, freePort, runCli, startProcess } from '../support/run-process.js';
import { createTestDatabase } from '../support/test-database.js';

describe('the service as a process (npm start) on embedded PGlite', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'ccs-start-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('starts, prints a working demo key and campaign, and stops cleanly on SIGTERM', async () => {
    const port = await freePort();
    const env = {
      PORT: String(port),
      DATABASE_URL: `pglite://${dataDir}/db`,
      LOG_LEVEL: 'warn',
      SIMULATED_CALL_SECONDS: '0',
    };
    const service = startProcess('main.ts', env);
    const output = await waitFor(
      async () => service.output(),
      (o) => o.includes('demo campaign') || service.exitCode !== null,
      90_000,
      200,
    );
    const key = /demo API key\s+(ccs_\S+)/.exec(output)?.[1];
    const campaign = /demo campaign\s+(\S+)/.exec(output)?.[1];
    expect(key).toBeDefined();
    expect(output).toContain(
      `curl -s -X POST http://localhost:${port}/api/v1/campaigns/${campaign}/targets`,
    );

    const base = `http://127.0.0.1:${port}`;
    const read = await fetch(`${base}/api/v1/campaigns/${campaign}`, {
      headers: { 'X-API-Key': key! },
    });
    expect(read.status).toBe(200);
    expect(await read.json()).toMatchObject({ id: campaign, name: 'Demo campaign' });

    // A second process on the same data directory is refused: PGlite is single-process.
    const second = runCli(['org:list'], { DATABASE_URL: `pglite://${dataDir}/db` });
    expect(second.status).toBe(1);
    expect(second.stderr).toMatch(
      /another process \(pid \d+\) holds the embedded database at .+; stop it or set DATABASE_URL/,
    );
    expect(second.stderr).not.toMatch(/\n\s+at /);

    service.kill('SIGTERM');
    expect(await exited(service)).toBe(0);
  }, 120_000);
});

describe('what a process says when it starts', () => {
  it('logs its role, port and database (no credentials), the migrations, and how to make the first key', async () => {
    const database = await createTestDatabase({ empty: true }); // so the process migrates it
    try {
      const port = await freePort();
      // A password in the URL must never reach the log (trust authentication ignores it here).
      const url = new URL(database.url);
      url.password = 'n0t-for-logs';
      const service = startProcess('main.ts', {
        PORT: String(port),
        DATABASE_URL: url.toString(),
        LOG_LEVEL: 'info',
        DEMO_SEED: 'false',
      });
      const output = await waitFor(
        async () => service.output(),
        (o) => o.includes('started: ') || service.exitCode !== null,
        90_000,
        200,
      );
      service.kill('SIGTERM');
      expect(await exited(service)).toBe(0);
      const messages = output
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .map((line) => (JSON.parse(line) as { msg: string }).msg);
      expect(messages).toEqual(
        expect.arrayContaining([
          expect.stringMatching(/^migrations applied: CreateCoreSchema1767225600000, /),
          `started: role all, port ${port} on 0.0.0.0, PostgreSQL at ${url.hostname}:${url.port}${url.pathname}`,
          'No organization yet, so no API key works: create one with `npm run cli -- org:create --name <name>`, ' +
            'then its key with `npm run cli -- apikey:create --org <organization id>` (or set BOOTSTRAP_API_KEYS)',
        ]),
      );
      expect(output).not.toContain('n0t-for-logs');
    } finally {
      await database.drop();
    }
  }, 120_000);
});

describe('the CLI', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('creates organizations and keys that the API accepts, lists and revokes them', async () => {
    const env = { DATABASE_URL: t.databaseUrl };
    const org = runCli(['org:create', '--name', 'Cli Corp'], env);
    expect(org).toMatchObject({ status: 0, stdout: { id: expect.any(String), name: 'Cli Corp' } });
    const key = runCli(['apikey:create', '--org', org.stdout.id, '--name', 'ops'], env);
    expect(key.status).toBe(0);
    expect(key.stdout).toEqual({
      id: expect.any(String),
      organization_id: org.stdout.id,
      name: 'ops',
      key: expect.stringMatching(/^ccs_/),
      created_at: expect.any(String),
    });
    const ok = await t.http().get('/api/v1/campaigns').set('X-API-Key', key.stdout.key);
    expect(ok.status).toBe(200);

    const list = runCli(['apikey:list', '--org', org.stdout.id], env);
    expect(list.stdout).toEqual([
      {
        id: key.stdout.id,
        name: 'ops',
        key_prefix: key.stdout.key.slice(0, 10),
        created_at: key.stdout.created_at,
        revoked_at: null,
      },
    ]);
    expect(runCli(['apikey:revoke', key.stdout.id], env)).toMatchObject({
      status: 0,
      stdout: { id: key.stdout.id, revoked: true },
    });
    expect((await t.http().get('/api/v1/campaigns').set('X-API-Key', key.stdout.key)).status).toBe(
      401,
    );
  }, 120_000);

  it('explains bad usage with exit code 2', () => {
    const result = runCli(['org:create'], { DATABASE_URL: t.databaseUrl });
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('--name is required');
  }, 60_000);

  it('refuses an unknown command before opening any database', () => {
    // Nothing listens on port 1: a CLI that connected first would fail on the connection instead.
    const result = runCli(['org:craete', '--name', 'Acme'], {
      DATABASE_URL: 'postgres://postgres@127.0.0.1:1/nowhere',
    });
    expect(result.status).toBe(2);
    expect(result.stderr.split('\n')[0]).toBe('{"error":"unknown command \\"org:craete\\""}');
    expect(result.stderr).toContain('Usage: npm run cli -- <command> [options]');
    expect(result.stderr).not.toMatch(/ECONNREFUSED|connect/);
  }, 60_000);
});
