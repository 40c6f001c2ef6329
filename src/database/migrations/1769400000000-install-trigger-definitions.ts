import { TriggerDefinitionsInstall } from '../trigger-definitions.js';

/**
 * Installs every trigger and trigger function from its table's definition file (`TRIGGER_DEFINITIONS`:
 * `targets.triggers.sql.ts` of the target module, `call-logs.triggers.sql.ts` of the call-log module).
 * The migrations before it wrote and rewrote them in place (the timeline's update function last in
 * 1768800000000, `SET jit = off` in 1768830000000); from here on the files are where they live, and a
 * new database and an upgraded one end with the same definitions. The timeline's functions now read
 * each `calling.*` setting through one function (`target_event_reason()`, `target_event_step_data()`
 * join the actor and reasons ones).
 */
export class InstallTriggerDefinitions1769400000000 extends TriggerDefinitionsInstall {
  name = 'InstallTriggerDefinitions1769400000000';
}
