/**
 * Target timelines at scale (issue 12, "why not called yet"):
 *
 * 1. GET /targets/{id}/events at BENCH_TIMELINE_TARGETS targets (default 1,000,000) with their events
 *    (each target added, then scheduled, called and ended through the triggers: four events per
 *    target, 4M rows): p50/p95 over random targets, against the single-target read (GET /targets/{id},
 *    one indexed row) measured in the same run.
 * 2. What the triggers cost the bulk add: POST .../targets of 10,000 targets with the target_events
 *    triggers on and off (ALTER TABLE ... DISABLE TRIGGER), alternating, same run; median ratio.
 *
 *   DATABASE_URL=postgres://... npm run bench:timeline
 */
import { performance } from 'perf_hooks';
import {
  baseUrl,
  benchApi,
  benchCampaign,
  median,
  round,
  runBench,
  serverVersion,
  stats,
  SummaryRow,
  withBenchService,
  writeResult,
} from './support.js';

const TARGETS = Number(process.env.BENCH_TIMELINE_TARGETS ?? 1_000_000);
const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 200);
const ADD_ROUNDS = Number(process.env.BENCH_ADD_ROUNDS ?? 5);
const PER_REQUEST = 10_000;
const EVENT_TRIGGERS = ['targets_events_insert', 'targets_events_update', 'targets_events_delete'];


async function main(): Promise<void> {
  await withBenchService({ ROLE: 'api', RATE_LIMIT_REQUESTS: '0' }, async ({ service, raw, dbName }) => {
    const { api, key, organizationId } = await benchApi(service, dbName);
    const campaignId = await benchCampaign(api, 'bench timeline');
    const base = baseUrl(service);

    // 1. A large campaign, written in set-based statements that go through the triggers.
    const buildStart = performance.now();
    await raw.query(
      `INSERT INTO targets (id, organization_id, campaign_id, phone_number, input_data, output_data,
                            status, attempts, created_at, updated_at)
       SELECT gen_random_uuid(), $1, $2, '+1555' || lpad(i::text, 7, '0'), '{}', '{}', 'Pending', 0,
              now() + i * interval '1 microsecond', now()
         FROM generate_series(1, $3) AS i`,
      [organizationId, campaignId, TARGETS],
    );
    await raw.query(
      `UPDATE targets SET status = 'Scheduled', scheduled_time = now(), updated_at = now() + interval '1 s'
        WHERE campaign_id = $1`,
      [campaignId],
    );
    await raw.query(
      `UPDATE targets SET status = 'In Progress', attempts = 1, call_log_ids = '{1}',
              updated_at = now() + interval '2 s' WHERE campaign_id = $1`,
      [campaignId],
    );
    await raw.query(
      `UPDATE targets SET status = 'Finished', outcome = 'Call completed', updated_at = now() + interval '3 s'
        WHERE campaign_id = $1`,
      [campaignId],
    );
    await raw.query('VACUUM ANALYZE targets');
    await raw.query('VACUUM ANALYZE target_events');
    const buildSeconds = (performance.now() - buildStart) / 1000;
    const { rows: counted } = await raw.query<{ n: string }>(`SELECT count(*) AS n FROM target_events`);

    const { rows: picks } = await raw.query<{ id: string }>(
      `SELECT id FROM targets TABLESAMPLE SYSTEM (1) LIMIT $1`,
      [SAMPLES],
    );
    const get = async (path: string) => {
      const t0 = performance.now();
      const res = await fetch(`${base}${path}`, { headers: { 'X-API-Key': key } });
      const body: any = await res.json();
      const ms = performance.now() - t0;
      if (!res.ok) throw new Error(`GET ${path}: ${res.status} ${JSON.stringify(body)}`);
      return { ms, body };
    };
    for (let i = 0; i < 10; i++) await get(`/api/v1/targets/${picks[i].id}/events`); // warm-up
    const eventsMs: number[] = [];
    const readMs: number[] = [];
    for (const { id } of picks) {
      const events = await get(`/api/v1/targets/${id}/events`);
      if (events.body.items.length !== 4) throw new Error(`expected 4 events, got ${events.body.items.length}`);
      eventsMs.push(events.ms);
      readMs.push((await get(`/api/v1/targets/${id}`)).ms);
    }
    const events = stats(eventsMs);
    const read = stats(readMs);

    // 2. The bulk add with and without the event triggers, alternating so load drifts hit both.
    const addOnce = async (round: number, on: boolean) => {
      await raw.query(
        `ALTER TABLE targets ${on ? 'ENABLE' : 'DISABLE'} TRIGGER ${EVENT_TRIGGERS[0]}`,
      );
      const otherId = await benchCampaign(api, `add ${round}`);
      const t0 = performance.now();
      await api('POST', `/api/v1/campaigns/${otherId}/targets`, {
        targets: Array.from({ length: PER_REQUEST }, (_, i) => ({
          phone_number: `+1556${String(i).padStart(7, '0')}`,
          external_id: `r${round}-${i}`,
          input_data: { clinic: 'North', visit: i },
        })),
      });
      return performance.now() - t0;
    };
    await addOnce(-1, true); // warm-up
    const withTriggers: number[] = [];
    const withoutTriggers: number[] = [];
    for (let r = 0; r < ADD_ROUNDS; r++) {
      withTriggers.push(await addOnce(2 * r, true));
      withoutTriggers.push(await addOnce(2 * r + 1, false));
    }
    await raw.query(`ALTER TABLE targets ENABLE TRIGGER ${EVENT_TRIGGERS[0]}`);
    const addWith = median(withTriggers);
    const addWithout = median(withoutTriggers);

    const summary: SummaryRow[] = [
      {
        path: `GET /targets/{id}/events, ${TARGETS.toLocaleString('en')} targets (${Number(counted[0].n).toLocaleString('en')} events), p95`,
        ours: `${events.p95} ms`,
        baseline: `${read.p95} ms GET /targets/{id}`,
        ratio: round(events.p95 / read.p95),
        goal: '< 50 ms',
        met: events.p95 < 50,
      },
      {
        path: `POST .../targets (${PER_REQUEST.toLocaleString('en')}) with event triggers, median`,
        ours: `${round(addWith)} ms`,
        baseline: `${round(addWithout)} ms without`,
        ratio: round(addWith / addWithout),
        goal: '≤ 1.5x',
        met: addWith / addWithout <= 1.5,
      },
    ];
    writeResult('timeline', {
      targets: TARGETS,
      events: Number(counted[0].n),
      samples: picks.length,
      build_seconds: round(buildSeconds),
      events_ms: events,
      single_read_ms: read,
      bulk_add_ms: {
        with_triggers: withTriggers.map(round),
        without_triggers: withoutTriggers.map(round),
        median_with: round(addWith),
        median_without: round(addWithout),
        ratio: round(addWith / addWithout),
      },
      summary,
      postgres: await serverVersion(raw),
      node: process.version,
      at: new Date().toISOString(),
    });
  });
}

runBench(main);
