import { ChildProcess } from 'child_process';
import { ensureBuilt, exited, freePort, startBuiltService } from '../support/run-process.js';
import { TEST_ENV, waitFor } from '../support/test-app.js';
import { createTestDatabase, usesPglite, withClient } from '../support/test-database.js';

// One PGlite session serves the four processes' starts one statement at a time: fewer rounds there.
const ROUNDS = usesPglite() ? 2 : 3;
const BOOTSTRAP = [
  ['Acme', 'ccs_concurrent_start_acme_key_0000000000000000000'],
  ['Globex', 'ccs_concurrent_start_globex_key_000000000000000000'],
] as const;

interface Started {
  role: string;
  child: ChildProcess;
  health: string;
  output: () => string;
}

/** `dist/main.js` (as `npm start` runs it) in `role` with `env`, its output kept for the failure message. */
function startBuilt(role: 'api' | 'worker', env: Record<string, string>, port: number): Started {
  const child = startBuiltService({
    ...TEST_ENV,
    LOG_LEVEL: 'warn',
    HOST: '127.0.0.1',
    ROLE: role,
    ...(role === 'api' ? { PORT: String(port) } : { HEALTH_PORT: String(port) }),
    ...env,
  });
  return { role, child, health: `http://127.0.0.1:${port}/api/v1/health`, output: child.output };
}

const healthStatus = (url: string) =>
  fetch(url).then(
    (r) => r.status,
    () => 0,
  );

/**
 * Two API and two worker processes started at the same moment on one new, empty database with the
 * same BOOTSTRAP_API_KEYS: every start-up write (migrations and trigger definitions, the job queue's
 * schema, the bootstrap organizations and keys, the demo seed) is made once and found by the others,
 * and every process stays up. Repeated on a new database each round, since a lost race shows only
 * on some starts. On PGlite, as far as one PGlite session allows (below).
 */
describe('processes started together on a new database', () => {
  beforeAll(() => {
    ensureBuilt();
  }, 300_000);

  it(`all stay up, with one organization and one key per bootstrap entry (${ROUNDS} rounds)`, async () => {
    for (let round = 1; round <= ROUNDS; round++) {
      // The PGlite test server serves every connection through one session, where advisory locks
      // exclude nothing: processes racing to migrate one PGlite is not a shape the service supports
      // (the embedded database is single-process; docs/architecture.md). There the schema is made
      // first, and the race is over the rest: the job queue, the bootstrap organizations and keys.
      const database = await createTestDatabase({ empty: !usesPglite() });
      const env = {
        DATABASE_URL: database.url,
        BOOTSTRAP_API_KEYS: BOOTSTRAP.map(([name, key]) => `${name}=${key}`).join(','),
        // The demo seed is serialised by an advisory lock: PostgreSQL only, as above.
        DEMO_SEED: usesPglite() ? 'false' : 'true',
      };
      const ports = [await freePort(), await freePort(), await freePort(), await freePort()];
      const processes = [
        startBuilt('api', env, ports[0]),
        startBuilt('api', env, ports[1]),
        startBuilt('worker', env, ports[2]),
        startBuilt('worker', env, ports[3]),
      ];
      try {
        const statuses = await waitFor(
          () => Promise.all(processes.map((p) => healthStatus(p.health))),
          (s) =>
            s.every((status) => status === 200) || processes.some((p) => p.child.exitCode !== null),
          60_000,
          200,
        );
        const report = processes.map(
          (p) => `${p.role} exit ${p.child.exitCode}: ${p.output().slice(0, 3000)}`,
        );
        expect({ round, statuses, exited: report.filter((r) => !/exit null/.test(r)) }).toEqual({
          round,
          statuses: [200, 200, 200, 200],
          exited: [],
        });

        // An API process answers health before it seeds the demo (after it listens): the seeds are
        // done when each has printed its banner.
        if (!usesPglite()) {
          await waitFor(
            async () => processes.filter((p) => p.role === 'api').map((p) => p.output()),
            (outputs) => outputs.every((o) => o.includes('demo API key')),
            60_000,
            200,
          );
        }
        const stored = await withClient(database.url, async (c) => {
          const organizations = await c.query<{ name: string; keys: string[] }>(
            `SELECT o.name, array_agg(k.name || ':' || (k.revoked_at IS NULL) ORDER BY k.name) AS keys
               FROM organizations o JOIN api_keys k ON k.organization_id = o.id
              GROUP BY o.name ORDER BY o.name`,
          );
          const campaigns = await c.query<{ name: string }>(
            `SELECT name FROM campaigns ORDER BY name`,
          );
          return { organizations: organizations.rows, campaigns: campaigns.rows };
        });
        // Each API process seeds the demo in turn; each start issues a demo key and revokes the
        // one before it (a key is shown once, and no key file is kept on PostgreSQL).
        const demo = usesPglite() ? [] : [{ name: 'Demo', keys: ['demo:false', 'demo:true'] }];
        expect(stored).toEqual({
          organizations: [
            { name: 'Acme', keys: ['bootstrap:true'] },
            ...demo,
            { name: 'Globex', keys: ['bootstrap:true'] },
          ],
          campaigns: usesPglite() ? [] : [{ name: 'Demo campaign' }],
        });

        // Each bootstrap key authenticates for its organization on both API processes.
        for (const port of ports.slice(0, 2)) {
          for (const [, key] of BOOTSTRAP) {
            const res = await fetch(`http://127.0.0.1:${port}/api/v1/campaigns`, {
              headers: { 'X-API-Key': key },
            });
            expect(res.status).toBe(200);
          }
        }
      } finally {
        for (const p of processes) if (p.child.exitCode === null) p.child.kill('SIGTERM');
        await Promise.all(processes.map((p) => exited(p.child)));
        await database.drop();
      }
    }
  }, 240_000);
});
