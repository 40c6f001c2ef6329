import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The retention purge walks an organization's ended targets in creation order (the order their rows
 * were written in), so each batch rewrites neighbouring pages instead of one random page per target.
 */
export class RetentionWalkInCreationOrder1769920000000 implements MigrationInterface {
  name = 'RetentionWalkInCreationOrder1769920000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX IF EXISTS targets_retention_idx`);
    await q.query(
      `CREATE INDEX targets_retention_idx ON targets (organization_id, created_at, id)
        WHERE status IN ('Finished', 'Failed')`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX IF EXISTS targets_retention_idx`);
    await q.query(
      `CREATE INDEX targets_retention_idx ON targets (organization_id, id)
        WHERE status IN ('Finished', 'Failed')`,
    );
  }
}
