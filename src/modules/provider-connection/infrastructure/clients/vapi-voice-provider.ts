import { Injectable } from '@nestjs/common';
import { CREDENTIAL_FIELDS, SETTING_FIELDS } from '../../domain/provider-connection.js';
import { SdkVoiceProvider } from './sdk-voice-provider.js';

/** The `vapi` connection type: its calls through `VapiCallClient` (the `ProviderCallClients` binding). */
@Injectable()
export class VapiVoiceProvider extends SdkVoiceProvider {
  readonly type = 'vapi';
  readonly credentialFields = CREDENTIAL_FIELDS.vapi;
  readonly settingFields = SETTING_FIELDS.vapi;
}
