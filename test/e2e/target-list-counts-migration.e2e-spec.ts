import { randomUUID } from 'crypto';
import type { DataSource } from 'typeorm';
import { TargetListCounts1769600000000 } from '../../src/database/migrations/1769600000000-target-list-counts.js';
import { DatabaseBeforeMigration } from '../support/database-before-migration.js';

/**
 * Migration 1769600000000 on a database that already holds a campaign: its list counts (positions per
 * second and status, last calls per second, minute and status) are built from the targets there, and
 * its count deltas are taken as appended (not folded), so the folding job folds them.
 */
describe('migration 1769600000000 (target list counts) on existing targets', () => {
  let migration: DatabaseBeforeMigration;
  let db: DataSource;

  beforeAll(async () => {
    migration = await DatabaseBeforeMigration.create(TargetListCounts1769600000000);
    db = migration.db;
  });

  afterAll(async () => {
    await migration?.close();
  });

  it('builds the position and last-call counts from the targets, and leaves the count deltas to fold', async () => {
    const [organization] = await db.query(
      `INSERT INTO organizations (name) VALUES ('migrated') RETURNING id`,
    );
    const [campaign] = await db.query(
      `INSERT INTO campaigns (organization_id, name, type, webhook_secret)
       VALUES ($1, 'before the migration', 'patient', 'whsec_test') RETURNING id`,
      [organization.id],
    );
    // 40 targets over 20 seconds (two a second), every third one never called; the rest called in
    // 7 distinct minutes, and in three statuses.
    await db.query(
      `INSERT INTO targets (id, organization_id, campaign_id, phone_number, time_zone, patient,
                            input_data, output_data, status, attempts, created_at, updated_at,
                            last_call_date)
       SELECT gen_random_uuid(), $1, $2, '+1556' || lpad(n::text, 7, '0'), 'America/New_York',
              '{}'::jsonb, '{}'::jsonb, '{}'::jsonb,
              (ARRAY['Pending', 'Finished', 'Failed', 'Scheduled'])[1 + n % 4], 0,
              timestamptz '2026-01-01T00:00:00.5Z' + (n / 2) * interval '1 second',
              timestamptz '2026-01-01T00:00:00Z',
              CASE WHEN n % 3 <> 0
                   THEN timestamptz '2026-01-02T00:00:10Z' + (n % 7) * interval '1 minute' END
         FROM generate_series(1, 40) AS n`,
      [organization.id, campaign.id],
    );
    expect(await migration.migrateRest()).toContain('TargetListCounts1769600000000');
    db = migration.db;

    const positions = (sql: string) => db.query(sql, [campaign.id]);
    expect(
      await positions(
        `SELECT created_from, status, sum(delta)::int AS n FROM target_position_counts
          WHERE campaign_id = $1 GROUP BY 1, 2 ORDER BY 1, 2`,
      ),
    ).toEqual(
      await positions(
        `SELECT date_bin('1 second', created_at, timestamptz 'epoch') AS created_from, status,
                count(*)::int AS n
           FROM targets WHERE campaign_id = $1 GROUP BY 1, 2 ORDER BY 1, 2`,
      ),
    );
    const cells = await positions(
      `SELECT created_from, called_from, status, sum(delta)::int AS n FROM target_last_call_counts
        WHERE campaign_id = $1 GROUP BY 1, 2, 3 ORDER BY 1, 2, 3`,
    );
    expect(cells).toEqual(
      await positions(
        `SELECT date_bin('1 second', created_at, timestamptz 'epoch') AS created_from,
                date_bin('1 minute', last_call_date, timestamptz 'epoch') AS called_from, status,
                count(*)::int AS n
           FROM targets WHERE campaign_id = $1 AND last_call_date IS NOT NULL
          GROUP BY 1, 2, 3 ORDER BY 1, 2, 3`,
      ),
    );
    expect(cells.reduce((sum: number, c: { n: number }) => sum + c.n, 0)).toBe(27);
    const [deltas] = await positions(
      `SELECT count(*) FILTER (WHERE folded)::int AS folded, sum(delta)::int AS targets
         FROM target_count_deltas WHERE campaign_id = $1`,
    );
    expect(deltas).toEqual({ folded: 0, targets: 40 });
    // The status index now carries last_call_date (a status's last-call walk reads it alone).
    const [index] = await db.query(
      `SELECT indexdef FROM pg_indexes WHERE indexname = 'targets_campaign_status_created_lc_idx'`,
    );
    expect(index.indexdef).toMatch(
      /\(campaign_id, status, created_at, id\) INCLUDE \(last_call_date\)/,
    );
    expect(
      await db.query(
        `SELECT 1 FROM pg_indexes WHERE indexname = 'targets_campaign_status_created_idx'`,
      ),
    ).toEqual([]);
  });

  it('keeps the counts with its triggers after it: a new target and a call land in them', async () => {
    const [{ campaign_id: campaignId, organization_id: organizationId }] = await db.query(
      `SELECT campaign_id, organization_id FROM targets LIMIT 1`,
    );
    const id = randomUUID();
    await db.query(
      `INSERT INTO targets (id, organization_id, campaign_id, phone_number, time_zone, patient,
                            input_data, output_data, status, attempts)
       VALUES ($1, $2, $3, '+15569999999', 'America/New_York', '{}', '{}', '{}', 'Pending', 0)`,
      [id, organizationId, campaignId],
    );
    await db.query(
      `UPDATE targets SET status = 'Failed', last_call_date = timestamptz '2026-01-03T00:00:00Z'
        WHERE id = $1`,
      [id],
    );
    const [sums] = await db.query(
      `SELECT (SELECT sum(delta)::int FROM target_position_counts WHERE campaign_id = $1) AS positions,
              (SELECT sum(delta)::int FROM target_last_call_counts WHERE campaign_id = $1
                  AND status = 'Failed') AS failed_called,
              (SELECT count(*)::int FROM targets WHERE campaign_id = $1 AND status = 'Failed'
                  AND last_call_date IS NOT NULL) AS failed_called_rows`,
      [campaignId],
    );
    expect(sums).toEqual({
      positions: 41,
      failed_called: sums.failed_called_rows,
      failed_called_rows: sums.failed_called_rows,
    });
  });
});
