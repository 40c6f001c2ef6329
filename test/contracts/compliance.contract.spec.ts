import { UnitOfWork } from '../../src/common/persistence/unit-of-work.js';
import { CallLedger } from '../../src/modules/compliance/application/ports/call-ledger.js';
import { CompliancePolicyRepository } from '../../src/modules/compliance/application/ports/compliance-policy.repository.js';
import { DecisionLog } from '../../src/modules/compliance/application/ports/decision-log.js';
import { RecipientLocks } from '../../src/modules/compliance/application/ports/recipient-locks.js';
import {
  InMemoryCallLedger,
  InMemoryCompliancePolicyRepository,
  InMemoryDecisionLog,
} from '../../src/testing/in-memory-compliance.js';
import { InMemoryRecipientLocks } from '../../src/testing/in-memory-recipient-locks.js';
import { InMemoryUnitOfWork } from '../../src/testing/in-memory-unit-of-work.js';
import { createTestApp } from '../support/test-app.js';
import { usesPglite } from '../support/test-database.js';
import { complianceContract } from './compliance.contract.js';

complianceContract('in memory', async () => {
  let n = 0;
  const ledger = new InMemoryCallLedger();
  const decisions = new InMemoryDecisionLog();
  const uow = new InMemoryUnitOfWork(ledger, decisions);
  return {
    policies: new InMemoryCompliancePolicyRepository(),
    ledger,
    decisions,
    locks: new InMemoryRecipientLocks(uow),
    uow,
    concurrentTransactions: true,
    organization: async () => `00000000-0000-4000-8000-${String(++n).padStart(12, '0')}`,
    async close() {},
  };
});

complianceContract('SQL', async () => {
  const t = await createTestApp({ env: { ROLE: 'api' } });
  return {
    policies: t.app.get(CompliancePolicyRepository),
    ledger: t.app.get(CallLedger),
    decisions: t.app.get(DecisionLog),
    locks: t.app.get(RecipientLocks),
    uow: t.app.get(UnitOfWork),
    concurrentTransactions: !usesPglite(),
    organization: async () => (await t.createOrganization()).organizationId,
    close: () => t.close(),
  };
});
