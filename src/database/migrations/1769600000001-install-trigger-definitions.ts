import { TriggerDefinitionsInstall } from '../trigger-definitions.js';

/** Installs the targets triggers that keep `target_position_counts` and `target_last_call_counts` (migration 1769600000000). */
export class InstallTriggerDefinitions1769600000001 extends TriggerDefinitionsInstall {
  name = 'InstallTriggerDefinitions1769600000001';
}
