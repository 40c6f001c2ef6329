import { TriggerDefinitionsInstall } from '../trigger-definitions.js';

/** Installs the trigger definitions with those of `audit_events`: no UPDATE, DELETE or TRUNCATE. */
export class InstallTriggerDefinitions1769800000001 extends TriggerDefinitionsInstall {
  name = 'InstallTriggerDefinitions1769800000001';
}
