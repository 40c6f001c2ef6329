import { randomUUID } from 'crypto';
import { UnitOfWork } from '../../src/common/persistence/unit-of-work.js';
import { MessageRepository } from '../../src/modules/messaging/application/ports/message.repository.js';
import { InMemoryMessageRepository } from '../../src/testing/in-memory-message.repository.js';
import { InMemoryUnitOfWork } from '../../src/testing/in-memory-unit-of-work.js';
import { createTestApp, TestApp } from '../support/test-app.js';
import { messageRepositoryContract } from './message-repository.contract.js';

messageRepositoryContract('in-memory fake', () => {
  const repository = new InMemoryMessageRepository();
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

  messageRepositoryContract('SQL adapter', () => ({
    repository: app.app.get(MessageRepository),
    unitOfWork: app.app.get(UnitOfWork),
    organizationId: async () => (await app.createOrganization()).organizationId,
  }));
});
