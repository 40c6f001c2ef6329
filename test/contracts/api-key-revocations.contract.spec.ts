import { ApiKeyRevocations } from '../../src/modules/organization/application/ports/api-key-revocations.js';
import { OrganizationService } from '../../src/modules/organization/application/organization.service.js';
import { InMemoryApiKeyRevocations } from '../../src/testing/in-memory-api-key-revocations.js';
import { usesPglite } from '../support/test-database.js';
import { createTestApp } from '../support/test-app.js';
import { apiKeyRevocationsContract } from './api-key-revocations.contract.js';

apiKeyRevocationsContract('in memory', async () => {
  const revocations = new InMemoryApiKeyRevocations();
  return {
    revocations,
    revokeElsewhere: async () => revocations.announce(),
    delivers: true,
    async close() {},
  };
});

apiKeyRevocationsContract('PostgreSQL LISTEN/NOTIFY', async () => {
  const t = await createTestApp({ env: { ROLE: 'api' } });
  const organizations = t.app.get(OrganizationService);
  return {
    revocations: t.app.get(ApiKeyRevocations),
    async revokeElsewhere() {
      const { organizationId } = await t.createOrganization();
      const [{ id }] = await t.sql(`SELECT id FROM api_keys WHERE organization_id = $1`, [
        organizationId,
      ]);
      await organizations.revokeApiKey(id);
    },
    delivers: !usesPglite(),
    close: () => t.close(),
  };
});
