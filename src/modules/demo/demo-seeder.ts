import { Injectable } from '@nestjs/common';
import { existsSync, readFileSync, writeFileSync } from 'fs';
import { resolve } from 'path';
import { AppConfig } from '../../config/app-config.js';
import { CampaignService } from '../campaign/application/campaign.service.js';
import { ComplianceService } from '../compliance/application/compliance.service.js';
import { UNRESTRICTED_POLICY } from '../compliance/domain/compliance-policy.js';
import { OrganizationService } from '../organization/application/organization.service.js';

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
 * Keys are stored hashed, so the printed key is kept beside the data directory (`<dir>.demo-key`,
 * readable by its owner only): every start of the same data directory prints the same working key.
 * An in-memory database, or a saved key that no longer works (revoked), gets a new one.
 */
@Injectable()
export class DemoSeeder {
  private readonly keyFile: string | null;

  constructor(
    private readonly organizations: OrganizationService,
    private readonly campaigns: CampaignService,
    private readonly compliance: ComplianceService,
    config: AppConfig,
  ) {
    const database = config.get('database');
    this.keyFile =
      database.kind === 'pglite' && database.dataDir
        ? `${resolve(database.dataDir)}.demo-key`
        : null;
  }

  async seed(): Promise<DemoInfo> {
    const organization = await this.organizations.ensureOrganization(DEMO_ORGANIZATION);
    const apiKey = await this.demoKey(organization.id);
    // The simulator calls nobody: the demo answers at any hour of the visitor's day, and says so
    // (banner, GET /compliance/policy warnings). A policy set through the API or console is kept.
    if (!(await this.compliance.hasOwnPolicy(organization.id))) {
      await this.compliance.setPolicy(organization.id, UNRESTRICTED_POLICY, null);
    }
    const { items } = await this.campaigns.list(organization.id, { page: 0, limit: 100 });
    const campaign =
      items.find((c) => c.name === DEMO_CAMPAIGN) ??
      (await this.campaigns.create(organization.id, {
        name: DEMO_CAMPAIGN,
        type: 'patient',
        maxAttempts: 2,
        retryDelayMinutes: 1,
      }));
    return { organizationId: organization.id, apiKey, campaignId: campaign.id };
  }

  private async demoKey(organizationId: string): Promise<string> {
    const saved =
      this.keyFile && existsSync(this.keyFile) ? readFileSync(this.keyFile, 'utf8').trim() : '';
    if (saved) {
      const works = await this.organizations.authenticate(saved).then(
        (auth) => auth.organizationId === organizationId,
        () => false,
      );
      if (works) return saved;
    }
    // Exactly one demo key works: the one on screen.
    for (const key of await this.organizations.listApiKeys(organizationId)) {
      if (key.name === DEMO_KEY_NAME && !key.revokedAt)
        await this.organizations.revokeApiKey(key.id);
    }
    const { key } = await this.organizations.createApiKey(organizationId, DEMO_KEY_NAME);
    if (this.keyFile) writeFileSync(this.keyFile, key + '\n', { mode: 0o600 });
    return key;
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
    `  operator console   ${baseUrl}/console/   (sign in with the demo API key below)`,
    `  demo organization  ${demo.organizationId}`,
    `  demo API key       ${demo.apiKey}   (the same at every start; more: npm run cli -- apikey:create --org ${demo.organizationId})`,
    `  demo campaign      ${demo.campaignId}`,
    '  calling rules      off for the demo organization (simulated calls at any hour); a real',
    '                     organization starts with 08:00-21:00 in the recipient zone: docs/compliance.md',
    '',
    'Try it: add two targets and call them at once (the simulator answers; a number ending in 0004 needs a person):',
    `  curl -s -X POST ${targets} -H "X-API-Key: ${demo.apiKey}" -H 'Content-Type: application/json' -d '${body}'`,
    'then, a few seconds later, read them and their call logs:',
    `  curl -s ${targets} -H "X-API-Key: ${demo.apiKey}"`,
    `  curl -s ${baseUrl}/api/v1/call-logs -H "X-API-Key: ${demo.apiKey}"`,
    '',
  ].join('\n');
}
