/**
 * Campaign stats at scale (issue 12: < 50 ms p95 at 1M targets, exact): one campaign of
 * BENCH_STATS_TARGETS targets (default 1,000,000) and a call log for a third of them, then p50/p95 of
 * `GET /api/v1/campaigns/{id}/stats` over HTTP. The baseline is what the stats did before (one scan of
 * the campaign's targets with GROUPING SETS, one of its call logs), run as raw SQL on the same database
 * in the same run; the benchmark also checks that both give the same counts.
 *
 *   DATABASE_URL=postgres://... BENCH_STATS_TARGETS=200000 npm run bench:stats
 *
 * The rows are written by multi-row INSERT ... SELECT statements (the API's add is the target list's
 * benchmark): the counters are kept by the tables' statement triggers either way.
 */
import { performance } from 'perf_hooks';
import { CallLogRepository } from '../src/modules/call-log/application/ports/call-log.repository.js';
import { TargetRepository } from '../src/modules/target/application/ports/target.repository.js';
import {
  baseUrl,
  benchApi,
  benchCampaign,
  round,
  runBench,
  serverVersion,
  stats,
  SummaryRow,
  withBenchService,
  writeResult,
} from './support.js';

const TARGETS = Number(process.env.BENCH_STATS_TARGETS ?? 1_000_000);
const CHUNK = 100_000;
const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 60);
const STATUSES = ['Pending', 'Scheduled', 'Finished', 'Failed', 'To review', 'In Progress'];
const CATEGORIES = ['GOOD', 'NO_RESPONSE', 'VOICEMAIL', 'HUMAN_ONLY', 'TECHNICAL_FAILURE'];


