import { randomUUID } from 'crypto';
import { UnitOfWork } from '../../src/common/persistence/unit-of-work.js';
import { TargetRepository } from '../../src/modules/target/application/ports/target.repository.js';
import { InMemoryTargetRepository } from '../../src/testing/in-memory-target.repository.js';
import { createTestApp, TestApp } from '../support/test-app.js';
import { targetRepositoryContract, TargetState } from './target-repository.contract.js';
import { InMemoryUnitOfWork } from '../../src/testing/in-memory-unit-of-work.js';

targetRepositoryContract('in-memory fake', () => {
  const repository = new InMemoryTargetRepository();
  return {
    repository,
    unitOfWork: new InMemoryUnitOfWork(repository),
    tenant: async () => ({
      organizationId: randomUUID(),
      campaignId: randomUUID(),
      otherCampaignId: randomUUID(),
    }),
    setState: async (id: string, state: TargetState) => repository.setState(id, state),
  };
});

describe('with a database', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await createTestApp();
  }, 120_000);
  afterAll(() => app?.close());

  targetRepositoryContract('TypeORM adapter', () => ({
    repository: app.app.get(TargetRepository),
    unitOfWork: app.app.get(UnitOfWork),
    async tenant() {
      const { organizationId } = await app.createOrganization();
      const campaign = () =>
        app
          .sql<{ id: string }>(
            `INSERT INTO campaigns (organization_id, name, type, webhook_secret) VALUES ($1, 'c', 'patient', 'whsec_x') RETURNING id`,
            [organizationId],
          )
          .then((rows) => rows[0].id);
      return { organizationId, campaignId: await campaign(), otherCampaignId: await campaign() };
    },
    async setState(id: string, state: TargetState) {
      const columns: Record<keyof TargetState, string> = {
        status: 'status',
        attempts: 'attempts',
        callLogIds: 'call_log_ids',
        lastCallDate: 'last_call_date',
        createdAt: 'created_at',
      };
      const entries = Object.entries(state) as [keyof TargetState, unknown][];
      if (entries.length === 0) return;
      const set = entries.map(([key], i) => `${columns[key]} = $${i + 2}`).join(', ');
      await app.sql(`UPDATE targets SET ${set} WHERE id = $1`, [id, ...entries.map(([, v]) => v)]);
    },
  }));
});
