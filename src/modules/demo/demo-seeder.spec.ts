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
import { DemoSeeder } from './demo-seeder.js';
import { FakeClock } from '../../testing/fake-clock.js';
import { inMemoryCompliance } from '../../testing/in-memory-compliance.js';

describe('DemoSeeder', () => {
  const dir = mkdtempSync(join(tmpdir(), 'ccs-demo-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  function seeder(organizations: OrganizationService, dataDir: string | null) {
    const campaigns = new CampaignService(
      new InMemoryCampaignRepository(),
      new BlacklistService(new InMemoryBlacklistRepository()),
      inMemoryProviderConnections().service,
    );
    const config = loadConfig({
      DATABASE_URL: dataDir ? `pglite://${dataDir}` : 'pglite://memory',
    });
    const compliance = inMemoryCompliance(new FakeClock('2026-11-26T12:00:00Z')).service;
    return new DemoSeeder(organizations, campaigns, compliance, config);
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

  it('issues a new key when the saved one was revoked, and keeps only that one working', async () => {
    const organizations = new OrganizationService(
      new InMemoryOrganizationRepository(),
      new InMemoryApiKeyRevocations(),
    );
    const first = await seeder(organizations, join(dir, 'revoked')).seed();
    const { apiKeyId } = await organizations.authenticate(first.apiKey);
    await organizations.revokeApiKey(apiKeyId);
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
});
