import { mkdtempSync, rmSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';
import { createTestApp, TestApp, waitFor } from '../support/test-app.js';
import { exited, freePort, runCli, startProcess } from '../support/run-process.js';

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
});
