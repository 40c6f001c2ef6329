import { randomUUID } from 'crypto';
import { UnitOfWork } from '../../src/common/persistence/unit-of-work.js';
import { DoNotCallRepository } from '../../src/modules/compliance/application/ports/do-not-call.repository.js';
import { InMemoryDoNotCallRepository } from '../../src/testing/in-memory-do-not-call.repository.js';
import { InMemoryUnitOfWork } from '../../src/testing/in-memory-unit-of-work.js';
import { createTestApp, TestApp } from '../support/test-app.js';
import { doNotCallRepositoryContract } from './do-not-call-repository.contract.js';

doNotCallRepositoryContract('in-memory fake', () => {
  const repository = new InMemoryDoNotCallRepository();
  return {
    repository,
    unitOfWork: new InMemoryUnitOfWork(repository),
    organizationId: async () => randomUUID(),
  };
});

describe('with a database', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await createTestApp({ env: { ROLE: 'api' } });
  }, 120_000);
  afterAll(() => app?.close());

  doNotCallRepositoryContract('SQL adapter', () => ({
    repository: app.app.get(DoNotCallRepository),
    unitOfWork: app.app.get(UnitOfWork),
    organizationId: async () => (await app.createOrganization()).organizationId,
  }));
});
