import { Injectable, Optional } from '@nestjs/common';
import {
  SettingProblem,
  VoiceProvider,
} from '../../provider-connection/application/ports/voice-provider.js';
import {
  CREDENTIAL_FIELDS,
  SETTING_FIELDS,
} from '../../provider-connection/domain/provider-connection.js';
import {
  CallProvider,
  ConnectionUnusableError,
} from '../../telephony/application/ports/call-provider.js';
import type { ResolvedConnection } from '../../provider-connection/domain/provider-connection.js';
import { SimulatedCallProvider } from './simulated-call-provider.js';

/**
 * The `simulated` connection type: every such connection places through the engine's one simulator.
 * The simulator is optional to the registry: an app of some modules only (the testing module's
 * `modules`) has connections to create but no engine to place their calls.
 */
@Injectable()
export class SimulatedVoiceProvider extends VoiceProvider {
  readonly type = 'simulated';
  readonly credentialFields = CREDENTIAL_FIELDS.simulated;
  readonly settingFields = SETTING_FIELDS.simulated;

  constructor(@Optional() private readonly simulator?: SimulatedCallProvider) {
    super();
  }

  checkSettings(): SettingProblem[] {
    return [];
  }

  connect(connection: ResolvedConnection): CallProvider {
    if (!this.simulator) throw new ConnectionUnusableError(connection.id, 'no calling engine here');
    return this.simulator;
  }
}
