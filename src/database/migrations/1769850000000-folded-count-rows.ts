import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Every count table marks the rows a fold wrote (`folded`), as `target_count_deltas` already does, so
 * one policy (src/common/persistence/count-folding.ts) tells a scope due from its own rows: the rows
 * appended since its last fold against those the fold left. The triggers append rows as before (the
 * default is false); only the folding job writes `true`. Existing rows count as appended: the first
 * fold after the upgrade rewrites them once.
 */
export class FoldedCountRows1769850000000 implements MigrationInterface {
  name = 'FoldedCountRows1769850000000';

  async up(q: QueryRunner): Promise<void> {
    for (const table of TABLES)
      await q.query(`ALTER TABLE ${table} ADD COLUMN folded boolean NOT NULL DEFAULT false`);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const table of TABLES) await q.query(`ALTER TABLE ${table} DROP COLUMN folded`);
  }
}

const TABLES = [
  'target_position_counts',
  'target_last_call_counts',
  'call_log_count_deltas',
  'call_log_hour_deltas',
];
