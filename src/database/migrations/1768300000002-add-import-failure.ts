import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * An upload that stops before the end of its file (the client went away, the connection broke, the
 * process died) ends `failed` with `failure` saying so, instead of staying `receiving` for ever. The
 * sweep finds the uploads that stopped receiving by this partial index.
 */
export class AddImportFailure1768300000002 implements MigrationInterface {
  name = 'AddImportFailure1768300000002';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE target_imports ADD COLUMN failure text`);
    await q.query(
      `CREATE INDEX target_imports_receiving_idx ON target_imports (updated_at) WHERE status = 'receiving'`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX target_imports_receiving_idx`);
    await q.query(`ALTER TABLE target_imports DROP COLUMN failure`);
  }
}
