import { Injectable } from '@nestjs/common';
import { CREDENTIAL_FIELDS, SETTING_FIELDS } from '../../domain/provider-connection.js';
import { SdkVoiceProvider } from './sdk-voice-provider.js';

/** The `twilio` connection type: its calls through `TwilioCallClient` (the `ProviderCallClients` binding). */
@Injectable()
export class TwilioVoiceProvider extends SdkVoiceProvider {
  readonly type = 'twilio';
  readonly credentialFields = CREDENTIAL_FIELDS.twilio;
  readonly settingFields = SETTING_FIELDS.twilio;
}
