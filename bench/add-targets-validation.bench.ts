/**
 * The add-targets body's validation alone (no database, no HTTP): a body of BENCH_TARGETS targets
 * (default 5,000) through the validation pipe with AddTargetsDto (the fast path for lists of valid
 * targets) against the same model without it (every target through class-transformer and the field
 * decorators), alternating, in one process. CPU only, so it shows what the fast path saves whatever
 * the database does; the end-to-end figure is bench/add-targets.bench.ts.
 *
 *   npm run bench:add-targets-validation
 */
import 'reflect-metadata';
import { performance } from 'perf_hooks';
import { PydanticValidationPipe } from '../src/common/validation/pydantic-validation.pipe.js';
import { PyModelList, PyRequired } from '../src/common/validation/py-validators.js';
import {
  AddTargetsDto,
  MAX_TARGETS_PER_REQUEST,
  TargetInputDto,
} from '../src/modules/target/api/dto/add-targets.dto.js';
import { loadAverage, median, round, runBench, targetItems, writeResult } from './support.js';

const TARGETS = Number(process.env.BENCH_TARGETS ?? 5000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 10);
const WARMUP = 2;

/** AddTargetsDto's list as it was before the fast path. */
class DecoratorsOnlyAddTargetsDto {
  @PyRequired()
  @PyModelList(() => TargetInputDto, { min: 1, max: MAX_TARGETS_PER_REQUEST })
  targets: TargetInputDto[];
}

async function main(): Promise<void> {
  const loadBefore = loadAverage();
  const pipe = new PydanticValidationPipe();
  const time = async (metatype: new () => object) => {
    // A fresh parse each time, as a request would have.
    const body = JSON.parse(JSON.stringify({ targets: targetItems(0, TARGETS) }));
    const t0 = performance.now();
    await pipe.transform(body, { type: 'body', metatype });
    return performance.now() - t0;
  };
  const fast: number[] = [];
  const decorators: number[] = [];
  for (let r = 0; r < WARMUP + ROUNDS; r++) {
    const d = await time(DecoratorsOnlyAddTargetsDto);
    const f = await time(AddTargetsDto);
    if (r >= WARMUP) {
      decorators.push(d);
      fast.push(f);
    }
  }
  const ratio = median(fast) / median(decorators);
  writeResult('add-targets-validation', {
    targets: TARGETS,
    rounds: ROUNDS,
    fast_path_ms: { median: round(median(fast)), min: round(Math.min(...fast)) },
    decorators_ms: { median: round(median(decorators)), min: round(Math.min(...decorators)) },
    ratio: round(ratio),
    load_average: { before: loadBefore, after: loadAverage() },
    summary: [
      {
        path: `validation of ${TARGETS} targets (pipe only), median`,
        ours: `${round(median(fast))} ms`,
        baseline: `${round(median(decorators))} ms without the fast path`,
        ratio: round(ratio),
        goal: '(no goal: part of add targets)',
        met: null,
      },
    ],
    node: process.version,
    at: new Date().toISOString(),
  });
}

runBench(main);
