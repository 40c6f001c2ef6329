/**
 * CSV import benchmark (a script, not a test): N rows through `POST /api/v1/campaigns/{id}/targets/import`
 * (streamed text/csv; above 10,000 rows the import is a job, which this process runs: ROLE=all), until
 * `GET /api/v1/imports/{id}` says succeeded, against the JSON add of the same rows
 * (`POST /api/v1/campaigns/{id}/targets`, 10,000 targets a request, one request after the other) into
 * another campaign, on the same service and PostgreSQL.
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npm run bench:import
 *
 * BENCH_ROWS (default 100000; the issue's size is BENCH_ROWS=1000000), BENCH_ALLOW_DUPLICATES (default
 * true; false measures the all-or-nothing import, which keeps its staging rows until it ends). Reports rows/s of each, the
 * ratio of the times, the peak RSS of this process (service included) during each, and the machine's
 * load (`uptime`) before and after; its row in `npm run bench`'s table is CSV rows/s against JSON's.
 */
import 'reflect-metadata';
import { execSync } from 'child_process';
import { cpus } from 'os';
import { Readable } from 'stream';
import {
  baseUrl,
  benchApi,
  round,
  runBench,
  serverVersion,
  sleep,
  SummaryRow,
  withBenchService,
  writeResult,
} from './support.js';

const ROWS = Number(process.env.BENCH_ROWS ?? 100_000);
const JSON_BATCH = 10_000;
const ALLOW_DUPLICATES = process.env.BENCH_ALLOW_DUPLICATES !== 'false';

function row(i: number): { phone: string; externalId: string; first: string; visit: string } {
  return {
    phone: `+1555${String(1_000_000 + i).padStart(7, '0')}`,
    externalId: `EXT-${i}`,
    first: `Name ${i}`,
    visit: '2026-04-01',
  };
}

/** The CSV, generated as it is sent: the benchmark holds no file either. */
function csv(rows: number): Readable {
  let i = 0;
  let headerSent = false;
  return new Readable({
    read() {
      let chunk = headerSent ? '' : 'phone_number,external_id,patient.first_name,visit\n';
      headerSent = true;
      for (let k = 0; k < 2000 && i < rows; k++, i++) {
        const r = row(i);
        chunk += `${r.phone},${r.externalId},${r.first},${r.visit}\n`;
      }
      this.push(chunk === '' ? null : chunk);
    },
  });
}

/** Peak RSS of this process while `fn` runs. */
async function measured<T>(
  fn: () => Promise<T>,
): Promise<{ result: T; ms: number; peakRssMb: number }> {
  let peak = process.memoryUsage().rss;
  const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 50);
  const t0 = performance.now();
  try {
    const result = await fn();
    return { result, ms: performance.now() - t0, peakRssMb: round(peak / 1024 / 1024) };
  } finally {
    clearInterval(timer);
  }
}

async function main(): Promise<void> {
  const loadBefore = execSync('uptime').toString().trim();
  await withBenchService(
    { ROLE: 'all', JOB_POLL_INTERVAL_SECONDS: '0.5' },
    async ({ service, raw, dbName }) => {
      const { api, key } = await benchApi(service, dbName);
      const base = baseUrl(service);
      const csvCampaign = await api('POST', '/api/v1/campaigns', {
        name: 'bench csv',
        type: 'patient',
      });
      const jsonCampaign = await api('POST', '/api/v1/campaigns', {
        name: 'bench json',
        type: 'patient',
      });
      const rssBefore = round(process.memoryUsage().rss / 1024 / 1024);

      const csvRun = await measured(async () => {
        const query = `allow_duplicates=${ALLOW_DUPLICATES}`;
        const res = await fetch(
          `${base}/api/v1/campaigns/${csvCampaign.id}/targets/import?${query}`,
          {
            method: 'POST',
            headers: { 'Content-Type': 'text/csv', 'X-API-Key': key },
            body: Readable.toWeb(csv(ROWS)) as ReadableStream,
            duplex: 'half',
          } as RequestInit,
        );
        let report = (await res.json()) as { id: string; status: string; created: number };
        while (report.status === 'queued' || report.status === 'running') {
          await sleep(100);
          const poll = await fetch(`${base}/api/v1/imports/${report.id}`, {
            headers: { 'X-API-Key': key },
          });
          report = (await poll.json()) as typeof report;
        }
        if (report.created !== ROWS)
          throw new Error(`CSV import: ${JSON.stringify(report).slice(0, 500)}`);
        return report;
      });

      const jsonRun = await measured(async () => {
        for (let start = 0; start < ROWS; start += JSON_BATCH) {
          const targets = [];
          for (let i = start; i < Math.min(ROWS, start + JSON_BATCH); i++) {
            const r = row(i);
            targets.push({
              phone_number: r.phone,
              external_id: r.externalId,
              patient: { first_name: r.first },
              input_data: { visit: r.visit },
            });
          }
          const res = await api('POST', `/api/v1/campaigns/${jsonCampaign.id}/targets`, {
            targets,
            allow_duplicates: ALLOW_DUPLICATES,
          });
          if (res.created !== targets.length) throw new Error(`JSON add created ${res.created}`);
        }
      });

      const result = {
        rows: ROWS,
        allow_duplicates: ALLOW_DUPLICATES,
        csv_import: {
          seconds: round(csvRun.ms / 1000),
          rows_per_second: Math.round(ROWS / (csvRun.ms / 1000)),
          peak_rss_mb: csvRun.peakRssMb,
        },
        json_add: {
          seconds: round(jsonRun.ms / 1000),
          rows_per_second: Math.round(ROWS / (jsonRun.ms / 1000)),
          peak_rss_mb: jsonRun.peakRssMb,
          requests: Math.ceil(ROWS / JSON_BATCH),
        },
        csv_over_json_time: round(csvRun.ms / jsonRun.ms),
        summary: [
          {
            path: `CSV import, ${ROWS.toLocaleString('en')} rows, rows/s (peak RSS)`,
            ours: `${Math.round(ROWS / (csvRun.ms / 1000))}/s (${csvRun.peakRssMb} MB)`,
            baseline: `${Math.round(ROWS / (jsonRun.ms / 1000))}/s (${jsonRun.peakRssMb} MB) JSON add`,
            ratio: round(jsonRun.ms / csvRun.ms),
            goal: 'see docs/benchmarks.md',
            met: null,
          },
        ] satisfies SummaryRow[],
        rss_before_mb: rssBefore,
        load_before: loadBefore,
        load_after: execSync('uptime').toString().trim(),
        postgres: await serverVersion(raw),
        node: process.version,
        cores: cpus().length,
        at: new Date().toISOString(),
      };
      writeResult('import', result);
    },
  );
}

runBench(main);
