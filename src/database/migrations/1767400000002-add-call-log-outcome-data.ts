import { MigrationInterface, QueryRunner } from 'typeorm';

/** A call's output data and subcategory, kept with it so recovery after a crash can apply them. */
export class AddCallLogOutcomeData1767400000002 implements MigrationInterface {
  name = 'AddCallLogOutcomeData1767400000002';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `ALTER TABLE call_logs ADD COLUMN output_data jsonb, ADD COLUMN subcategory text`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE call_logs DROP COLUMN output_data, DROP COLUMN subcategory`);
  }
}
