import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The statement-level triggers on `targets` and `call_logs` (count deltas, target timeline) never use
 * PostgreSQL's JIT compiler.
 *
 * PL/pgSQL plans a trigger's statements once per connection and keeps the plan; a transition table's
 * row estimate is its size on that first run. After a 10,000-target trigger, every later run on that
 * connection carried a 10,000-row estimate (cost ~1.4M, over `jit_above_cost`), so each 50-row call
 * placement or completion JIT-compiled its timeline insert again: 1.8 to 4 s of compilation for a
 * statement that executes in milliseconds (seen with auto_explain in `bench:calls`: ~220 placed/s
 * instead of 1,000+). These statements are short, one-pass and run thousands of times: JIT only costs.
 */
const TRIGGER_FUNCTIONS = [
  'target_count_deltas_insert',
  'target_count_deltas_update',
  'target_count_deltas_delete',
  'target_events_insert',
  'target_events_update',
  'target_events_delete',
  'call_log_count_deltas_insert',
  'call_log_count_deltas_update',
  'call_log_count_deltas_delete',
];

export class TriggerFunctionsWithoutJit1768830000000 implements MigrationInterface {
  name = 'TriggerFunctionsWithoutJit1768830000000';

  async up(q: QueryRunner): Promise<void> {
    for (const fn of TRIGGER_FUNCTIONS) await q.query(`ALTER FUNCTION ${fn}() SET jit = off`);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const fn of TRIGGER_FUNCTIONS) await q.query(`ALTER FUNCTION ${fn}() RESET jit`);
  }
}
