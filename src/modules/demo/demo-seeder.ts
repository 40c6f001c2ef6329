import { Injectable } from '@nestjs/common';
import { randomBytes } from 'crypto';
import { existsSync, readFileSync, writeFileSync } from 'fs';
import { resolve } from 'path';
import { AppConfig } from '../../config/app-config.js';
import { CampaignService } from '../campaign/application/campaign.service.js';
import { ComplianceService } from '../compliance/application/compliance.service.js';
import { CompliancePolicy, UNRESTRICTED_POLICY } from '../compliance/domain/compliance-policy.js';
import { OrganizationService } from '../organization/application/organization.service.js';
import { PeopleService } from '../organization/application/people.service.js';

export const DEMO_ORGANIZATION = 'Demo';
export const DEMO_CAMPAIGN = 'Demo campaign';
export const DEMO_ADMIN_EMAIL = 'admin@demo.example';
const DEMO_KEY_NAME = 'demo';

export interface DemoInfo {
  organizationId: string;
  apiKey: string;
  /** The demo admin's sign-in for the console. */
  admin: { email: string; password: string };
  campaignId: string;
  /** The calling rules in force for the demo organization, as stored (set through the API or console). */
  policy: CompliancePolicy;
}

/** Where the demo listens, as the banner tells it. */
export interface DemoListening {
  baseUrl: string;
  host: string;
  /** WEBHOOK_ALLOW_PRIVATE: notifications may go to loopback and private addresses. */
  privateWebhooks: boolean;
  /** False for an in-memory database, which no other process (the CLI) can open. */
  cliReachesDatabase: boolean;
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
  private readonly passwordFile: string | null;

  constructor(
    private readonly organizations: OrganizationService,
    private readonly people: PeopleService,
    private readonly campaigns: CampaignService,
    private readonly compliance: ComplianceService,
    config: AppConfig,
  ) {
    const database = config.get('database');
    this.keyFile =
      database.kind === 'pglite' && database.dataDir
        ? `${resolve(database.dataDir)}.demo-key`
        : null;
    this.passwordFile = this.keyFile && this.keyFile.replace(/\.demo-key$/, '.demo-sign-in');
  }

  async seed(): Promise<DemoInfo> {
    const organization = await this.organizations.ensureOrganization(DEMO_ORGANIZATION);
    const apiKey = await this.demoKey(organization.id);
    const admin = await this.demoAdmin(organization.id);
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
    return {
      organizationId: organization.id,
      apiKey,
      admin,
      campaignId: campaign.id,
      policy: await this.compliance.policy(organization.id),
    };
  }

  /** The demo admin, whose password is kept beside the data, like the key (owner only). */
  private async demoAdmin(organizationId: string): Promise<{ email: string; password: string }> {
    const saved = savedIn(this.passwordFile);
    const password = saved || randomBytes(12).toString('base64url');
    await this.people.ensureSignIn(
      organizationId,
      { email: DEMO_ADMIN_EMAIL, name: 'Demo admin', role: 'admin' },
      password,
    );
    if (this.passwordFile && !saved) {
      writeFileSync(this.passwordFile, password + '\n', { mode: 0o600 });
    }
    return { email: DEMO_ADMIN_EMAIL, password };
  }

  private async demoKey(organizationId: string): Promise<string> {
    const saved = savedIn(this.keyFile);
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

/** What an earlier start kept in `file` (none: ''). */
function savedIn(file: string | null): string {
  return file && existsSync(file) ? readFileSync(file, 'utf8').trim() : '';
}

export function demoBanner(listening: DemoListening, demo: DemoInfo): string {
  const { baseUrl } = listening;
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
    `  operator console   ${baseUrl}/console/   (sign in as the demo admin below)`,
    `  demo admin         ${demo.admin.email}   password ${demo.admin.password}   (the console's email and password; the same at every start)`,
    `  demo organization  ${demo.organizationId}`,
    `  demo API key       ${demo.apiKey}   (the same at every start)`,
    ...(listening.cliReachesDatabase
      ? [
          `  another key        npm run cli -- apikey:create --org ${demo.organizationId}   (works while this runs)`,
        ]
      : []),
    `  demo campaign      ${demo.campaignId}`,
    ...callingRulesLines(demo.policy),
    ...listeningLines(listening),
    '',
    'Try it: add two targets and call them at once (the simulator answers; a number ending in 0004 needs a person):',
    `  curl -s -X POST ${targets} -H "X-API-Key: ${demo.apiKey}" -H 'Content-Type: application/json' -d '${body}'`,
    'then, a few seconds later, read them and their call logs:',
    `  curl -s ${targets} -H "X-API-Key: ${demo.apiKey}"`,
    `  curl -s ${baseUrl}/api/v1/call-logs -H "X-API-Key: ${demo.apiKey}"`,
    '',
  ].join('\n');
}

/**
 * The demo organization's calling rules as stored, in words: what a visitor's calls will meet. The
 * seed turns them off for the simulator; whatever was set since (API, console) is what is printed.
 */
export function callingRulesLines(policy: CompliancePolicy): string[] {
  const where = '(GET /api/v1/compliance/policy; docs/compliance.md)';
  const caps = policy.maxCallsPerNumber;
  const off =
    policy.quietHours === null &&
    !policy.stateRules &&
    caps.per24h === null &&
    caps.per7d === null &&
    policy.restrictedDates.length === 0;
  if (off) {
    return [
      '  calling rules      off for the demo organization (simulated calls at any hour) ' + where,
    ];
  }
  const rules = [
    policy.quietHours
      ? `calls ${policy.quietHours.start}-${policy.quietHours.end} in the recipient's zone`
      : 'QUIET HOURS OFF (calls at any hour)',
    policy.stateRules ? 'state rules on' : 'STATE RULES OFF',
  ];
  if (caps.per24h !== null) rules.push(`at most ${caps.per24h} calls per number per 24 h`);
  if (caps.per7d !== null) rules.push(`at most ${caps.per7d} calls per number per 7 days`);
  if (policy.restrictedDates.length > 0) {
    const n = policy.restrictedDates.length;
    rules.push(`${n} restricted date${n === 1 ? '' : 's'}`);
  }
  return [
    `  calling rules      ${rules.join(', ')}`,
    `                     for the demo organization ${where}`,
  ];
}

/** Who can reach the demo: this machine only, or (said loudly) the network. */
function listeningLines({ host, privateWebhooks }: DemoListening): string[] {
  if (isLoopback(host)) {
    return [
      `  listening on       ${host} only: this machine (HOST=0.0.0.0 opens it to the network)`,
    ];
  }
  return [
    `  LISTENING ON       ${host}: OPEN TO THE NETWORK${
      privateWebhooks ? ', and webhooks may reach private addresses (WEBHOOK_ALLOW_PRIVATE)' : ''
    }; HOST=127.0.0.1 keeps the demo on this machine`,
  ];
}

function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || host.startsWith('127.');
}
