import { DataSource, QueryFailedError } from 'typeorm';
import { ConflictError } from '../common/errors/domain-errors.js';
import { Tx } from '../common/persistence/unit-of-work.js';
import type { PoolClient } from 'pg';
import { poolOf } from './data-source.options.js';
import { TypeOrmTx } from './typeorm-unit-of-work.js';

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

/** The row type of a statement whose rows nobody reads (a write without RETURNING, a LISTEN). */
export type NoRows = Record<string, never>;

/**
 * A hot statement that each connection parses and plans once, then only binds and runs. For a read by
 * primary key, parsing and planning are most of PostgreSQL's work: `GET /targets/{id}` went from about
 * 120 to 50 µs of server CPU per request (docs/architecture.md, "Hot reads").
 *
 * Name its columns: a prepared `SELECT *` fails ("cached plan must not change result type") once a
 * migration adds a column beside a running process. Prepared only outside a transaction (TypeORM's
 * runner has no named statements) and never on embedded PGlite (see `enableStatementPreparation`).
 */
export interface PreparedSql {
  readonly name: string;
  readonly text: string;
}

const preparedTexts = new Map<string, string>();

/** Declares a prepared statement, once, at module level; a name stands for one text only. */
export function preparedSql(name: string, text: string): PreparedSql {
  const known = preparedTexts.get(name);
  if (known !== undefined && known !== text) {
    throw new Error(`prepared statement ${name} is already declared with another text`);
  }
  preparedTexts.set(name, text);
  return { name, text };
}

/**
 * A column list for `SELECT` and `RETURNING` from a module's `XXX_COLUMNS` (`*.row.ts`), each column
 * prefixed with `alias` when given: statements name their columns, never `*`.
 */
export function columnList(columns: readonly string[], alias?: string): string {
  return (alias ? columns.map((column) => `${alias}.${column}`) : columns).join(', ');
}

/**
 * A page of `from` (offset and limit) and the number of all its rows matching `where`, in one
 * statement and so from one snapshot: two statements could count a row added between them, and
 * page_count would disagree with the pages. `where` uses `$1..$n` of `params`.
 */
export async function pageWithTotal<T extends object>(
  sql: SqlExecutor,
  query: {
    columns: readonly (keyof T & string)[];
    from: string;
    where: string;
    orderBy: string;
    params: unknown[];
    offset: number;
    limit: number;
  },
): Promise<{ rows: T[]; total: number }> {
  const { columns, from, where, orderBy, params, offset, limit } = query;
  const n = params.length;
  // The count is always one row; the page joins it (no row of the page: one row of NULLs).
  // (T is generic here: the rows are typed on the way out.)
  const { rows } = await sql.query<Record<string, unknown>>(
    `SELECT n.total_rows, ${columnList(columns, 'p')}
       FROM (SELECT count(*) AS total_rows FROM ${from} WHERE ${where}) n
       LEFT JOIN LATERAL (
         SELECT ${columnList(columns)} FROM ${from} WHERE ${where}
          ORDER BY ${orderBy} OFFSET $${n + 1} LIMIT $${n + 2}
       ) p ON true`,
    [...params, offset, limit],
  );
  const total = Number(rows[0].total_rows);
  const page = total > offset ? rows : [];
  for (const row of page) delete row.total_rows;
  return { rows: page as T[], total };
}

/**
 * Blanks what `parts` remove on a table's rows of some targets, in one statement, so each row is
 * rewritten once whatever the number of parts: `blanks` maps a part to its `SET` assignments (a
 * part the table holds nothing of is absent). Answers the rows changed under the table's name, or
 * nothing when no part touches the table. The retention purge's holders (call logs, texts) share it.
 */
export async function blankTargetColumns<P extends string>(
  sql: SqlExecutor,
  table: string,
  blanks: Partial<Record<P, string>>,
  parts: readonly P[],
  organizationId: string,
  targetIds: string[],
): Promise<Record<string, number>> {
  const sets = parts.flatMap((p) => (blanks[p] ? [blanks[p]] : []));
  if (sets.length === 0) return {};
  const { rowCount } = await sql.query<NoRows>(
    `UPDATE ${table} SET ${sets.join(', ')}
      WHERE organization_id = $1 AND target_id = ANY($2::uuid[])`,
    [organizationId, targetIds],
  );
  return { [table]: rowCount };
}

/**
 * Raw SQL, inside the given transaction when there is one. Adapters only. Every call names its row
 * type (`query<TargetRow>(...)`, `query<NoRows>(...)` for a statement whose rows nobody reads): a
 * call without one does not compile.
 */
