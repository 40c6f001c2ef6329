import { once } from 'events';
import { mkdtempSync, rmSync } from 'fs';
import { createServer } from 'net';
import { tmpdir } from 'os';
import { join } from 'path';
import { createTestApp, TestApp, waitFor } from '../support/test-app.js';
import { exited, freePort, runCli, startProcess } from '../support/run-process.js';
import { createTestDatabase } from '../support/test-database.js';

describe('the service as a process (npm start) on embedded PGlite', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'ccs-start-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  const env = (port: number) => ({
    PORT: String(port),
    DATABASE_URL: `pglite://${dataDir}/db`,
    LOG_LEVEL: 'warn',
    SIMULATED_CALL_SECONDS: '0',
  });

  async function start(port: number) {
    const service = startProcess('main.ts', env(port));
    const output = await waitFor(
      async () => service.output(),
      (o) => o.includes('demo campaign') || service.exitCode !== null,
      90_000,
      200,
    );
    return { service, output };
  }

  it('starts, prints a working demo key and campaign, and stops cleanly on SIGTERM', async () => {
    const port = await freePort();
    const { service, output } = await start(port);
    const key = /demo API key\s+(ccs_\S+)/.exec(output)?.[1];
    const campaign = /demo campaign\s+(\S+)/.exec(output)?.[1];
    const organization = /demo organization\s+(\S+)/.exec(output)?.[1];
    expect(key).toBeDefined();
    expect(output).toContain(
      `curl -s -X POST http://localhost:${port}/api/v1/campaigns/${campaign}/targets`,
    );
    // The rules the seed set (none: the simulator calls nobody), and who can reach the demo.
    expect(output).toContain(
      '  calling rules      off for the demo organization (simulated calls at any hour) ' +
        '(GET /api/v1/compliance/policy; docs/compliance.md)\n' +
        '  listening on       127.0.0.1 only: this machine (HOST=0.0.0.0 opens it to the network)\n',
    );

    const base = `http://127.0.0.1:${port}`;
    const read = await fetch(`${base}/api/v1/campaigns/${campaign}`, {
      headers: { 'X-API-Key': key! },
    });
    expect(read.status).toBe(200);
    expect(await read.json()).toMatchObject({ id: campaign, name: 'Demo campaign' });

    // The printed demo admin signs in (the console's way: a session cookie).
    const admin = /demo admin\s+(\S+)\s+password (\S+)/.exec(output);
    expect(admin?.[1]).toBe('admin@demo.example');
    const signedIn = await fetch(`${base}/api/v1/sessions`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ email: admin![1], password: admin![2] }),
    });
    expect(signedIn.status).toBe(201);
    expect(await signedIn.json()).toMatchObject({ kind: 'user', role: 'admin' });

    // The banner's tip works while the service holds the embedded database: the CLI uses it
    // through the service's port, and the key it prints authenticates at once.
    expect(output).toContain(
      `  another key        npm run cli -- apikey:create --org ${organization}   (works while this runs)`,
    );
    const created = runCli(['apikey:create', '--org', organization!, '--name', 'second'], {
      DATABASE_URL: `pglite://${dataDir}/db`,
    });
    expect(created).toMatchObject({
      status: 0,
      stdout: {
        organization_id: organization,
        name: 'second',
        key: expect.stringMatching(/^ccs_/),
      },
    });
    const withNewKey = await fetch(`${base}/api/v1/campaigns/${campaign}`, {
      headers: { 'X-API-Key': created.stdout.key },
    });
    expect(withNewKey.status).toBe(200);

    // A second service on the same data directory is still refused: PGlite is single-process.
    const second = startProcess('main.ts', env(await freePort()));
    expect(await exited(second)).toBe(1);
    expect(second.output()).toMatch(
      /another process \(pid \d+\) holds the embedded database at .+; stop it or set DATABASE_URL/,
    );
    expect(second.output()).not.toMatch(/\n\s+at /);

    // Calling rules set through the API are what the next start prints.
    const policy = await fetch(`${base}/api/v1/compliance/policy`, {
      method: 'PUT',
      headers: { 'X-API-Key': key!, 'Content-Type': 'application/json' },
      body: JSON.stringify({
        quiet_hours: { start: '09:00', end: '20:00' },
        state_rules: true,
        max_calls_per_number: { per_24h: 2, per_7d: null },
        restricted_dates: [{ date: '2026-12-25', reason: 'Christmas Day' }],
        default_time_zone: 'America/New_York',
      }),
    });
    expect(policy.status).toBe(200);
    service.kill('SIGTERM');
    expect(await exited(service)).toBe(0);

    const restarted = await start(port);
    try {
      // The same demo admin sign-in at every start of the same data directory.
      expect(restarted.output).toContain(
        `  demo admin         ${admin![1]}   password ${admin![2]}`,
      );
      expect(restarted.output).toContain(
        "  calling rules      calls 09:00-20:00 in the recipient's zone, state rules on, " +
          'at most 2 calls per number per 24 h, 1 restricted date\n' +
          '                     for the demo organization (GET /api/v1/compliance/policy; docs/compliance.md)\n',
      );
    } finally {
      restarted.service.kill('SIGTERM');
      expect(await exited(restarted.service)).toBe(0);
    }
  }, 240_000);

  it('says in one line which port is taken and which setting moves it, and exits 1', async () => {
    const port = await freePort();
    const taken = createServer().listen(port, '127.0.0.1');
    await once(taken, 'listening');
    try {
      const service = startProcess('main.ts', {
        PORT: String(port),
        DATABASE_URL: 'pglite://memory',
        LOG_LEVEL: 'error',
      });
      expect(await exited(service)).toBe(1);
      expect(service.output()).toBe(
        `port ${port} on 127.0.0.1 is already in use by another process: stop that process, or set PORT to a free port\n`,
      );
    } finally {
      taken.close();
    }
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
    const key = runCli(
      ['apikey:create', '--org', org.stdout.id, '--name', 'ops', '--role', 'viewer'],
      env,
    );
    expect(key.status).toBe(0);
    expect(key.stdout).toEqual({
      id: expect.any(String),
      organization_id: org.stdout.id,
      name: 'ops',
      role: 'viewer',
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
        role: 'viewer',
        campaign_ids: null,
        key_prefix: key.stdout.key.slice(0, 10),
        created_at: key.stdout.created_at,
        expires_at: null,
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
