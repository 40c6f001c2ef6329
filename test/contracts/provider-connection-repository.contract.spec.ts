import { ProviderConnectionRepository } from '../../src/modules/provider-connection/application/ports/provider-connection.repository.js';
import { InMemoryProviderConnectionRepository } from '../../src/testing/in-memory-provider-connection.repository.js';
import { createTestApp } from '../support/test-app.js';
import { providerConnectionRepositoryContract } from './provider-connection-repository.contract.js';

providerConnectionRepositoryContract('in memory', async () => ({
  repository: new InMemoryProviderConnectionRepository(),
  organizationA: '00000000-0000-4000-8000-0000000aaaa1',
  organizationB: '00000000-0000-4000-8000-0000000aaaa2',
  async close() {},
}));

providerConnectionRepositoryContract('SQL', async () => {
  const t = await createTestApp();
  const a = await t.createOrganization();
  const b = await t.createOrganization();
  return {
    repository: t.app.get(ProviderConnectionRepository),
    organizationA: a.organizationId,
    organizationB: b.organizationId,
    close: () => t.close(),
  };
});
