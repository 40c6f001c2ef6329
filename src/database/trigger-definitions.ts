import { MigrationInterface, QueryRunner } from 'typeorm';
import { CALL_LOGS_TRIGGERS } from '../modules/call-log/infrastructure/call-logs.triggers.sql.js';
import { TARGETS_TRIGGERS } from '../modules/target/infrastructure/targets.triggers.sql.js';
import { AUDIT_EVENTS_TRIGGERS } from '../modules/audit/infrastructure/audit-events.triggers.sql.js';

/**
 * The current definition of every trigger and trigger function, one SQL text per table, each kept by
 * the module that owns the table (docs/architecture.md, "Triggers"). TypeScript modules rather than
 * `.sql` files: the service runs from `src/` (the tests' Vite transform, the TS loader), from `dist/` (the CLI) and
 * from one bundled file (`dist/service-main.js`), and an imported string is in all three without a
 * copy step or a path to resolve.
 */
export const TRIGGER_DEFINITIONS: Readonly<Record<string, string>> = {
  targets: TARGETS_TRIGGERS,
  call_logs: CALL_LOGS_TRIGGERS,
  audit_events: AUDIT_EVENTS_TRIGGERS,
};

/**
 * The migrations that install the definitions, oldest first. Changing a trigger is an edit of its
 * table's text and one more `TriggerDefinitionsInstall` here. Only the last one installs on a database
 * that has not run it yet: a new database would otherwise run today's text at an older
 * install's place in the history, before a column it needs exists. An older install that a database
 * ran in its time stays applied; the last one replaces what it installed.
 */
export const TRIGGER_INSTALLS = [
  'InstallTriggerDefinitions1769400000000',
  'InstallTriggerDefinitions1769610000000',
  'InstallTriggerDefinitions1769800000001',
];

/** Runs every table's definitions, in one transaction with the migration (TypeORM's `transaction: 'each'`). */
export async function installTriggerDefinitions(q: QueryRunner): Promise<void> {
  for (const sql of Object.values(TRIGGER_DEFINITIONS)) await q.query(sql);
}

/** A migration that installs the current trigger definitions (see `TRIGGER_INSTALLS`). */
export abstract class TriggerDefinitionsInstall implements MigrationInterface {
  abstract name: string;

  async up(q: QueryRunner): Promise<void> {
    if (this.name !== TRIGGER_INSTALLS[TRIGGER_INSTALLS.length - 1]) return;
    await installTriggerDefinitions(q);
  }

  /**
   * Nothing to undo: the definitions replaced are those of earlier migrations, which this one
   * reinstalls with the same behaviour; reverting those migrations drops them.
   */
  async down(): Promise<void> {}
}
