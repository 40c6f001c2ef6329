import { statSync } from 'fs';
import { relative } from 'path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Seconds each of the longest files took in a PGlite `npm test` of two workers on a fresh clone with
 * nothing else running (docs/benchmarks.md, "Test suite", 2026-11-28). Two workers cannot end before
 * the longest file does, so the run is shortest when the longest files start first and the short ones
 * fill the gaps at the end (longest processing time first); only the order of these numbers counts.
 * Vitest orders by the durations of its last run when its cache has them; a fresh clone (CI) has
 * none, and its fallback, the file's size, started these files late. A file missing here is
 * estimated from its size, so the table only needs the files that are far longer than their size
 * says.
 */
export const MEASURED_SECONDS: Record<string, number> = {
  'test/browser/console.browser-spec.ts': 46,
  'test/e2e/targets.e2e-spec.ts': 45,
  'test/e2e/fuzz.e2e-spec.ts': 43,
  'test/e2e/target-import-jobs.e2e-spec.ts': 40,
  'test/e2e/process.e2e-spec.ts': 32,
  'test/e2e/campaign-control.e2e-spec.ts': 26,
  'test/e2e/doc-examples.e2e-spec.ts': 21,
  'test/e2e/webhooks-ssrf.e2e-spec.ts': 20,
  'test/browser/coordinator-day.browser-spec.ts': 18,
  'test/e2e/webhooks-recovery.e2e-spec.ts': 18,
  'test/e2e/webhooks.e2e-spec.ts': 17,
  'test/e2e/texts.e2e-spec.ts': 16,
  'test/e2e/concurrency.e2e-spec.ts': 13,
};

/** Milliseconds a byte of a test file takes, roughly: a database file boots apps and waits on rows. */
const MS_PER_BYTE = { database: 0.3, unit: 0.01 };

/**
 * Orders every project's files together, longest first (Vitest's own sequencer runs the projects one
 * after another by name, so the e2e project's longest files started behind the whole contract project).
 * The estimate is the last run's duration from Vitest's cache, else the table above, else the size.
 */
export class LongestFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const root = this.ctx.config.root;
    const estimate = new Map(
      files.map((spec) => {
        const cached = this.ctx.cache.getTestSpecificationResult(spec)?.duration;
        const measured = MEASURED_SECONDS[relative(root, spec.moduleId)];
        return [spec, cached ?? (measured === undefined ? bySize(spec) : measured * 1000)];
      }),
    );
    return [...files].sort(
      (a, b) =>
        a.project.config.sequence.groupOrder - b.project.config.sequence.groupOrder ||
        estimate.get(b)! - estimate.get(a)!,
    );
  }
}

function bySize(spec: TestSpecification): number {
  const perByte = spec.project.name === 'unit' ? MS_PER_BYTE.unit : MS_PER_BYTE.database;
  try {
    return statSync(spec.moduleId).size * perByte;
  } catch {
    return 0;
  }
}
