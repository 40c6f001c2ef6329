import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The audit trail's GIN index on `resource_ids` takes each event's entries at once (`fastupdate`
 * off). With the default pending list, inserts append to it until it passes 4 MB
 * (`gin_pending_list_limit`), and the insert that passes it moves the whole list into the index: a
 * read of patient data waits for its audit event's commit, so one read in several thousand stalled
 * (159 ms where the others took 0.25 ms, in 30,000 single inserts of ten ids each on PostgreSQL 15;
 * likely the 268 ms target list of a bench:list run, not seen in the run after this change). Without
 * it the slowest insert took 3.5 ms, and the mean rose by 16 µs. The entries already pending are
 * moved into the index here.
 */
export class AuditResourceIndexWithoutPendingList1769930000001 implements MigrationInterface {
  name = 'AuditResourceIndexWithoutPendingList1769930000001';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER INDEX audit_events_resource_ids SET (fastupdate = off)`);
    await q.query(`SELECT gin_clean_pending_list('audit_events_resource_ids'::regclass)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER INDEX audit_events_resource_ids RESET (fastupdate)`);
  }
}
