import { randomBytes } from 'crypto';
import { freePort } from './run-process.js';
import { createTestApp, TestApp, TestAppOptions, waitFor } from './test-app.js';

/**
 * The app listening on a real local port, so that provider emulators post their events to it over
 * HTTP, at the URL we gave them (`PUBLIC_BASE_URL`: Twilio signs it). The deadline sweep runs often;
 * tests move a call's deadline to now to make it due.
 */
export interface ProviderApp extends TestApp {
  baseUrl: string;
  /** Creates a provider connection of the organization; returns its id. */
  connect(apiKey: string, body: Record<string, unknown>): Promise<string>;
  /** A campaign of the connection with one target, launched; resolves once the provider accepted the call. */
  placeCall(
    apiKey: string,
    campaign?: Record<string, unknown>,
    target?: Record<string, unknown>,
  ): Promise<PlacedCall>;
  target(apiKey: string, id: string): Promise<Record<string, any>>;
  callLog(id: number): Promise<Record<string, any>>;
  /** Makes the call's deadline due now, for the sweep to ask the provider. */
  expireDeadline(callLogId: number): Promise<void>;
  /** How many of the call's events were stored. */
  storedEvents(callLogId: number): Promise<number>;
  /** For each of the call's stored events, whether it happened (`occurred_at`) between `since` and now. */
  eventsTimedSince(callLogId: number, since: number): Promise<boolean[]>;
}

export interface PlacedCall {
  campaignId: string;
  targetId: string;
  callLogId: number;
  providerCallId: string;
}

let phone = 0;

export async function startProviderApp(
  env: Record<string, string> = {},
  module?: TestAppOptions['module'],
): Promise<ProviderApp> {
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const t = await createTestApp({
    env: {
      PUBLIC_BASE_URL: baseUrl,
      SECRETS_KEY: randomBytes(32).toString('base64'),
      CALL_SWEEP_INTERVAL_SECONDS: '0.2',
      CALLING_POLL_INTERVAL_SECONDS: '0.1',
      ...env,
    },
    module,
  });
  await t.app.listen(port, '127.0.0.1');

  const app: ProviderApp = {
    ...t,
    baseUrl,
    async connect(apiKey, body) {
      const res = await t
        .http()
        .post('/api/v1/provider-connections')
        .set('X-API-Key', apiKey)
        .send({ name: `connection-${randomBytes(4).toString('hex')}`, ...body });
      if (res.status !== 201) throw new Error(`connect: ${res.status} ${JSON.stringify(res.body)}`);
      return res.body.id as string;
    },
    async placeCall(apiKey, campaign = {}, target = {}) {
      const c = await t.createCampaign(apiKey, {
        max_attempts: 1,
        caller_id: '+15550009999',
        ...campaign,
      });
      const res = await t
        .http()
        .post(`/api/v1/campaigns/${c.id}/targets`)
        .set('X-API-Key', apiKey)
        .send({
          targets: [
            {
              phone_number: `+1555${String(3000000 + ++phone)}`,
              input_data: { first_name: 'Ada' },
              ...target,
            },
          ],
          launch: true,
        });
      if (res.status !== 200) throw new Error(`targets: ${res.status} ${JSON.stringify(res.body)}`);
      const targetId = res.body.target_ids[0] as string;
      const [log] = await waitFor(
        () =>
          t.sql(
            `SELECT id, provider_call_id FROM call_logs WHERE target_id = $1 AND provider_call_id IS NOT NULL`,
            [targetId],
          ),
        (rows) => rows.length === 1,
      );
      return {
        campaignId: c.id as string,
        targetId,
        callLogId: Number(log.id),
        providerCallId: log.provider_call_id as string,
      };
    },
    async target(apiKey, id) {
      return (await t.http().get(`/api/v1/targets/${id}`).set('X-API-Key', apiKey)).body;
    },
    async callLog(id) {
      const [row] = await t.sql(`SELECT * FROM call_logs WHERE id = $1`, [id]);
      return row;
    },
    async expireDeadline(callLogId) {
      await t.sql(
        `UPDATE call_logs SET deadline_at = now() - interval '1 second' WHERE id = $1 AND ended_at IS NULL`,
        [callLogId],
      );
    },
    async eventsTimedSince(callLogId, since) {
      const rows = await t.sql<{ occurred_at: Date }>(
        `SELECT occurred_at FROM call_events WHERE call_log_id = $1 ORDER BY received_at`,
        [callLogId],
      );
      // A second either side: the database's clock and ours are read at different moments.
      const now = Date.now();
      return rows.map(({ occurred_at: at }) => {
        const time = new Date(at).getTime();
        return time >= since - 1000 && time <= now + 1000;
      });
    },
    async storedEvents(callLogId) {
      const [row] = await t.sql<{ n: string }>(
        `SELECT count(*) AS n FROM call_events WHERE call_log_id = $1`,
        [callLogId],
      );
      return Number(row.n);
    },
  };
  return app;
}
