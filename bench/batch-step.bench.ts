/**
 * Batch step benchmark (a script, not a test): 5000 updates through
 * `POST /api/v1/campaigns/{id}/targets/step/{friendly_id}` end to end over HTTP, against the same merge
 * done by one raw SQL statement with `pg`, in the same run, on the same PostgreSQL.
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npm run bench:steps
 *
 * DATABASE_URL names a server where the script may create (and drops afterwards) a database of its own.
 * BENCH_ROUNDS (default 7) measured rounds follow 2 warm-up rounds; medians are reported.
 * Goal (issue 10): the HTTP request takes at most 1.5x the raw statement.
 */
import 'reflect-metadata';
import {
  benchApi,
  loadAverage,
  median,
  round,
  runBench,
  serverVersion,
  withBenchService,
  writeResult,
} from './support.js';

const UPDATES = 5000;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7);
const WARMUP = 2;
const GOAL_RATIO = 1.5;

const RAW_MERGE = `
  UPDATE targets t SET input_data = t.input_data || u.d, updated_at = now()
  FROM jsonb_to_recordset($2::jsonb) AS u(xid text, d jsonb)
  WHERE t.campaign_id = $1::uuid AND t.external_id = u.xid`;

async function main(): Promise<void> {
  await withBenchService({ ROLE: 'api' }, async ({ service, raw, dbName }) => {
    const { api } = await benchApi(service, dbName);
    const loadBefore = loadAverage();

    // Two campaigns with the same 5000 targets: one updated over HTTP, one by the raw statement.
    const campaigns: string[] = [];
    for (const name of ['http', 'raw']) {
      const campaign = await api('POST', '/api/v1/campaigns', {
        name: `bench ${name}`,
        type: 'patient',
        steps: [{ friendly_id: 'labs', type: 'webhook', on_receive: 'merge' }],
      });
      await api('POST', `/api/v1/campaigns/${campaign.id}/targets`, {
        targets: Array.from({ length: UPDATES }, (_, i) => ({
          phone_number: `+1555${String(i).padStart(7, '0')}`,
          external_id: `patient-${i}`,
          input_data: { first_visit: true, clinic: 'North' },
        })),
      });
      campaigns.push(campaign.id);
    }
    const [httpCampaign, rawCampaign] = campaigns;

    const updates = (round: number) =>
      Array.from({ length: UPDATES }, (_, i) => ({
        external_id: `patient-${i}`,
        input_data: {
          lab_result: i % 3 === 0 ? 'positive' : 'negative',
          checked_at: new Date(Date.UTC(2026, 0, 1, 0, 0, round)).toISOString(),
          score: (i * 7919) % 1000,
          notes: `round ${round}: follow up in two weeks`,
          flags: { fasting: i % 2 === 0, urgent: false },
        },
      }));

    const http: number[] = [];
    const sql: number[] = [];
    for (let round = 0; round < WARMUP + ROUNDS; round++) {
      const batch = updates(round);

      const h0 = performance.now();
      const result = await api('POST', `/api/v1/campaigns/${httpCampaign}/targets/step/labs`, {
        updates: batch,
      });
      const h1 = performance.now();
      if (result.updated !== UPDATES) throw new Error(`HTTP updated ${result.updated}`);

      const r0 = performance.now();
      const payload = JSON.stringify(batch.map((u) => ({ xid: u.external_id, d: u.input_data })));
      const { rowCount } = await raw.query(RAW_MERGE, [rawCampaign, payload]);
      const r1 = performance.now();
      if (rowCount !== UPDATES) throw new Error(`raw updated ${rowCount}`);

      if (round >= WARMUP) {
        http.push(h1 - h0);
        sql.push(r1 - r0);
      }
    }

    const ratio = median(http) / median(sql);
    const result = {
      updates: UPDATES,
      rounds: ROUNDS,
      http_ms: { median: median(http), min: Math.min(...http), max: Math.max(...http) },
      raw_sql_ms: { median: median(sql), min: Math.min(...sql), max: Math.max(...sql) },
      ratio,
      load_average: { before: loadBefore, after: loadAverage() },
      summary: [
        {
          path: `POST .../targets/step/{step} (${UPDATES} updates), median`,
          ours: `${Math.round(median(http))} ms`,
          baseline: `${Math.round(median(sql))} ms raw SQL`,
          ratio: round(ratio),
          goal: `≤ ${GOAL_RATIO}x`,
          met: ratio <= GOAL_RATIO,
        },
      ],
      postgres: await serverVersion(raw),
      node: process.version,
      at: new Date().toISOString(),
    };
    writeResult('batch-step', result);
  });
}

runBench(main);
