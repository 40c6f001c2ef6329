import { Injectable } from '@nestjs/common';
import { CampaignService } from '../campaign/application/campaign.service';
import { OrganizationService } from '../organization/application/organization.service';

export const DEMO_ORGANIZATION = 'Demo';
export const DEMO_CAMPAIGN = 'Demo campaign';
const DEMO_KEY_NAME = 'demo';

export interface DemoInfo {
  organizationId: string;
  apiKey: string;
  campaignId: string;
}

/**
 * First-start experience on the embedded database: a demo organization and campaign, and an API key.
 * Keys are stored hashed, so the printed key cannot be shown again: each start revokes the previous
 * demo key and issues a new one, so exactly one demo key works and it is always on screen.
 */
@Injectable()
export class DemoSeeder {
  constructor(
    private readonly organizations: OrganizationService,
    private readonly campaigns: CampaignService,
  ) {}

  async seed(): Promise<DemoInfo> {
    const organization = await this.organizations.ensureOrganization(DEMO_ORGANIZATION);
    for (const key of await this.organizations.listApiKeys(organization.id)) {
      if (key.name === DEMO_KEY_NAME && !key.revokedAt)
        await this.organizations.revokeApiKey(key.id);
    }
    const { key } = await this.organizations.createApiKey(organization.id, DEMO_KEY_NAME);
    const { items } = await this.campaigns.list(organization.id, { page: 0, limit: 100 });
    const campaign =
      items.find((c) => c.name === DEMO_CAMPAIGN) ??
      (await this.campaigns.create(organization.id, {
        name: DEMO_CAMPAIGN,
        type: 'patient',
        maxAttempts: 2,
        retryDelayMinutes: 1,
      }));
    return { organizationId: organization.id, apiKey: key, campaignId: campaign.id };
  }
}

export function demoBanner(baseUrl: string, demo: DemoInfo): string {
  const targets = `${baseUrl}/api/v1/campaigns/${demo.campaignId}/targets`;
  const body = JSON.stringify({
    launch: true,
    targets: [
      {
        phone_number: '+15550101234',
        input_data: { appointment: 'tomorrow 10:00' },
        patient: { first_name: 'Ada', external_id: 'PAT-1' },
      },
      { phone_number: '+15550100004', patient: { first_name: 'Grace', external_id: 'PAT-2' } },
    ],
  });
  return [
    '',
    `Campaign Calling Service is up on ${baseUrl}  (API docs: ${baseUrl}/docs)`,
    `  demo organization  ${demo.organizationId}`,
    `  demo API key       ${demo.apiKey}   (a new one at every start; more: npm run cli -- apikey:create --org ${demo.organizationId})`,
    `  demo campaign      ${demo.campaignId}`,
    '',
    'Try it: add two targets and call them at once (the simulator answers; a number ending in 0004 needs a person):',
    `  curl -s -X POST ${targets} -H "X-API-Key: ${demo.apiKey}" -H 'Content-Type: application/json' -d '${body}'`,
    'then, a few seconds later, read them and their call logs:',
    `  curl -s ${targets} -H "X-API-Key: ${demo.apiKey}"`,
    `  curl -s ${baseUrl}/api/v1/call-logs -H "X-API-Key: ${demo.apiKey}"`,
    '',
  ].join('\n');
}
