import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Calling rules (issue 29, docs/compliance.md), owned by the compliance module:
 * - `compliance_policies`: an organization's policy, one row once it has been set (defaults before).
 * - `compliance_call_ledger`: one row per call placed, by organization and number, written in the
 *   claim's transaction; the caps count a number's last 7 days of it through the primary key alone,
 *   so a check costs the same however many calls the organization has made.
 * - `compliance_decisions`: every deferral or refusal a calling rule made, for an audit.
 * And on `targets` (target module): the recipient's own time zone when one was given, and the rule
 * holding a `Scheduled` target with its words (cleared when a call starts).
 */
export class CallingRules1768910000000 implements MigrationInterface {
  name = 'CallingRules1768910000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE compliance_policies (
        organization_id uuid PRIMARY KEY REFERENCES organizations(id) ON DELETE CASCADE,
        policy jsonb NOT NULL,
        updated_at timestamptz NOT NULL,
        updated_by_key_id uuid
      )`);
    await q.query(`
      CREATE TABLE compliance_call_ledger (
        organization_id uuid NOT NULL,
        phone_number text NOT NULL,
        placed_at timestamptz NOT NULL,
        call_log_id bigint NOT NULL,
        PRIMARY KEY (organization_id, phone_number, placed_at, call_log_id)
      )`);
    await q.query(`
      CREATE TABLE compliance_decisions (
        id bigserial PRIMARY KEY,
        organization_id uuid NOT NULL,
        campaign_id uuid NOT NULL,
        target_id text NOT NULL,
        rule text NOT NULL,
        action text NOT NULL CHECK (action IN ('deferred', 'refused')),
        reason text NOT NULL,
        time_zone text,
        local_time text,
        deferred_until timestamptz,
        decided_at timestamptz NOT NULL
      )`);
    await q.query(
      `CREATE INDEX compliance_decisions_org_idx ON compliance_decisions (organization_id, decided_at, id)`,
    );
    await q.query(
      `CREATE INDEX compliance_decisions_campaign_idx ON compliance_decisions (organization_id, campaign_id, decided_at, id)`,
    );
    await q.query(`ALTER TABLE targets ADD COLUMN time_zone text`);
    await q.query(`ALTER TABLE targets ADD COLUMN hold_rule text`);
    await q.query(`ALTER TABLE targets ADD COLUMN hold_reason text`);
    // The campaign's stats count the targets each rule holds: few rows, read by this index alone.
    await q.query(
      `CREATE INDEX targets_campaign_hold_idx ON targets (campaign_id, hold_rule) WHERE hold_rule IS NOT NULL`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX targets_campaign_hold_idx`);
    await q.query(`ALTER TABLE targets DROP COLUMN hold_reason`);
    await q.query(`ALTER TABLE targets DROP COLUMN hold_rule`);
    await q.query(`ALTER TABLE targets DROP COLUMN time_zone`);
    await q.query(`DROP TABLE compliance_decisions`);
    await q.query(`DROP TABLE compliance_call_ledger`);
    await q.query(`DROP TABLE compliance_policies`);
  }
}
