import { AuditEventStore } from '../../src/modules/audit/application/ports/audit-event.store.js';
import { InMemoryAuditEventStore } from '../../src/testing/in-memory-audit-event.store.js';
import { randomUUID } from 'crypto';
import { createTestApp } from '../support/test-app.js';
import { auditEventStoreContract } from './audit-event-store.contract.js';

auditEventStoreContract('in memory', async () => ({
  store: new InMemoryAuditEventStore(),
  newOrganization: async () => randomUUID(),
  async close() {},
}));

auditEventStoreContract('SQL', async () => {
  const t = await createTestApp({ env: { ROLE: 'api' } });
  return {
    store: t.app.get(AuditEventStore),
    newOrganization: async () => (await t.createOrganization()).organizationId,
    close: () => t.close(),
  };
});
