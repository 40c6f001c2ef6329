import { randomUUID } from 'crypto';
import { UnitOfWork } from '../../src/common/persistence/unit-of-work.js';
import { TargetTransitions } from '../../src/modules/target/application/ports/target-transitions.js';
import {
  InMemoryTargetRepository,
  targetKey,
} from '../../src/testing/in-memory-target.repository.js';
import { InMemoryTargetTransitions } from '../../src/testing/in-memory-target-transitions.js';
import { InMemoryUnitOfWork } from '../../src/testing/in-memory-unit-of-work.js';
import { aTarget } from '../../src/testing/test-data.js';
import { createTestApp, TestApp } from '../support/test-app.js';
import { targetTransitionsContract } from './target-transitions.contract.js';

targetTransitionsContract('in-memory fake', () => {
  const transitions = new InMemoryTargetTransitions();
  return {
    transitions,
    uow: new InMemoryUnitOfWork(transitions),
    scope: async () => ({
      mine: { organizationId: randomUUID(), campaignId: randomUUID() },
      foreign: { organizationId: randomUUID(), campaignId: randomUUID() },
    }),
    seed: async (scope, targets) =>
      transitions.put(...targets.map((t) => aTarget({ ...scope, ...t }))),
  };
});

// The same rules when the transitions fake works on the target repository fake's rows (one table).
targetTransitionsContract('in-memory fake over InMemoryTargetRepository', () => {
  const repository = new InMemoryTargetRepository();
  const transitions = new InMemoryTargetTransitions(() => repository.table());
  return {
    transitions,
    uow: new InMemoryUnitOfWork(repository),
    scope: async () => ({
      mine: { organizationId: randomUUID(), campaignId: randomUUID() },
      foreign: { organizationId: randomUUID(), campaignId: randomUUID() },
    }),
    seed: async (scope, targets) =>
      targets.forEach((t) =>
        repository.table().set(targetKey(scope.organizationId, t.id), aTarget({ ...scope, ...t })),
      ),
  };
});

describe('with a database', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await createTestApp({ env: { ROLE: 'api' } });
  }, 120_000);
  afterAll(() => app?.close());

  targetTransitionsContract('SQL adapter', () => {
    const campaignOf = async (organizationId: string) => {
      const [row] = await app.sql<{ id: string }>(
        `INSERT INTO campaigns (organization_id, name, type, webhook_secret) VALUES ($1, 'c', 'patient', 'whsec_x') RETURNING id`,
        [organizationId],
      );
      return { organizationId, campaignId: row.id };
    };
    return {
      transitions: app.app.get(TargetTransitions),
      uow: app.app.get(UnitOfWork),
      async scope() {
        const a = await app.createOrganization();
        const b = await app.createOrganization();
        return {
          mine: await campaignOf(a.organizationId),
          foreign: await campaignOf(b.organizationId),
        };
      },
      async seed(scope, targets) {
        for (const t of targets.map((x) => aTarget({ ...scope, ...x }))) {
          await app.sql(
            `INSERT INTO targets (id, organization_id, campaign_id, input_data, output_data, status,
               current_step, attempts, call_log_ids, scheduled_time, execution_seconds, category,
               resolution, outcome)
             VALUES ($1, $2, $3, '{}', '{}', $4, $5, $6, $7, $8, $9, $10, $11, $12)`,
            [
              t.id,
              t.organizationId,
              t.campaignId,
              t.status,
              t.currentStep,
              t.attempts,
              t.callLogIds,
              t.scheduledTime,
              t.executionSeconds,
              t.category,
              t.resolution,
              t.outcome,
            ],
          );
        }
      },
    };
  });
});
