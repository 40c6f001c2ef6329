import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `GET /api/v1/live-calls?user_phone_number=` finds the organization's latest call to a number: one
 * index range, newest first, instead of a walk through every call the organization made. Call logs
 * are written once and completed once, so the entry costs one insert per call.
 */
export class CallLogNumberIndex1769300000000 implements MigrationInterface {
  name = 'CallLogNumberIndex1769300000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `CREATE INDEX call_logs_organization_number_idx ON call_logs (organization_id, to_number, started_at)`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX call_logs_organization_number_idx`);
  }
}
