import { BlacklistRepository } from '../../src/modules/blacklist/application/ports/blacklist.repository.js';
import { CampaignRepository } from '../../src/modules/campaign/application/ports/campaign.repository.js';
import { OrganizationRepository } from '../../src/modules/organization/application/ports/organization.repository.js';
import { InMemoryBlacklistRepository } from '../../src/testing/in-memory-blacklist.repository.js';
import { InMemoryCampaignRepository } from '../../src/testing/in-memory-campaign.repository.js';
import { InMemoryOrganizationRepository } from '../../src/testing/in-memory-organization.repository.js';
import { InMemoryUnitOfWork } from '../../src/testing/in-memory-unit-of-work.js';
import { UnitOfWork } from '../../src/common/persistence/unit-of-work.js';
import { createTestApp, TestApp } from '../support/test-app.js';
import { blacklistRepositoryContract } from './blacklist-repository.contract.js';
import { campaignRepositoryContract } from './campaign-repository.contract.js';
import { organizationRepositoryContract } from './organization-repository.contract.js';

describe('in-memory fakes', () => {
  let organizations = new InMemoryOrganizationRepository();
  let campaigns = new InMemoryCampaignRepository();
  let blacklists = new InMemoryBlacklistRepository();
  let n = 0;
  beforeEach(() => {
    organizations = new InMemoryOrganizationRepository();
    campaigns = new InMemoryCampaignRepository();
    blacklists = new InMemoryBlacklistRepository();
  });
  const organizationId = async () => `00000000-0000-4000-8000-${String(++n).padStart(12, '0')}`;

  describe('OrganizationRepository', () => {
    organizationRepositoryContract(() => organizations);
  });
  describe('CampaignRepository', () => {
    campaignRepositoryContract({
      repository: () => campaigns,
      organizationId,
      uow: () => new InMemoryUnitOfWork(),
    });
  });
  describe('BlacklistRepository', () => {
    blacklistRepositoryContract({ repository: () => blacklists, organizationId });
  });
});

describe('TypeORM adapters on a real database', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());
  const organizationId = async () => (await t.createOrganization()).organizationId;

  describe('OrganizationRepository', () => {
    organizationRepositoryContract(() => t.app.get(OrganizationRepository));
  });
  describe('CampaignRepository', () => {
    campaignRepositoryContract({
      repository: () => t.app.get(CampaignRepository),
      organizationId,
      uow: () => t.app.get(UnitOfWork),
    });
  });
  describe('BlacklistRepository', () => {
    blacklistRepositoryContract({
      repository: () => t.app.get(BlacklistRepository),
      organizationId,
    });
  });
});
