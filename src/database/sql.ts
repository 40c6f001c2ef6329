import { DataSource, QueryFailedError } from 'typeorm';
import { ConflictError } from '../common/errors/domain-errors';
import { Tx } from '../common/persistence/unit-of-work';
import { poolOf } from './data-source.options';
import { TypeOrmTx } from './typeorm-unit-of-work';

/**
 * The one way adapters talk to PostgreSQL: hand-written, set-based SQL with a row type per table.
 *
 *   const { rows } = await sqlExecutor(this.dataSource, tx).query<TargetRow>(`SELECT ...`, [id]);
 *
 * Each table has one `XxxRow` interface, one column list and one pure `xxxFromRow` mapper in its owning
 * module's infrastructure folder. Unique violations become `ConflictError` through `onUniqueViolation`.
 */
export interface SqlResult<T> {
  rows: T[];
  rowCount: number;
}

/**
 * What a query returns when its caller declares no row type. Transitional: every adapter is moving to
 * its own `XxxRow` interfaces (issue 14); when none uses this any more, it goes.
 */
export type UntypedRow = any;

/** Raw SQL, inside the given transaction when there is one. Adapters only. */
export interface SqlExecutor {
  query<T extends object = UntypedRow>(sql: string, params?: unknown[]): Promise<SqlResult<T>>;
}

export function sqlExecutor(dataSource: DataSource, tx: Tx | null): SqlExecutor {
  if (!tx) return { query: (sql, params = []) => poolQuery(dataSource, sql, params) };
  return {
    async query<T extends object = UntypedRow>(sql: string, params: unknown[] = []) {
      // The transaction's QueryRunner gives the structured result (rows and affected count).
      const result = await (tx as TypeOrmTx).manager.queryRunner!.query(sql, params, true);
      const rows = (Array.isArray(result.records) ? result.records : []) as T[];
      return { rows, rowCount: result.affected ?? rows.length };
    },
  };
}

/**
 * A statement outside any transaction, on a connection of TypeORM's own pool, answered as a
 * QueryRunner would (same rows and count, failures wrapped in the same `QueryFailedError`) without
 * building a QueryRunner, an EntityManager and their broadcaster for every statement: that was a
 * visible share of a `GET /targets/{id}`'s CPU (docs/benchmarks.md, "Issue 10, round 3").
 */
async function poolQuery<T extends object>(
  dataSource: DataSource,
  sql: string,
  params: unknown[],
): Promise<SqlResult<T>> {
  const client = await poolOf(dataSource).connect();
  let raw: { rows?: unknown; rowCount?: number | null };
  try {
    raw = await client.query(sql, params);
  } catch (err) {
    throw new QueryFailedError(sql, params, err as Error);
  } finally {
    // Like TypeORM's runner: a statement's error does not retire the connection (pool-guard.ts
    // watches the connection itself).
    client.release();
  }
  // A multi-statement text answers an array of results: no rows, as through a QueryRunner.
  const rows = (Array.isArray(raw.rows) ? raw.rows : []) as T[];
  return { rows, rowCount: raw.rowCount ?? rows.length };
}

const UNIQUE_VIOLATION = '23505';

/** The constraint a PostgreSQL unique violation names, or null when `err` is something else. */
export function uniqueViolation(err: unknown): string | null {
  const e = err as {
    code?: string;
    constraint?: string;
    driverError?: { code?: string; constraint?: string };
  };
  const code = e?.driverError?.code ?? e?.code;
  if (code !== UNIQUE_VIOLATION) return null;
  return e?.driverError?.constraint ?? e?.constraint ?? '';
}

/**
 * Runs `work`; a unique violation becomes the `ConflictError` that `messages` gives for its constraint
 * (or `fallback` for any other constraint). Every adapter that inserts maps 23505 through here.
 */
export async function onUniqueViolation<T>(
  work: () => Promise<T>,
  messages: Record<string, string>,
  fallback = 'Already exists',
): Promise<T> {
  try {
    return await work();
  } catch (err) {
    const constraint = uniqueViolation(err);
    if (constraint === null) throw err;
    throw new ConflictError(messages[constraint] ?? fallback);
  }
}