async function main(): Promise<void> {
  await withBenchService(
    { ROLE: 'api', RATE_LIMIT_REQUESTS: '0' },
    async ({ service, raw, dbName }) => {
      const { api, key, organizationId } = await benchApi(service, dbName);
      const campaignId = await benchCampaign(api, 'bench stats');

      // Targets in every status; Scheduled ones spread over the past and next day (due now and later);
      // ended ones with a category and resolution. Then a call log for each target with one attempt.
      const buildStart = performance.now();
      for (let done = 0; done < TARGETS; done += CHUNK) {
        await raw.query(
          `INSERT INTO targets (id, organization_id, campaign_id, phone_number, status, category, resolution,
                                attempts, scheduled_time)
           SELECT gen_random_uuid(), $1, $2, '+1555' || lpad(i::text, 7, '0'), s.status,
                  CASE WHEN s.status IN ('Finished', 'Failed', 'To review') THEN ($4::text[])[1 + i % 5] END,
                  CASE WHEN s.status = 'Finished' THEN 'successful'
                       WHEN s.status IN ('Failed', 'To review') THEN 'unsuccessful' END,
                  i % 3,
                  CASE WHEN s.status = 'Scheduled' THEN now() + ((i % 2880) - 1440) * interval '1 minute' END
             FROM generate_series($5::int, $6::int - 1) AS i,
                  LATERAL (SELECT ($3::text[])[1 + i % 6] AS status) s`,
          [
            organizationId,
            campaignId,
            STATUSES,
            CATEGORIES,
            done,
            Math.min(TARGETS, done + CHUNK),
          ],
        );
      }
      await raw.query(
        `INSERT INTO call_logs (organization_id, campaign_id, target_id, attempt, to_number, from_number,
                                provider, outcome, started_at, ended_at, duration_seconds, created_at)
         SELECT organization_id, campaign_id, id, 1, phone_number, '+15550000000', 'simulator',
                ($2::text[])[1 + (hashtext(id::text) & 3)], now() - interval '2 hours',
                now() - interval '1 hour', hashtext(id::text) & 255, now() - interval '2 hours'
           FROM targets WHERE campaign_id = $1 AND attempts = 1`,
        [campaignId, CATEGORIES],
      );
      const buildSeconds = (performance.now() - buildStart) / 1000;
      await raw.query('VACUUM ANALYZE targets');
      await raw.query('VACUUM ANALYZE call_logs');

      const url = `${baseUrl(service)}/api/v1/campaigns/${campaignId}/stats`;
      const get = async (at = url) => {
        const t0 = performance.now();
        const res = await fetch(at, { headers: { 'X-API-Key': key } });
        const body: any = await res.json();
        const ms = performance.now() - t0;
        if (!res.ok) throw new Error(`GET ${at}: ${res.status} ${JSON.stringify(body)}`);
        return { ms, body };
      };
      for (let i = 0; i < 5; i++) await get(); // warm-up: connections, caches
      // The folding job's pass, run here rather than waited for (its timer would run it within
      // seconds): the samples see the counts folded, not a fold of 200,000 targets' rows beside them.
      await service.app.get(TargetRepository).foldCounts();
      await service.app.get(CallLogRepository).foldCounts();
      const ours: number[] = [];
      let last: any = null;
      for (let i = 0; i < SAMPLES; i++) {
        const r = await get();
        ours.push(r.ms);
        last = r.body;
      }

      // The floor on this machine now: the campaign's own read (key, one row, the same HTTP stack).
      const floor: number[] = [];
      for (let i = 0; i < SAMPLES; i++)
        floor.push((await get(`${baseUrl(service)}/api/v1/campaigns/${campaignId}`)).ms);

      // Baseline: the statements the stats ran before the counters, raw on the same database.
      const baselineMs: number[] = [];
      let baselineCounts: { total: number; calls: number } | null = null;
      for (let i = 0; i < Math.min(SAMPLES, 15); i++) {
        const t0 = performance.now();
        const [targets, calls] = await Promise.all([
          raw.query(
            `SELECT status, category, resolution, GROUPING(status, category, resolution)::int AS g,
                    count(*)::int AS n, coalesce(sum(attempts), 0)::int AS attempts,
                    count(*) FILTER (WHERE status IN ('In Progress', 'Post-processing'))::int AS in_flight,
                    count(*) FILTER (WHERE status = 'Scheduled' AND scheduled_time <= now())::int AS due_now,
                    count(*) FILTER (WHERE status = 'Scheduled' AND scheduled_time > now())::int AS due_later,
                    min(scheduled_time) FILTER (WHERE status = 'Scheduled' AND scheduled_time > now()) AS next_at
               FROM targets WHERE campaign_id = $1
              GROUP BY GROUPING SETS ((status), (category), (resolution), ())`,
            [campaignId],
          ),
          raw.query(
            `SELECT count(*)::int AS calls,
                    count(*) FILTER (WHERE ended_at IS NULL)::int AS open,
                    count(*) FILTER (WHERE ended_at IS NOT NULL)::int AS ended,
                    count(*) FILTER (WHERE ended_at IS NOT NULL AND outcome = ANY($2::text[]))::int AS connected,
                    avg(duration_seconds) FILTER (WHERE ended_at IS NOT NULL AND outcome = ANY($2::text[]))::text AS avg_seconds,
                    count(*) FILTER (WHERE started_at >= now() - interval '15 minutes')::int AS started_since
               FROM call_logs WHERE campaign_id = $1`,
            [campaignId, ['GOOD', 'HUMAN_ONLY']],
          ),
        ]);
        baselineMs.push(performance.now() - t0);
        baselineCounts = {
          total: targets.rows.find((r) => r.g === 7).n,
          calls: calls.rows[0].calls,
        };
      }
      if (
        last.targets.total !== TARGETS ||
        last.targets.total !== baselineCounts!.total ||
        last.attempts !== baselineCounts!.calls
      )
        throw new Error(
          `stats disagree with the scan: ${JSON.stringify({ stats: last, scan: baselineCounts })}`,
        );

      const measured = stats(ours);
      const baseline = stats(baselineMs);
      const summary: SummaryRow[] = [
        {
          path: `GET .../stats, ${TARGETS.toLocaleString('en')} targets, p95`,
          ours: `${measured.p95} ms`,
          baseline: `${baseline.p95} ms (old scans, raw SQL)`,
          ratio: round(measured.p95 / baseline.p95),
          goal: '< 50 ms',
          met: measured.p95 < 50,
        },
      ];
      writeResult('stats', {
        targets: TARGETS,
        call_logs: baselineCounts!.calls,
        samples: SAMPLES,
        build_seconds: round(buildSeconds),
        ms: measured,
        baseline_ms: baseline,
        campaign_read_ms: stats(floor),
        last_stats: last,
        summary,
        postgres: await serverVersion(raw),
        node: process.version,
        at: new Date().toISOString(),
      });
    },
  );
}

runBench(main);
