import { randomUUID } from 'crypto';
import { UnitOfWork } from '../../src/common/persistence/unit-of-work.js';
import { TargetImportRepository } from '../../src/modules/target/application/ports/target-import.repository.js';
import { TargetRepository } from '../../src/modules/target/application/ports/target.repository.js';
import { InMemoryTargetImportRepository } from '../../src/testing/in-memory-target-import.repository.js';
import { InMemoryTargetRepository } from '../../src/testing/in-memory-target.repository.js';
import { InMemoryUnitOfWork } from '../../src/testing/in-memory-unit-of-work.js';
import { createTestApp, TestApp } from '../support/test-app.js';
import { targetImportRepositoryContract } from './target-import-repository.contract.js';

targetImportRepositoryContract('in-memory fake', () => {
  const targets = new InMemoryTargetRepository();
  const imports = new InMemoryTargetImportRepository(targets);
  return {
    imports,
    targets,
    unitOfWork: new InMemoryUnitOfWork(targets, imports),
    tenant: async () => ({ organizationId: randomUUID(), campaignId: randomUUID() }),
  };
});

describe('with a database', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await createTestApp({ env: { ROLE: 'api' } });
  }, 120_000);
  afterAll(() => app?.close());

  targetImportRepositoryContract('SQL adapter', () => ({
    imports: app.app.get(TargetImportRepository),
    targets: app.app.get(TargetRepository),
    unitOfWork: app.app.get(UnitOfWork),
    async tenant() {
      const { organizationId } = await app.createOrganization();
      const [{ id }] = await app.sql<{ id: string }>(
        `INSERT INTO campaigns (organization_id, name, type, webhook_secret) VALUES ($1, 'c', 'patient', 'whsec_x') RETURNING id`,
        [organizationId],
      );
      return { organizationId, campaignId: id };
    },
  }));
});
