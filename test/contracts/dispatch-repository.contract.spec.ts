import { randomUUID } from 'crypto';
import { UnitOfWork } from '../../src/common/persistence/unit-of-work';
import { DispatchRepository } from '../../src/modules/calling/application/ports/dispatch.repository';
import { Target } from '../../src/modules/target/domain/target';
import { InMemoryUnitOfWork } from '../../src/testing/in-memory-unit-of-work';
import { InMemoryDispatchRepository } from '../../src/testing/in-memory-dispatch.repository';
import { createTestApp, TestApp } from '../support/test-app';
import { dispatchRepositoryContract } from './dispatch-repository.contract';

const memory = new InMemoryDispatchRepository();
dispatchRepositoryContract('in memory', () => ({
  repository: memory,
  uow: new InMemoryUnitOfWork(),
  newCampaign: async () => ({
    organizationId: randomUUID(),
    campaignId: randomUUID(),
    seed: async (targets: Target[]) => memory.put(...targets),
  }),
}));

describe('TypeORM adapter', () => {
  let t: TestApp;
  const ctx: { repository?: DispatchRepository; uow?: UnitOfWork } = {};

  beforeAll(async () => {
    t = await createTestApp({ env: { ROLE: 'api' } });
    ctx.repository = t.app.get(DispatchRepository, { strict: false });
    ctx.uow = t.app.get(UnitOfWork, { strict: false });
  });
  afterAll(async () => {
    await t?.close();
  });

  dispatchRepositoryContract('TypeORM', () => ({
    repository: ctx.repository!,
    uow: ctx.uow!,
    newCampaign: async () => {
      const { organizationId, apiKey } = await t.createOrganization();
      const campaign = await t.createCampaign(apiKey);
      return {
        organizationId,
        campaignId: campaign.id,
        seed: async (targets: Target[]) => {
          for (const x of targets) {
            await t.sql(
              `INSERT INTO targets (id, organization_id, campaign_id, phone_number, input_data, output_data, status,
                                    attempts, scheduled_time, execution_seconds, call_log_ids, created_at, updated_at)
               VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $12)`,
              [
                x.id,
                x.organizationId,
                x.campaignId,
                x.phoneNumber,
                JSON.stringify(x.inputData),
                JSON.stringify(x.outputData),
                x.status,
                x.attempts,
                x.scheduledTime,
                x.executionSeconds,
                x.callLogIds,
                x.createdAt,
              ],
            );
          }
        },
      };
    },
  }));
});
