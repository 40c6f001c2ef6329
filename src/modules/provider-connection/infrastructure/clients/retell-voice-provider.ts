import { Injectable } from '@nestjs/common';
import { CREDENTIAL_FIELDS, SETTING_FIELDS } from '../../domain/provider-connection.js';
import { SdkVoiceProvider } from './sdk-voice-provider.js';

/** The `retell` connection type: its calls through `RetellCallClient` (the `ProviderCallClients` binding). */
@Injectable()
export class RetellVoiceProvider extends SdkVoiceProvider {
  readonly type = 'retell';
  readonly credentialFields = CREDENTIAL_FIELDS.retell;
  readonly settingFields = SETTING_FIELDS.retell;
}
