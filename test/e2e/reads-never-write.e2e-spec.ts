import { randomUUID } from 'crypto';
import { Client } from 'pg';
import { createTestApp, TestApp, waitFor } from '../support/test-app.js';

/**
 * Reads never write (docs/architecture.md): every GET route the app serves, called in a burst with
 * the ids of real rows (and, for ids it has none of, an unknown one), leaves the database as it was:
 * the same rows in every table, and no insert, update or delete in `pg_stat_user_tables`, but for the
 * audit trail, which a read of patient data appends to (and nothing updates or deletes). The count
 * tables are left due a fold first (many rows appended by small statements), as when a read used to
 * fold them.
 *
 * PostgreSQL only: PGlite keeps no table statistics (`pg_stat_user_tables` counts nothing there).
 * A backend reports its statistics when it ends, so both measures end every other connection to the
 * test's database first (the service reconnects on its next query).
 */
const onPostgres = process.env.DATABASE_URL?.startsWith('postgres');
const AUDIT = 'public.audit_events';

(onPostgres ? describe : describe.skip)(
  onPostgres
    ? 'reads never write'
    : 'reads never write (skipped: PGlite keeps no table statistics; run with DATABASE_URL=postgres://...)',
  () => {
    let t: TestApp;
    let measure: Client;
    beforeAll(async () => {
      // ROLE=api and no folding timer: nothing but the reads runs.
      t = await createTestApp({ env: { ROLE: 'api', COUNT_FOLD_INTERVAL_SECONDS: '0' } });
      measure = new Client({ connectionString: t.databaseUrl });
      await measure.connect();
    });
    afterAll(async () => {
      await measure?.end();
      await t?.close();
    });

    /** The app's GET routes (Express's router), as templates: `/api/v1/targets/{target_id}`. */
    function getRoutes(): string[] {
      const instance = t.app.getHttpAdapter().getInstance();
      const stack: any[] = instance.router?.stack ?? instance._router?.stack ?? [];
      const found = new Set<string>();
      for (const layer of stack) {
        const path: string | undefined = layer.route?.path;
        if (path && layer.route.methods?.get) found.add(path.replace(/:([A-Za-z_]+)/g, '{$1}'));
      }
      return [...found].sort();
    }

    /** Ends every other connection to the database and waits until they are gone (stats flushed). */
    async function flushStatistics(): Promise<void> {
      const { rows } = await measure.query<{ pid: number }>(
        `SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()`,
      );
      const pids = rows.map((r) => r.pid);
      await measure.query(`SELECT pg_terminate_backend(pid) FROM unnest($1::int[]) AS pid`, [pids]);
      await waitFor(
        async () =>
          (
            await measure.query<{ n: number }>(
              `SELECT count(*)::int AS n FROM pg_stat_activity WHERE pid = ANY($1::int[])`,
              [pids],
            )
          ).rows[0].n,
        (n) => n === 0,
      );
      await measure.query(`SELECT pg_stat_clear_snapshot()`);
    }

    /** Every table's rows and its writes so far: `schema.table: rows ins upd del`. */
    async function databaseState(): Promise<Record<string, string>> {
      await flushStatistics();
      const { rows: tables } = await measure.query<{
        name: string;
        ins: string;
        upd: string;
        del: string;
      }>(
        `SELECT format('%I.%I', schemaname, relname) AS name, n_tup_ins AS ins, n_tup_upd AS upd,
              n_tup_del AS del
         FROM pg_stat_user_tables ORDER BY 1`,
      );
      const state: Record<string, string> = {};
      for (const table of tables) {
        const { rows } = await measure.query<{ n: string }>(
          `SELECT count(*) AS n FROM ${table.name}`,
        );
        state[table.name] = `${rows[0].n} rows, ${table.ins} ins ${table.upd} upd ${table.del} del`;
      }
      return state;
    }

    it('every GET route leaves every table as it was: rows, inserts, updates and deletes', async () => {
      const { organizationId, apiKey } = await t.createOrganization();
      const { id: campaignId } = await t.createCampaign(apiKey);
      const targetIds: string[] = [];
      for (let round = 0; round < 3; round++)
        targetIds.push(
          ...(await t.addTargets(apiKey, campaignId, {
            targets: Array.from({ length: 40 }, (_, i) => ({
              phone_number: `+1555${String(round * 100 + i).padStart(7, '0')}`,
            })),
          })),
        );
      // Statuses and last calls moved one target per statement: the count tables pile up rows past
      // what the folding policy folds (a read that folded would write here).
      for (const [i, id] of targetIds.slice(0, 80).entries())
        await t.sql(
          `UPDATE targets SET status = $2, last_call_date = now() - $3 * interval '1 minute'
          WHERE id = $1`,
          [id, i % 2 ? 'Finished' : 'Failed', i],
        );
      for (let i = 0; i < 70; i++)
        await t.sql(
          `INSERT INTO call_logs (organization_id, campaign_id, target_id, attempt, to_number,
                                from_number, provider, started_at)
         VALUES ($1, $2, $3, 1, '+15550000001', '+15550000002', 'simulated', now())`,
          [organizationId, campaignId, targetIds[i]],
        );
      const [callLog] = await t.sql<{ id: string }>(
        `SELECT id::text AS id FROM call_logs WHERE organization_id = $1 LIMIT 1`,
        [organizationId],
      );
      const [message] = await t.sql<{ id: string }>(
        `INSERT INTO messages (organization_id, target_id, provider, provider_message_id, direction,
              to_number, from_number, body, status, keyword, created_at, updated_at, settled_at)
       VALUES ($1, $2, 'twilio', 'SM0001', 'inbound', '+15550000000', '+15550100001', 'STOP',
               'received', 'opt_out', now(), now(), now())
       RETURNING id`,
        [organizationId, targetIds[0]],
      );
      const imported = await t
        .http()
        .post(`/api/v1/campaigns/${campaignId}/targets/import`)
        .set('X-API-Key', apiKey)
        .set('Content-Type', 'text/csv')
        .send('phone_number\n+15550100020\n');
      expect(imported.status).toBe(200);
      const ids: Record<string, string> = {
        campaign_id: campaignId,
        target_id: targetIds[0],
        call_log_id: callLog.id,
        message_id: message.id,
        import_id: imported.body.id,
      };
      const day = new Date().toISOString().slice(0, 10);
      // Each list kind: no filter, status, creation window, last-call window and their combinations.
      const queries: Record<string, string[]> = {
        '/api/v1/campaigns/{campaign_id}/targets': [
          '',
          '?status=Failed',
          `?from_date=${day}&to_date=${day}`,
          `?from_last_call_date=2000-01-01&to_last_call_date=2100-01-01`,
          `?status=Finished&from_date=${day}&to_date=${day}&from_last_call_date=2000-01-01`,
          '?page=3&limit=5',
        ],
        '/api/v1/call-logs': ['', `?from_date=${day}`, `?campaign_id=${campaignId}`],
      };
      const urls = getRoutes().flatMap((route) => {
        const path = route.replace(
          /\{([A-Za-z_]+)\}/g,
          (_, name: string) => ids[name] ?? randomUUID(),
        );
        return (queries[route] ?? ['']).map((q) => `${path}${q}`);
      });
      expect(urls.length).toBeGreaterThan(25);

      const before = await databaseState();
      const statuses: Record<string, number> = {};
      for (let round = 0; round < 3; round++)
        await Promise.all(
          urls.map(async (url) => {
            const res = await t.http().get(url).set('X-API-Key', apiKey);
            statuses[url] = res.status;
          }),
        );
      const after = await databaseState();

      // The one write a read makes is its audit event (a read of patient data is recorded before it
      // is answered: docs/access.md), appended and never changed; every other table is as it was.
      const { [AUDIT]: auditBefore, ...restBefore } = before;
      const { [AUDIT]: auditAfter, ...restAfter } = after;
      expect(restAfter).toEqual(restBefore);
      const [rows0, ins0, upd0, del0] = auditBefore.match(/\d+/g)!.map(Number);
      const [rows1, ins1, upd1, del1] = auditAfter.match(/\d+/g)!.map(Number);
      expect({ updated: upd1 - upd0, deleted: del1 - del0, appended: rows1 - rows0 }).toEqual({
        updated: 0,
        deleted: 0,
        appended: ins1 - ins0,
      });
      expect(rows1).toBeGreaterThan(rows0);
      // The burst read real rows: the routes given ids answered 200, not only 404s.
      expect(
        [
          `/api/v1/campaigns/${campaignId}/targets`,
          `/api/v1/campaigns/${campaignId}/stats`,
          `/api/v1/targets/${targetIds[0]}`,
          `/api/v1/call-logs/${callLog.id}`,
          `/api/v1/imports/${imported.body.id}`,
        ].map((url) => [url, statuses[url]]),
      ).toEqual([
        [`/api/v1/campaigns/${campaignId}/targets`, 200],
        [`/api/v1/campaigns/${campaignId}/stats`, 200],
        [`/api/v1/targets/${targetIds[0]}`, 200],
        [`/api/v1/call-logs/${callLog.id}`, 200],
        [`/api/v1/imports/${imported.body.id}`, 200],
      ]);
    });
  },
);
