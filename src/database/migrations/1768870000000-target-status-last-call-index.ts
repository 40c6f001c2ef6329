import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Last-call filters counted and paged inside one index (issue 10, measured on a 1M-target campaign):
 * - `status=Failed` with `from_last_call_date` counted the status's 250,000 targets through the
 *   status index and read each one's last_call_date from the table: first pages 112 ms p95 (goal 50).
 *   With (campaign_id, status, last_call_date) the count is an index-only range, and the list splits
 *   the status's called targets (a counter) by the bound, as it does for a bound alone.
 * - A page walks the campaign's creation order and skips the targets the bound leaves out. Calls
 *   are placed roughly in that order, so a recent bound matches the latest targets, and the walk
 *   crossed every earlier one (a window a day after the middle of the campaign: 65-80 ms a page).
 *   Both last-call indexes now carry (created_at, id), so the matching targets can be read from
 *   them alone and sorted (see pageOf in the target repository).
 *
 * Status moves and calls already change indexed columns (never HOT updates), so the wider entries
 * cost only their own bytes. Built under the `SHARE` lock `CREATE INDEX` takes: writes to targets
 * wait while they build (about two seconds per million targets), see docs/operations.md.
 */
export class TargetStatusLastCallIndex1768870000000 implements MigrationInterface {
  name = 'TargetStatusLastCallIndex1768870000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX targets_campaign_last_call_idx`);
    await q.query(
      `CREATE INDEX targets_campaign_last_call_idx ON targets (campaign_id, last_call_date) INCLUDE (created_at, id)`,
    );
    await q.query(
      `CREATE INDEX targets_campaign_status_last_call_idx ON targets (campaign_id, status, last_call_date) INCLUDE (created_at, id)`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX targets_campaign_status_last_call_idx`);
    await q.query(`DROP INDEX targets_campaign_last_call_idx`);
    await q.query(
      `CREATE INDEX targets_campaign_last_call_idx ON targets (campaign_id, last_call_date)`,
    );
  }
}