export interface SqlExecutor {
  query<T extends object = never>(
    ...args: [T] extends [never]
      ? [rowTypeMissing: 'name the row type: query<Row>(...)']
      : [sql: string | PreparedSql, params?: unknown[]]
  ): Promise<SqlResult<T>>;
}

export function sqlExecutor(dataSource: DataSource, tx: Tx | null): SqlExecutor {
  const query = tx
    ? async <T extends object>(sql: string | PreparedSql, params: unknown[] = []) => {
        // The transaction's QueryRunner gives the structured result (rows and affected count).
        const text = typeof sql === 'string' ? sql : sql.text;
        const result = await (tx as TypeOrmTx).manager.queryRunner!.query(text, params, true);
        const rows = (Array.isArray(result.records) ? result.records : []) as T[];
        return { rows, rowCount: result.affected ?? rows.length };
      }
    : <T extends object>(sql: string | PreparedSql, params: unknown[] = []) =>
        poolQuery<T>(dataSource, sql, params);
  // The signature's only difference is the compile-time demand for a row type.
  return { query } as unknown as SqlExecutor;
}

/**
 * A statement outside any transaction, on a connection of TypeORM's own pool, answered as a
 * QueryRunner would (same rows and count, failures wrapped in the same `QueryFailedError`) without
 * building a QueryRunner, an EntityManager and their broadcaster for every statement: that was a
 * visible share of a `GET /targets/{id}`'s CPU (docs/architecture.md, "Hot reads").
 */
async function poolQuery<T extends object>(
  dataSource: DataSource,
  sql: string | PreparedSql,
  params: unknown[],
): Promise<SqlResult<T>> {
  const text = typeof sql === 'string' ? sql : sql.text;
  const named = typeof sql !== 'string' && preparingDataSources.has(dataSource) ? sql : null;
  let raw: { rows?: unknown; rowCount?: number | null };
  try {
    raw = await onPooledConnection(dataSource, (client) =>
      named ? client.query({ name: named.name, text, values: params }) : client.query(text, params),
    ).catch((err) => {
      if (!named || !isStalePreparedStatement(err)) throw err;
      // The connection's statement no longer fits the server (a column's type changed, or the
      // session was reset): that connection was closed; this once, the text goes unprepared.
      return onPooledConnection(dataSource, (client) => client.query(text, params));
    });
  } catch (err) {
    throw new QueryFailedError(text, params, err as Error);
  }
  // A multi-statement text answers an array of results: no rows, as through a QueryRunner.
  const rows = (Array.isArray(raw.rows) ? raw.rows : []) as T[];
  return { rows, rowCount: raw.rowCount ?? rows.length };
}

async function onPooledConnection<R>(
  dataSource: DataSource,
  work: (client: PoolClient) => Promise<R>,
): Promise<R> {
  const client = await poolOf(dataSource).connect();
  try {
    const result = await work(client);
    client.release();
    return result;
  } catch (err) {
    // Like TypeORM's runner, a statement's error does not retire the connection (pool-guard.ts
    // watches the connection itself), unless the connection holds a statement the server has
    // dropped or would now refuse: `pg` remembers it as prepared, so only closing forgets it.
    client.release(isStalePreparedStatement(err) ? (err as Error) : undefined);
    throw err;
  }
}

/** Data sources whose connections are sessions of their own, where names can be prepared. */
const preparingDataSources = new WeakSet<DataSource>();

/**
 * Lets `PreparedSql` be prepared on this data source's connections, unless the server is embedded
 * PGlite: it serves every connection from one session, so a name prepared through one connection
 * would collide with the same name prepared through another.
 */
export async function enableStatementPreparation(dataSource: DataSource): Promise<void> {
  const { rows } = await poolOf(dataSource).query<{ version: string }>('SELECT version()');
  if (!/PGlite/i.test(rows[0]?.version ?? '')) preparingDataSources.add(dataSource);
}

/** Whether `enableStatementPreparation` found a server that prepares statements per connection. */
export function preparesStatements(dataSource: DataSource): boolean {
  return preparingDataSources.has(dataSource);
}

function isStalePreparedStatement(err: unknown): boolean {
  const e = err as { code?: string; message?: string };
  return (
    e?.code === INVALID_STATEMENT_NAME ||
    (e?.code === FEATURE_NOT_SUPPORTED &&
      /cached plan must not change result type/.test(e.message ?? ''))
  );
}

const INVALID_STATEMENT_NAME = '26000';
const FEATURE_NOT_SUPPORTED = '0A000';

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
