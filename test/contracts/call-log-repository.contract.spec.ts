import { randomUUID } from 'crypto';
import { UnitOfWork } from '../../src/common/persistence/unit-of-work.js';
import { CallLogRepository } from '../../src/modules/call-log/application/ports/call-log.repository.js';
import { InMemoryUnitOfWork } from '../../src/testing/in-memory-unit-of-work.js';
import { InMemoryCallLogRepository } from '../../src/testing/in-memory-call-log.repository.js';
import { createTestApp, TestApp } from '../support/test-app.js';
import { callLogRepositoryContract } from './call-log-repository.contract.js';

callLogRepositoryContract('in memory', () => ({
  repository: new InMemoryCallLogRepository(),
  uow: new InMemoryUnitOfWork(),
  newOwner: async () => ({ organizationId: randomUUID(), campaignId: randomUUID() }),
}));

describe('TypeORM adapter', () => {
  let t: TestApp;
  const ctx: { repository?: CallLogRepository; uow?: UnitOfWork } = {};

  beforeAll(async () => {
    t = await createTestApp({ env: { ROLE: 'api' } });
    ctx.repository = t.app.get(CallLogRepository, { strict: false });
    ctx.uow = t.app.get(UnitOfWork, { strict: false });
  });
  afterAll(async () => {
    await t?.close();
  });

  callLogRepositoryContract('TypeORM', () => ({
    repository: ctx.repository!,
    uow: ctx.uow!,
    newOwner: async () => {
      const { organizationId } = await t.createOrganization();
      return { organizationId, campaignId: randomUUID() };
    },
  }));
});
