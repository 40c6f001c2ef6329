import { existsSync, readFileSync } from 'fs';
import { join } from 'path';
import { providedToken } from '../../src/common/adapters/adapter-binding.js';
import { DOMAIN_MODULES } from '../../src/campaign-calling.module.js';
import { DATABASE_ADAPTERS } from '../../src/database/database.module.js';
import { METRICS_ADAPTERS } from '../../src/metrics/metrics.module.js';
import * as root from '../../src/index.js';
import * as testing from '../../src/testing/index.js';

/**
 * Where each port's fake is held equal to its real adapter: every port whose adapter is SQL has a
 * contract suite in test/contracts. A port whose adapter talks to the outside (HTTP, the system clock,
 * the job queue's workers, encryption) is proved by the suite named here instead, against local
 * emulators or the real thing.
 */
const CONTRACTS: Record<string, string> = {
  Clock:
    'src/modules/calling/domain/calling-rules.spec.ts (FakeClock drives the rules) and every e2e on SystemClock',
  UnitOfWork:
    'test/contracts/* (every SQL suite runs in TypeOrmUnitOfWork, every fake suite in InMemoryUnitOfWork)',
  JobQueue: 'test/e2e/webhooks.e2e-spec.ts and test/e2e/pg-boss-upgrade.e2e-spec.ts (pg-boss)',
  ExclusiveRunner: 'test/e2e/concurrency.e2e-spec.ts (advisory locks)',
  Metrics: 'test/e2e/operations.e2e-spec.ts (/metrics)',
  OrganizationRepository: 'test/contracts/organization-repository.contract.ts',
  ApiKeyRevocations: 'test/contracts/api-key-revocations.contract.ts',
  BlacklistRepository: 'test/contracts/blacklist-repository.contract.ts',
  CompliancePolicyRepository: 'test/contracts/compliance.contract.ts',
  CallLedger: 'test/contracts/compliance.contract.ts',
  DecisionLog: 'test/contracts/compliance.contract.ts',
  DoNotCallRepository: 'test/contracts/do-not-call-repository.contract.ts',
  RecipientLocks: 'test/contracts/compliance.contract.ts',
  CampaignRepository: 'test/contracts/campaign-repository.contract.ts',
  TargetRepository: 'test/contracts/target-repository.contract.ts',
  TargetTransitions: 'test/contracts/target-transitions.contract.ts',
  TargetEventLog: 'test/contracts/target-event-log.contract.ts',
  TargetImportRepository: 'test/contracts/target-import-repository.contract.ts',
  CallLogRepository: 'test/contracts/call-log-repository.contract.ts',
  CallEventStore: 'test/contracts/calling-stores.contract.ts',
  PlacementRate: 'test/contracts/calling-stores.contract.ts',
  SimulatedCallStore: 'test/contracts/calling-stores.contract.ts',
  CallProviders: 'src/modules/calling/infrastructure/connection-call-providers.spec.ts',
  TargetStepData: 'test/contracts/target-step-data.contract.ts',
  WebhookDeliveryRepository: 'test/contracts/webhook-delivery-repository.contract.ts',
  TargetNotifications: 'test/contracts/webhook-delivery-repository.contract.ts',
  WebhookSender: 'test/e2e/webhooks.e2e-spec.ts and webhooks-ssrf.e2e-spec.ts (a local receiver)',
  ProviderConnectionRepository: 'test/contracts/provider-connection-repository.contract.ts',
  ProviderCallClients: 'test/e2e/provider-clients.e2e-spec.ts (against the provider emulators)',
  ProviderDestinations: 'test/e2e/provider-connections.e2e-spec.ts (private addresses refused)',
  SecretBox: 'src/modules/provider-connection/infrastructure/aes-gcm-secret-box.spec.ts',
  MessageRepository: 'test/contracts/message-repository.contract.ts',
  ProviderTextClients:
    'test/e2e/providers-twilio-messaging.e2e-spec.ts (against the Twilio Messaging emulator)',
};

const repo = join(import.meta.dirname, '..', '..');
const exportedTesting = Object.values(testing).filter((v) => typeof v === 'function');

describe('the ports the package exports', () => {
  const bound = new Set(
    [...DATABASE_ADAPTERS, ...METRICS_ADAPTERS, ...DOMAIN_MODULES.flatMap((d) => d.adapters)].map(
      providedToken,
    ),
  );

  it('are exactly the ones the root module binds, each exported from the root by its name', () => {
    expect(new Set(root.PORTS)).toEqual(bound);
    for (const port of root.PORTS) expect((root as Record<string, unknown>)[port.name]).toBe(port);
  });

  // What the testing module runs on: a fake exported from ./testing for every port it binds.
  const fakes = new Map(testing.inMemoryAdapters(new testing.FakeClock()));

  it.each(root.PORTS.map((p) => [p.name, p] as const))('%s has a fake in ./testing', (_, port) => {
    const bound = fakes.get(port) as { useValue?: object } | undefined;
    const fake = bound?.useValue?.constructor;
    const candidates = fake
      ? [fake]
      : exportedTesting.filter((v) => (v as { prototype?: object }).prototype instanceof port);
    expect(candidates.length).toBeGreaterThan(0);
    for (const c of candidates) expect(exportedTesting).toContain(c);
  });

  it.each(root.PORTS.map((p) => [p.name] as const))(
    '%s has a suite holding its fake to its adapter',
    (name) => {
      const where = CONTRACTS[name];
      expect(where).toBeDefined();
      const file = where.split(' ')[0];
      const path = file.endsWith('*') ? join(repo, 'test/contracts') : join(repo, file);
      expect(existsSync(path)).toBe(true);
      // A suite file of its own must name the port (a folder of suites is checked by the line above).
      const ownFile = file.startsWith('test/contracts/') && !file.endsWith('*');
      expect(ownFile ? readFileSync(path, 'utf8') : name).toContain(name);
    },
  );
});
