import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Autovacuum visits `targets` after 1% of its rows changed, not the server's default fifth. Every
 * call rewrites its target's row (status, attempts, last call), and the lists' index-only walks and
 * last-call reads visit the table for each entry on a page changed since the last vacuum: at a
 * fifth, a campaign of 1,000,000 patients called over months carries up to 200,000 such rows (days
 * of calls), at 1% about a day's. The usual setting for a large table written all day; a vacuum
 * skips the pages nothing changed on, so the extra runs are short.
 */
export class VacuumTargetsSooner1769930000000 implements MigrationInterface {
  name = 'VacuumTargetsSooner1769930000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `ALTER TABLE targets SET (autovacuum_vacuum_scale_factor = 0.01,
                                autovacuum_vacuum_insert_scale_factor = 0.01,
                                autovacuum_analyze_scale_factor = 0.02)`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(
      `ALTER TABLE targets RESET (autovacuum_vacuum_scale_factor,
                                  autovacuum_vacuum_insert_scale_factor,
                                  autovacuum_analyze_scale_factor)`,
    );
  }
}
