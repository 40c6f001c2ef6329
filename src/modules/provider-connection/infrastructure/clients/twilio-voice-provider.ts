import { Injectable } from '@nestjs/common';
import { SdkVoiceProvider } from './sdk-voice-provider.js';

/** The `twilio` connection type: its calls through `TwilioCallClient` (the `ProviderCallClients` binding). */
@Injectable()
export class TwilioVoiceProvider extends SdkVoiceProvider {
  readonly type = 'twilio';
}
