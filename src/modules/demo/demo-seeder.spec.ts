import { mkdtempSync, rmSync, statSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';
import { loadConfig } from '../../config/app-config.js';
import { InMemoryBlacklistRepository } from '../../testing/in-memory-blacklist.repository.js';
import { InMemoryCampaignRepository } from '../../testing/in-memory-campaign.repository.js';
import { InMemoryOrganizationRepository } from '../../testing/in-memory-organization.repository.js';
import { InMemoryApiKeyRevocations } from '../../testing/in-memory-api-key-revocations.js';
import { inMemoryProviderConnections } from '../../testing/in-memory-provider-connection.repository.js';
import { BlacklistService } from '../blacklist/application/blacklist.service.js';
import { CampaignService } from '../campaign/application/campaign.service.js';
import { OrganizationService } from '../organization/application/organization.service.js';
import { PeopleService } from '../organization/application/people.service.js';
import { verifyPassword } from '../organization/domain/password.js';
import { InMemoryUserRepository } from '../../testing/in-memory-people.js';
import { demoBanner, DemoSeeder } from './demo-seeder.js';
import { DEFAULT_POLICY, UNRESTRICTED_POLICY } from '../compliance/domain/compliance-policy.js';
import { FakeClock } from '../../testing/fake-clock.js';
import { inMemoryCompliance } from '../../testing/in-memory-compliance.js';

describe('DemoSeeder', () => {
  const dir = mkdtempSync(join(tmpdir(), 'ccs-demo-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  // Each test's organizations are new: so are its people.
  let users = new InMemoryUserRepository();
  let people = new PeopleService(users, { invitationTtlMs: 3_600_000 });
  beforeEach(() => {
    users = new InMemoryUserRepository();
    people = new PeopleService(users, { invitationTtlMs: 3_600_000 });
  });

  function seeder(
    organizations: OrganizationService,
    dataDir: string | null,
    compliance = inMemoryCompliance(new FakeClock('2026-11-26T12:00:00Z')).service,
  ) {
    const campaigns = new CampaignService(
      new InMemoryCampaignRepository(),
      new BlacklistService(new InMemoryBlacklistRepository()),
      inMemoryProviderConnections().service,
    );
    const config = loadConfig({
      DATABASE_URL: dataDir ? `pglite://${dataDir}` : 'pglite://memory',
    });
    return new DemoSeeder(organizations, people, campaigns, compliance, config);
  }

  it('prints the same working key at every start of the same data directory', async () => {
    const organizations = new OrganizationService(
      new InMemoryOrganizationRepository(),
      new InMemoryApiKeyRevocations(),
    );
    const first = await seeder(organizations, join(dir, 'db')).seed();
    const second = await seeder(organizations, join(dir, 'db')).seed();
    expect(second.apiKey).toBe(first.apiKey);
    expect((await organizations.authenticate(second.apiKey)).organizationId).toBe(
      first.organizationId,
    );
    expect(statSync(join(dir, 'db.demo-key')).mode & 0o777).toBe(0o600);
  });

  it('prints the same working sign-in of the demo admin at every start of the same data directory', async () => {
    const organizations = new OrganizationService(
      new InMemoryOrganizationRepository(),
      new InMemoryApiKeyRevocations(),
    );
    const first = await seeder(organizations, join(dir, 'admin')).seed();
    const second = await seeder(organizations, join(dir, 'admin')).seed();
    expect(first.admin).toEqual({ email: 'admin@demo.example', password: expect.any(String) });
    expect(second.admin).toEqual(first.admin);
    const found = await users.findForSignIn('admin@demo.example');
    expect(found?.user).toMatchObject({ role: 'admin', organizationId: first.organizationId });
    expect(await verifyPassword(first.admin.password, found!.passwordHash!)).toBe(true);
    expect(statSync(join(dir, 'admin.demo-sign-in')).mode & 0o777).toBe(0o600);
  });

  it('issues a new key when the saved one was revoked, and keeps only that one working', async () => {
    const organizations = new OrganizationService(
      new InMemoryOrganizationRepository(),
      new InMemoryApiKeyRevocations(),
    );
    const first = await seeder(organizations, join(dir, 'revoked')).seed();
    const { principal } = await organizations.authenticate(first.apiKey);
    await organizations.revokeApiKey(principal.id);
    const second = await seeder(organizations, join(dir, 'revoked')).seed();
    expect(second.apiKey).not.toBe(first.apiKey);
    await expect(organizations.authenticate(second.apiKey)).resolves.toBeDefined();
    const third = await seeder(organizations, join(dir, 'revoked')).seed();
    expect(third.apiKey).toBe(second.apiKey);
  });

  it('an in-memory database gets a new key each time, the previous one revoked', async () => {
    const organizations = new OrganizationService(
      new InMemoryOrganizationRepository(),
      new InMemoryApiKeyRevocations(),
    );
    const first = await seeder(organizations, null).seed();
    const second = await seeder(organizations, null).seed();
    expect(second.apiKey).not.toBe(first.apiKey);
    await expect(organizations.authenticate(first.apiKey)).rejects.toThrow();
  });

  it('prints the calling rules in force for the demo organization: off as seeded, then as set since', async () => {
    const organizations = new OrganizationService(
      new InMemoryOrganizationRepository(),
      new InMemoryApiKeyRevocations(),
    );
    const compliance = inMemoryCompliance(new FakeClock('2026-11-26T12:00:00Z')).service;
    const listening = {
      baseUrl: 'http://localhost:3000',
      host: '127.0.0.1',
      privateWebhooks: true,
      cliReachesDatabase: true,
    };
    const first = await seeder(organizations, null, compliance).seed();
    expect(first.policy).toEqual(UNRESTRICTED_POLICY);
    expect(bannerLines(demoBanner(listening, first), 'calling rules', 'listening on')).toEqual([
      '  calling rules      off for the demo organization (simulated calls at any hour) (GET /api/v1/compliance/policy; docs/compliance.md)',
      '  listening on       127.0.0.1 only: this machine (HOST=0.0.0.0 opens it to the network)',
    ]);

    // An in-memory database is this process's alone: no CLI tip then.
    expect(demoBanner(listening, first)).toContain(
      `  another key        npm run cli -- apikey:create --org ${first.organizationId}   (works while this runs)\n`,
    );
    expect(demoBanner({ ...listening, cliReachesDatabase: false }, first)).not.toContain(
      'apikey:create',
    );

    const set = {
      ...DEFAULT_POLICY,
      maxCallsPerNumber: { per24h: 3, per7d: 10 },
      restrictedDates: [
        { date: '2026-12-25', reason: 'Christmas Day' },
        { date: '2027-01-01', reason: "New Year's Day" },
      ],
    };
    await compliance.setPolicy(first.organizationId, set, null);
    const next = await seeder(organizations, null, compliance).seed();
    expect(next.policy).toEqual(set);
    const open = { ...listening, host: '0.0.0.0' };
    expect(bannerLines(demoBanner(open, next), 'calling rules', 'LISTENING ON')).toEqual([
      "  calling rules      calls 08:00-21:00 in the recipient's zone, state rules on, at most 3 calls per number per 24 h, at most 10 calls per number per 7 days, 2 restricted dates",
      '                     for the demo organization (GET /api/v1/compliance/policy; docs/compliance.md)',
      '  LISTENING ON       0.0.0.0: OPEN TO THE NETWORK, and webhooks may reach private addresses (WEBHOOK_ALLOW_PRIVATE); HOST=127.0.0.1 keeps the demo on this machine',
    ]);
  });
});

/** The banner's lines from the one starting with `from` to the one starting with `to`. */
function bannerLines(banner: string, from: string, to: string): string[] {
  const lines = banner.split('\n');
  const start = lines.findIndex((l) => l.trimStart().startsWith(from));
  const end = lines.findIndex((l) => l.trimStart().startsWith(to));
  return lines.slice(start, end + 1);
}
