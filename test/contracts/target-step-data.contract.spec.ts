import { UnitOfWork } from '../../src/common/persistence/unit-of-work.js';
import {
  TargetStepData,
  StepScope,
} from '../../src/modules/target/application/ports/target-step-data.js';
import { TargetTransitions } from '../../src/modules/target/application/ports/target-transitions.js';
import { InMemoryTargetStepData } from '../../src/testing/in-memory-target-step-data.js';
import { aTarget } from '../../src/testing/test-data.js';
import { createTestApp } from '../support/test-app.js';
import { SeedTarget, targetStepDataContract } from './target-step-data.contract.js';
import { InMemoryUnitOfWork } from '../../src/testing/in-memory-unit-of-work.js';

targetStepDataContract('in memory', async () => {
  const repository = new InMemoryTargetStepData();
  const scope = (org: string, campaign: string): StepScope => ({
    organizationId: org,
    campaignId: campaign,
  });
  const orgA = '00000000-0000-4000-8000-0000000aaaa1';
  const orgB = '00000000-0000-4000-8000-0000000aaaa2';
  return {
    repository,
    uow: new InMemoryUnitOfWork(repository),
    scope: scope(orgA, '00000000-0000-4000-8000-0000000cccc1'),
    otherCampaign: scope(orgA, '00000000-0000-4000-8000-0000000cccc2'),
    otherOrganization: scope(orgB, '00000000-0000-4000-8000-0000000cccc3'),
    async seed(s: StepScope, targets: SeedTarget[]) {
      repository.put(...targets.map((t) => aTarget({ ...s, ...t })));
    },
    findTarget: async (id: string, organizationId?: string) =>
      repository.find(id, organizationId) ?? null,
    async close() {},
  };
});

targetStepDataContract('TypeORM (SQL)', async () => {
  const t = await createTestApp();
  const campaignOf = async (organizationId: string): Promise<StepScope> => {
    const [row] = await t.sql(
      `INSERT INTO campaigns (organization_id, name, type, webhook_secret) VALUES ($1, 'c', 'patient', 'whsec_x')
       RETURNING id`,
      [organizationId],
    );
    return { organizationId, campaignId: row.id };
  };
  const a = await t.createOrganization();
  const b = await t.createOrganization();
  return {
    repository: t.app.get(TargetStepData),
    uow: t.app.get(UnitOfWork),
    scope: await campaignOf(a.organizationId),
    otherCampaign: await campaignOf(a.organizationId),
    otherOrganization: await campaignOf(b.organizationId),
    async seed(s: StepScope, targets: SeedTarget[]) {
      for (const target of targets) {
        await t.sql(
          `INSERT INTO targets (id, organization_id, campaign_id, external_id, input_data, status, current_step,
             pre_call_ehr_ids)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
          [
            target.id,
            s.organizationId,
            s.campaignId,
            target.externalId ?? null,
            JSON.stringify(target.inputData ?? {}),
            target.status ?? 'Pending',
            target.currentStep ?? null,
            target.preCallEhrIds ? JSON.stringify(target.preCallEhrIds) : null,
          ],
        );
      }
    },
    findTarget: async (id: string, organizationId?: string) => {
      // Without an organization: the one target of that id (the suite's ids are fresh).
      const [row] = organizationId
        ? [{ organization_id: organizationId }]
        : await t.sql(`SELECT organization_id FROM targets WHERE id = $1`, [id]);
      return row ? t.app.get(TargetTransitions).findById(null, row.organization_id, id) : null;
    },
    close: () => t.close(),
  };
});
