import { randomUUID } from 'crypto';
import { UnitOfWork } from '../../src/common/persistence/unit-of-work';
import { TargetEventLog } from '../../src/modules/target/application/ports/target-event-log';
import { TargetRepository } from '../../src/modules/target/application/ports/target.repository';
import { TargetTransitions } from '../../src/modules/target/application/ports/target-transitions';
import { InMemoryTargetEventLog } from '../../src/testing/in-memory-target-event-log';
import { InMemoryTargetRepository } from '../../src/testing/in-memory-target.repository';
import { InMemoryTargetTransitions } from '../../src/testing/in-memory-target-transitions';
import { InMemoryUnitOfWork } from '../../src/testing/in-memory-unit-of-work';
import { createTestApp, TestApp } from '../support/test-app';
import { targetEventLogContract } from './target-event-log.contract';

targetEventLogContract('in-memory fake', () => {
  const events = new InMemoryTargetEventLog();
  const repository = new InMemoryTargetRepository(events);
  return {
    events,
    repository,
    transitions: new InMemoryTargetTransitions(() => repository.table()),
    unitOfWork: new InMemoryUnitOfWork(repository),
    tenant: async () => ({ organizationId: randomUUID(), campaignId: randomUUID() }),
  };
});

describe('with a database', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await createTestApp({ env: { ROLE: 'api' } });
  }, 120_000);
  afterAll(() => app?.close());

  targetEventLogContract('SQL adapter (triggers on targets)', () => ({
    events: app.app.get(TargetEventLog),
    repository: app.app.get(TargetRepository),
    transitions: app.app.get(TargetTransitions),
    unitOfWork: app.app.get(UnitOfWork),
    async tenant() {
      const { organizationId } = await app.createOrganization();
      const [row] = await app.sql<{ id: string }>(
        `INSERT INTO campaigns (organization_id, name, type, webhook_secret) VALUES ($1, 'c', 'patient', 'whsec_x') RETURNING id`,
        [organizationId],
      );
      return { organizationId, campaignId: row.id };
    },
  }));
});
