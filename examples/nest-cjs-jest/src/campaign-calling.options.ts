import type { ExtensionOptions } from 'campaign-calling-service';
import { AcmeVoiceProvider } from './acme/acme-carrier';
import { AuditTrail } from './audit/audit-trail.listener';
import { ConsentCheck } from './consent/consent.check';
import { ConsentModule } from './consent/consent.module';

/**
 * What the team adds to the service, given alike to `CampaignCallingModule.forRoot` (the app) and to
 * `CampaignCallingTestingModule.forRoot` (the tests). The classes are built by Nest: `imports` lends
 * them the app's own modules (the check injects `ConsentService`).
 */
export const EXTENSIONS: ExtensionOptions = {
  voiceProviders: [AcmeVoiceProvider],
  preDialChecks: [ConsentCheck],
  listeners: [AuditTrail],
  imports: [ConsentModule],
};
