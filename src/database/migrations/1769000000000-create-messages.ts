import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Texts (messaging module): `messages` holds every text sent to or received from a recipient, with the
 * provider's id and status. An outbound follow-up text also keeps what its target does once the text
 * is settled (`then_outcome`: the call's decision, and the one that replaces a retry when the campaign
 * was cancelled meanwhile). No foreign keys to campaigns, targets or call logs: a text outlives them, and
 * those tables belong to other modules. `campaigns.sms_follow_up` is the campaign's setting (null: off).
 * The do-not-call list takes a third source, `sms` (an opt-out reply), naming its message.
 */
export class CreateMessages1769000000000 implements MigrationInterface {
  name = 'CreateMessages1769000000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE campaigns ADD COLUMN sms_follow_up jsonb`);
    await q.query(`
      CREATE TABLE messages (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        organization_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        campaign_id uuid,
        target_id uuid,
        call_log_id bigint,
        provider_connection_id uuid,
        provider text,
        direction text NOT NULL CHECK (direction IN ('outbound', 'inbound')),
        to_number text NOT NULL,
        from_number text,
        body text NOT NULL,
        status text NOT NULL
          CHECK (status IN ('queued', 'sent', 'delivered', 'undelivered', 'failed', 'received')),
        provider_message_id text,
        error_code text,
        error_message text,
        keyword text CHECK (keyword IN ('opt_out', 'opt_in', 'help')),
        then_outcome jsonb,
        send_after timestamptz,
        sending_since timestamptz,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL,
        sent_at timestamptz,
        settled_at timestamptz
      )`);
    // GET /targets/{id}/messages: a target's texts, oldest first.
    await q.query(
      `CREATE INDEX messages_target_idx ON messages (organization_id, target_id, created_at, id)`,
    );
    // A reply is matched to the latest text sent to its sender.
    await q.query(
      `CREATE INDEX messages_outbound_to_idx ON messages (organization_id, to_number, created_at DESC)
        WHERE direction = 'outbound'`,
    );
    // Status callbacks find their text by the provider's id; a replayed inbound post is a no-op.
    await q.query(
      `CREATE UNIQUE INDEX messages_provider_message_key ON messages (provider, provider_message_id)
        WHERE provider_message_id IS NOT NULL`,
    );
    await q.query(
      `ALTER TABLE do_not_call_entries DROP CONSTRAINT do_not_call_entries_source_check,
         ADD CONSTRAINT do_not_call_entries_source_check CHECK (source IN ('call', 'api', 'sms')),
         ADD COLUMN message_id uuid,
         ADD CONSTRAINT do_not_call_entries_sms_source_check CHECK (source <> 'sms' OR message_id IS NOT NULL)`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DELETE FROM do_not_call_entries WHERE source = 'sms'`);
    await q.query(
      `ALTER TABLE do_not_call_entries DROP CONSTRAINT do_not_call_entries_sms_source_check,
         DROP COLUMN message_id,
         DROP CONSTRAINT do_not_call_entries_source_check,
         ADD CONSTRAINT do_not_call_entries_source_check CHECK (source IN ('call', 'api'))`,
    );
    await q.query(`DROP TABLE messages`);
    await q.query(`ALTER TABLE campaigns DROP COLUMN sms_follow_up`);
  }
}
