/**
 * The SQL of the statement triggers that keep a count table (the trigger texts of
 * `targets.triggers.sql.ts` and `call-logs.triggers.sql.ts`): a count table states its groups and
 * amounts once, and the insert, delete and update triples that differ only in which transition table
 * a row comes from, and with which sign, are written here.
 */

type Operation = 'insert' | 'delete' | 'update';

const REFERENCING: Record<Operation, string> = {
  insert: 'NEW TABLE AS new_rows',
  delete: 'OLD TABLE AS old_rows',
  update: 'OLD TABLE AS old_rows NEW TABLE AS new_rows',
};

/**
 * `<stem>_insert`, `<stem>_delete` and `<stem>_update` on `table`: statement triggers over the
 * transition tables, each running `<functionStem>_<operation>()`. Idempotent: each is dropped first.
 */
export function statementTriggers(
  table: string,
  stem: string,
  functionStem: string,
  operations: readonly Operation[] = ['insert', 'delete', 'update'],
): string {
  return operations
    .map(
      (op) => `
DROP TRIGGER IF EXISTS ${stem}_${op} ON ${table};
CREATE TRIGGER ${stem}_${op} AFTER ${op.toUpperCase()} ON ${table}
REFERENCING ${REFERENCING[op]}
FOR EACH STATEMENT EXECUTE FUNCTION ${functionStem}_${op}();
`,
    )
    .join('');
}

export interface CountTable {
  /** The table whose rows are counted. */
  on: string;
  /** The stem of the triggers' names (`targets_count` gives `targets_count_insert`, ...). */
  trigger: string;
  /** The count table appended to; its trigger functions are `<into>_insert`, `_delete`, `_update`. */
  into: string;
  /** The count table's columns, in the order of `select`. */
  columns: string;
  /** A counted row's group, as a select list over the row that names each key (`... AS due_minute`). */
  keys: string;
  /**
   * What one row adds to its group, by name (`{ delta: '1' }`). A removed row subtracts it: each
   * is a term that stays one with a minus in front (a number, a call, a parenthesised cast).
   */
  amounts: Readonly<Record<string, string>>;
  /** The keys to group by. */
  group: string;
  /** A group's row of the count table; by default its keys (`group`) and the sum of each amount. */
  select?: string;
  /** Rows counted nowhere (a target never called has no last call). */
  where?: string;
  /** Which statements are followed; the default all three. */
  operations?: readonly Operation[];
}

/**
 * The trigger functions and triggers of a count table: per statement, every removed row (old_rows)
 * subtracts its amounts from its group and every added row (new_rows) adds them, an update doing both;
 * one row is appended per group, and groups that net to zero in every amount (most updates move no
 * key) append nothing. Every function runs without JIT (`targets.triggers.sql.ts` says why).
 */
export function countTriggers(t: CountTable): string {
  const names = Object.keys(t.amounts);
  const select = t.select ?? `${t.group}, ${names.map((a) => `sum(${a})`).join(', ')}`;
  const rows = (source: 'old_rows' | 'new_rows') => {
    const sign = source === 'old_rows' ? '-' : '';
    const amounts = names.map((a) => `${sign}${t.amounts[a]} AS ${a}`).join(', ');
    return `SELECT ${t.keys},\n                 ${amounts}
            FROM ${source}${t.where ? ` WHERE ${t.where}` : ''}`;
  };
  const sources: Record<Operation, string> = {
    insert: rows('new_rows'),
    delete: rows('old_rows'),
    update: `${rows('old_rows')}\n          UNION ALL\n          ${rows('new_rows')}`,
  };
  const operations = t.operations ?? ['insert', 'delete', 'update'];
  const functions = operations.map(
    (op) => `
CREATE OR REPLACE FUNCTION ${t.into}_${op}() RETURNS trigger LANGUAGE plpgsql
SET jit = off AS $$
BEGIN
  INSERT INTO ${t.into}
    (${t.columns})
  SELECT ${select}
    FROM (${sources[op]}) moves
   GROUP BY ${t.group}
  HAVING ${names.map((a) => `sum(${a}) <> 0`).join(' OR ')};
  RETURN NULL;
END $$;
`,
  );
  return functions.join('') + statementTriggers(t.on, t.trigger, t.into, operations);
}
