import { MigrationInterface, QueryRunner } from 'typeorm';

/** Tenancy, campaigns, targets and blacklists. Indexes follow the queries the API runs. */
export class CreateCoreSchema1767225600000 implements MigrationInterface {
  name = 'CreateCoreSchema1767225600000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE organizations (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        name text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE UNIQUE INDEX organizations_name_key ON organizations (name)`);

    await q.query(`
      CREATE TABLE api_keys (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        organization_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        name text NOT NULL,
        key_prefix text NOT NULL,
        key_hash text NOT NULL UNIQUE,
        created_at timestamptz NOT NULL DEFAULT now(),
        last_used_at timestamptz,
        revoked_at timestamptz
      )`);
    await q.query(`CREATE INDEX api_keys_organization_idx ON api_keys (organization_id)`);

    await q.query(`
      CREATE TABLE blacklists (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        organization_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        name text NOT NULL,
        description text,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(
      `CREATE INDEX blacklists_organization_idx ON blacklists (organization_id, created_at, id)`,
    );
    await q.query(`
      CREATE TABLE blacklist_phone_numbers (
        blacklist_id uuid NOT NULL REFERENCES blacklists(id) ON DELETE CASCADE,
        phone_number text NOT NULL,
        reason text,
        level text,
        name text,
        comment text,
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (blacklist_id, phone_number)
      )`);
    await q.query(
      `CREATE INDEX blacklist_phone_numbers_number_idx ON blacklist_phone_numbers (phone_number)`,
    );

    await q.query(`
      CREATE TABLE campaigns (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        organization_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        name text NOT NULL,
        type text NOT NULL,
        caller_id text,
        max_attempts integer NOT NULL DEFAULT 3,
        retry_delay_minutes integer NOT NULL DEFAULT 60,
        max_concurrent_calls integer NOT NULL DEFAULT 10,
        calling_window jsonb,
        steps jsonb NOT NULL DEFAULT '[]',
        entry_step text,
        blacklist_ids uuid[] NOT NULL DEFAULT '{}',
        webhook_url text,
        webhook_secret text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(
      `CREATE INDEX campaigns_organization_idx ON campaigns (organization_id, created_at, id)`,
    );

    await q.query(`
      CREATE TABLE targets (
        id uuid PRIMARY KEY,
        organization_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        campaign_id uuid NOT NULL REFERENCES campaigns(id) ON DELETE CASCADE,
        external_id text,
        phone_number text,
        phone_operating_hours jsonb,
        fallback_phone_number text,
        fallback_operating_hours jsonb,
        patient jsonb,
        pre_call_data jsonb,
        input_data jsonb NOT NULL DEFAULT '{}',
        output_data jsonb NOT NULL DEFAULT '{}',
        status text NOT NULL,
        current_step text,
        resolution text,
        category text,
        subcategory text,
        outcome text,
        call_log_ids bigint[],
        last_call_date timestamptz,
        execution_seconds integer,
        fax_links text[],
        payor_api_data jsonb,
        pre_call_ehr_ids jsonb,
        attempts integer NOT NULL DEFAULT 0,
        retries integer,
        scheduled_time timestamptz,
        call_started_at timestamptz,
        categorization jsonb,
        statistics jsonb,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    // External ids are unique within a campaign (dedupe on add targets, lookups by the step endpoints).
    await q.query(
      `CREATE UNIQUE INDEX targets_campaign_external_id_key ON targets (campaign_id, external_id) WHERE external_id IS NOT NULL`,
    );
    // Paged lists: by campaign in (created_at, id) order, optionally by status or last call date.
    await q.query(
      `CREATE INDEX targets_campaign_created_idx ON targets (campaign_id, created_at, id)`,
    );
    await q.query(
      `CREATE INDEX targets_campaign_status_created_idx ON targets (campaign_id, status, created_at, id)`,
    );
    await q.query(
      `CREATE INDEX targets_campaign_last_call_idx ON targets (campaign_id, last_call_date)`,
    );
    // Dispatch: due scheduled targets, and calls in flight per campaign.
    await q.query(
      `CREATE INDEX targets_due_idx ON targets (scheduled_time) WHERE status = 'Scheduled'`,
    );
    await q.query(
      `CREATE INDEX targets_in_flight_idx ON targets (campaign_id, call_started_at) WHERE status IN ('In Progress', 'Post-processing')`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    for (const table of [
      'targets',
      'campaigns',
      'blacklist_phone_numbers',
      'blacklists',
      'api_keys',
      'organizations',
    ]) {
      await q.query(`DROP TABLE IF EXISTS ${table}`);
    }
  }
}
