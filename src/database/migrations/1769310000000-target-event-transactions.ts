import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Each target event carries the id of the transaction that recorded it, so that a transaction can read
 * back the events it recorded itself (the triggers on `targets` write them, not the application) and
 * hand them to the in-process listeners once it commits (SqlTargetEventLog.relay). A column default,
 * so the trigger functions are unchanged: their inserts leave the column out.
 *
 * No index: the read is bounded by the primary key (ids recorded since the transaction's first change
 * of targets). The default is set after the column is added, so existing rows keep a null (they were
 * all committed long ago) and the table is not rewritten.
 */
export class TargetEventTransactions1769310000000 implements MigrationInterface {
  name = 'TargetEventTransactions1769310000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE target_events ADD COLUMN xact_id xid8`);
    await q.query(
      `ALTER TABLE target_events ALTER COLUMN xact_id SET DEFAULT pg_current_xact_id()`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE target_events DROP COLUMN xact_id`);
  }
}
