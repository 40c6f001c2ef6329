import { Injectable, Optional } from '@nestjs/common';
import { BuiltInVoiceProvider } from '../../provider-connection/application/ports/voice-provider.js';
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
export class SimulatedVoiceProvider extends BuiltInVoiceProvider {
  readonly type = 'simulated';

  constructor(@Optional() private readonly simulator?: SimulatedCallProvider) {
    super();
  }

  connect(connection: ResolvedConnection): CallProvider {
    if (!this.simulator) throw new ConnectionUnusableError(connection.id, 'no calling engine here');
    return this.simulator;
  }
}
