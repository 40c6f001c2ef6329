import { Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { NoRows, SqlExecutor } from '../../database/sql.js';
import { ExclusiveRunner } from './exclusive-runner.js';

/**
 * The count tables (a target's counts, positions and last calls; a call log's counts and hours) are
 * appended to by triggers, a row per statement, and read as sums: a read is exact whatever has been
 * appended. Folding rewrites a scope's rows (a campaign's, an organization's) as one row per group,
 * marked `folded`, so reads stay a few rows. It runs only in the background (`CountFoldingSweep`):
 * reads never write.
 *
 * One policy for every table: a scope is due once the rows appended since its last fold are more than
 * FOLD_AFTER_APPENDED_ROWS and more than an eighth of the rows that fold left. A fold rewrites the
 * folded rows, so it runs at most once per eighth of them appended, and a read between two folds reads
 * at most an eighth more rows than a folded scope has (and never more than 64 extra for a small one).
 */
export const FOLD_AFTER_APPENDED_ROWS = 64;

export function foldingDue(appended: number, folded: number): boolean {
  return appended > Math.max(FOLD_AFTER_APPENDED_ROWS, folded / 8);
}

/**
 * The scopes of `table` (by `scope`, a column) due a fold under `foldingDue`, as one SELECT of the
 * scope column: the same rule in SQL, over the table's `folded` flag.
 */
function dueScopesSql(table: string, scope: string): string {
  return `SELECT ${scope} AS scope FROM ${table} GROUP BY ${scope}
          HAVING count(*) FILTER (WHERE NOT folded)
               > greatest(${FOLD_AFTER_APPENDED_ROWS}, count(*) FILTER (WHERE folded) / 8.0)`;
}

/**
 * One count table's folding: the scopes due now, the fold of one of them, and the vacuum of the
 * table once a pass has folded some.
 */
export interface CountFolder {
  readonly table: string;
  dueScopes(): Promise<string[]>;
  fold(scope: string): Promise<void>;
  vacuum(): Promise<void>;
}

/**
 * A count table's folder in SQL: its scopes (`scope`, a column) due under `foldingDue`, `fold` for
 * one of them, and its VACUUM. A fold leaves every old row of its scope dead; without a vacuum
 * after it the table grows by a scope's rows per fold, and its readers cross them (heap fetches for
 * every index entry, a sequential scan of every page) until autovacuum comes round, and never on a
 * server that runs without it. The table holds a few rows per block of targets, so its vacuum is
 * short; SKIP_LOCKED leaves it to a vacuum already running. It does not give the
 * emptied end pages back: that takes a lock no reader can share, and each list reads these tables
 * (the next fold fills the pages again).
 */
export function sqlCountFolder(
  sql: SqlExecutor,
  table: string,
  scope: string,
  fold: (scope: string) => Promise<void>,
): CountFolder {
  return {
    table,
    dueScopes: async () =>
      (await sql.query<{ scope: string }>(dueScopesSql(table, scope))).rows.map((r) => r.scope),
    fold,
    vacuum: async () => {
      await sql.query<NoRows>(`VACUUM (SKIP_LOCKED, TRUNCATE false) ${table}`);
    },
  };
}

/** What one pass folded, per table (only tables with a scope folded). */
export type FoldReport = Record<string, number>;

/** Folds every due scope of each table, one statement per scope, then vacuums the tables folded; what it folded. */
export async function foldDue(folders: readonly CountFolder[]): Promise<FoldReport> {
  const report: FoldReport = {};
  for (const folder of folders) {
    const scopes = await folder.dueScopes();
    if (scopes.length === 0) continue;
    for (const scope of scopes) await folder.fold(scope);
    await folder.vacuum();
    report[folder.table] = scopes.length;
  }
  return report;
}

/** How often the folding job looks for due scopes, in ms (0: never; tests fold by hand). */
export class CountFoldingSettings {
  constructor(readonly intervalMs: number) {}
}

/**
 * The background job that folds every count table: every `intervalMs`, in every process role, one
 * process of the deployment at a time (an advisory lock, `ExclusiveRunner`: the others skip the
 * round), each module's fold in turn (`folds`: the target module's and the call-log module's, bound
 * in src/count-folding.ts). Not a pg-boss queue: its jobs run only in worker roles, and an API-only
 * deployment takes writes (adds, imports) whose counts must fold all the same; a request cannot
 * enqueue one either, since enqueueing writes.
 */
export class CountFoldingSweep implements OnModuleInit, OnModuleDestroy {
  private readonly logger: Logger;
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<unknown> | null = null;

  constructor(
    private readonly task: string,
    private readonly folds: readonly (() => Promise<FoldReport>)[],
    private readonly exclusive: ExclusiveRunner,
    private readonly settings: CountFoldingSettings,
  ) {
    this.logger = new Logger(task);
  }

  onModuleInit(): void {
    if (this.settings.intervalMs <= 0 || this.timer) return;
    this.timer = setInterval(() => this.tick(), this.settings.intervalMs);
    this.timer.unref();
  }

  async onModuleDestroy(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running;
  }

  /** One round: every module's fold, what they folded by table. */
  private async foldAll(): Promise<FoldReport> {
    const report: FoldReport = {};
    for (const fold of this.folds) Object.assign(report, await fold());
    return report;
  }

  private tick(): void {
    if (this.running) return;
    this.running = this.exclusive
      .runExclusive(this.task, () => this.foldAll())
      .then((run) => {
        if (run.ran && Object.keys(run.result).length > 0)
          this.logger.debug({ folded: run.result }, 'folded count rows');
      })
      .catch((err) => this.logger.warn({ err }, 'folding count rows failed'))
      .finally(() => (this.running = null));
  }
}
