/**
 * `npm run bench`: runs every benchmark in bench/ one after the other (each in its own process, as it
 * runs alone), then prints one table of what they measured against their baselines and goals.
 * BENCH_ONLY=list,calls runs a subset.
 */
import { spawnSync } from 'child_process';
import { existsSync, readdirSync, readFileSync } from 'fs';
import { join } from 'path';
import { tsFile } from '../test/support/run-process.js';
import { SummaryRow } from './support.js';

type Result = Record<string, any>;

/** Rows for the results written before benchmarks carried a `summary`. */
const SUMMARIES: Record<string, (r: Result) => SummaryRow[]> = {
  calls: (r) => [
    {
      path: `POST .../trigger (${r.targets ?? 10000} calls, 0 s each), placed/s`,
      ours: `${r.calls_placed_per_second}/s`,
      baseline: `${r.noop_jobs_per_second}/s no-op jobs`,
      ratio: r.ratio_calls_placed_to_noop_jobs ?? null,
      goal: '≥ 500/s',
      met: r.calls_placed_per_second >= 500,
    },
    {
      path: 'calls placed/s, calling rules on (default policy + caps)',
      ours: `${r.rules_on_calls_placed_per_second}/s`,
      baseline: `${r.rules_off_calls_placed_per_second}/s rules off`,
      ratio: r.ratio_rules_on_to_off ?? null,
      goal: '≥ 0.9x',
      met: r.ratio_rules_on_to_off >= 0.9,
    },
    {
      path: 'calls placed/s, rules on, numbers called before (caps read their history)',
      ours: `${r.rules_on_numbers_called_before_per_second}/s`,
      baseline: `${r.rules_on_calls_placed_per_second}/s first calls`,
      ratio: r.ratio_rules_on_called_before_to_first ?? null,
      goal: '≥ 0.9x',
      met: r.ratio_rules_on_called_before_to_first >= 0.9,
    },
  ],
  webhooks: (r) => [
    {
      path: `webhook deliveries (${r.events} events), deliveries/s`,
      ours: `${r.deliveries_per_second}/s`,
      baseline: `${r.noop_jobs_per_second}/s no-op jobs`,
      ratio: r.ratio_deliveries_to_noop_jobs ?? null,
      goal: 'see docs/benchmarks.md',
      met: null,
    },
  ],
};

function main(): void {
  const only = process.env.BENCH_ONLY?.split(',');
  const names = readdirSync(import.meta.dirname)
    .filter((f) => f.endsWith('.bench.ts'))
    .map((f) => f.replace(/\.bench\.ts$/, ''))
    .filter((name) => !only || only.includes(name))
    .sort();
  const rows: SummaryRow[] = [];
  let failed = false;
  for (const name of names) {
    console.error(`--- ${name}`);
    const run = spawnSync(
      process.execPath,
      tsFile(join(import.meta.dirname, `${name}.bench.ts`)),
      { stdio: ['ignore', 'ignore', 'inherit'], env: process.env },
    );
    const file = join(import.meta.dirname, 'results', `${name}.json`);
    if (run.status !== 0 || !existsSync(file)) {
      failed = true;
      rows.push({ path: name, ours: 'failed', baseline: '', ratio: null, goal: '', met: false });
      continue;
    }
    const result: Result = JSON.parse(readFileSync(file, 'utf8'));
    const summary: SummaryRow[] = result.summary ?? SUMMARIES[name]?.(result) ?? [];
    rows.push(...summary);
  }
  printTable(rows);
  if (failed) process.exit(1);
}

function printTable(rows: SummaryRow[]): void {
  const header = ['path', 'ours', 'baseline', 'ratio', 'goal', 'met?'];
  const cells = rows.map((r) => [
    r.path,
    r.ours,
    r.baseline,
    r.ratio === null ? '-' : `${r.ratio}x`,
    r.goal,
    r.met === null ? '-' : r.met ? 'yes' : 'NO',
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i].length)));
  const line = (c: string[]) => `| ${c.map((v, i) => v.padEnd(widths[i])).join(' | ')} |`;
  console.log(line(header));
  console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
  for (const c of cells) console.log(line(c));
}

main();
