import { Injectable } from '@nestjs/common';
import { SdkVoiceProvider } from './sdk-voice-provider.js';

/** The `vapi` connection type: its calls through `VapiCallClient` (the `ProviderCallClients` binding). */
@Injectable()
export class VapiVoiceProvider extends SdkVoiceProvider {
  readonly type = 'vapi';
}
