import { randomUUID } from 'crypto';
import { UnitOfWork } from '../../src/common/persistence/unit-of-work.js';
import { TargetEventLog } from '../../src/modules/target/application/ports/target-event-log.js';
import { TargetRepository } from '../../src/modules/target/application/ports/target.repository.js';
import { TargetTransitions } from '../../src/modules/target/application/ports/target-transitions.js';
import { InMemoryTargetEventLog } from '../../src/testing/in-memory-target-event-log.js';
import { InMemoryTargetRepository } from '../../src/testing/in-memory-target.repository.js';
import { InMemoryTargetTransitions } from '../../src/testing/in-memory-target-transitions.js';
import { InMemoryUnitOfWork } from '../../src/testing/in-memory-unit-of-work.js';
import { createTestApp, TestApp } from '../support/test-app.js';
import { targetEventLogContract } from './target-event-log.contract.js';

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

  // PL/pgSQL keeps a trigger statement's plan per connection, sized by the first transition table it
  // saw; JIT on such a plan recompiled every later 50-row statement for seconds (migration
  // 1768830000000). Any statement trigger added later on these tables must opt out the same way.
  it('every statement trigger function on targets and call_logs runs without JIT', async () => {
    const rows = await app.sql<{ table: string; fn: string; config: string[] | null }>(
      `SELECT DISTINCT c.relname AS table, p.proname AS fn, p.proconfig AS config
         FROM pg_trigger t
         JOIN pg_class c ON c.oid = t.tgrelid
         JOIN pg_proc p ON p.oid = t.tgfoid
        WHERE NOT t.tgisinternal AND c.relname IN ('targets', 'call_logs')
        ORDER BY 1, 2`,
    );
    expect(rows.map((r) => r.table)).toEqual(expect.arrayContaining(['targets', 'call_logs']));
    expect(rows.filter((r) => !(r.config ?? []).includes('jit=off'))).toEqual([]);
  });

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
