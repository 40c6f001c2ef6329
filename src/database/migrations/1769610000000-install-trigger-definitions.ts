import { TriggerDefinitionsInstall } from '../trigger-definitions.js';

/**
 * Installs the trigger definitions that keep `target_position_counts` and `target_last_call_counts`
 * (migration 1769600000000), with the time of a deletion read as the sixth setting of a cause:
 * `target_event_deleted_at()` reads `calling.deleted_at` (set by the `CAUSE_FROM` fragment with who
 * and why), and `target_events_delete()` reads it through that function.
 */
export class InstallTriggerDefinitions1769610000000 extends TriggerDefinitionsInstall {
  name = 'InstallTriggerDefinitions1769610000000';
}
