import { Injectable } from '@nestjs/common';
import { SdkVoiceProvider } from './sdk-voice-provider.js';

/** The `retell` connection type: its calls through `RetellCallClient` (the `ProviderCallClients` binding). */
@Injectable()
export class RetellVoiceProvider extends SdkVoiceProvider {
  readonly type = 'retell';
}
