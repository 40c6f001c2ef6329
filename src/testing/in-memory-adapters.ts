import { Clock } from '../common/clock/clock.js';
import { JobQueue } from '../common/jobs/job-queue.js';
import { Metrics } from '../common/metrics/metrics.js';
import { ExclusiveRunner } from '../common/persistence/exclusive-runner.js';
import { UnitOfWork } from '../common/persistence/unit-of-work.js';
import type { AdapterBinding } from '../common/adapters/adapter-binding.js';
import { BlacklistRepository } from '../modules/blacklist/application/ports/blacklist.repository.js';
import { AuditEventStore } from '../modules/audit/application/ports/audit-event.store.js';
import { InMemoryAuditEventStore } from './in-memory-audit-event.store.js';
import { CallLogRepository } from '../modules/call-log/application/ports/call-log.repository.js';
import { CallEventStore } from '../modules/calling/application/ports/call-event.store.js';
import { PlacementRate } from '../modules/calling/application/ports/placement-rate.js';
import { SimulatedCallStore } from '../modules/calling/application/ports/simulated-call.store.js';
import { CampaignRepository } from '../modules/campaign/application/ports/campaign.repository.js';
import { CallLedger } from '../modules/compliance/application/ports/call-ledger.js';
import { CompliancePolicyRepository } from '../modules/compliance/application/ports/compliance-policy.repository.js';
import { DecisionLog } from '../modules/compliance/application/ports/decision-log.js';
import { DoNotCallRepository } from '../modules/compliance/application/ports/do-not-call.repository.js';
import { RecipientLocks } from '../modules/compliance/application/ports/recipient-locks.js';
import { ApiKeyRevocations } from '../modules/organization/application/ports/api-key-revocations.js';
import { OrganizationRepository } from '../modules/organization/application/ports/organization.repository.js';
import { ProviderCallClients } from '../modules/provider-connection/application/ports/provider-call-clients.js';
import { ProviderConnectionRepository } from '../modules/provider-connection/application/ports/provider-connection.repository.js';
import { ProviderDestinations } from '../modules/provider-connection/application/ports/provider-destinations.js';
import { SecretBox } from '../common/secrets/secret-box.js';
import { TargetStepData } from '../modules/target/application/ports/target-step-data.js';
import { TargetEventLog } from '../modules/target/application/ports/target-event-log.js';
import { TargetImportRepository } from '../modules/target/application/ports/target-import.repository.js';
import { TargetTransitions } from '../modules/target/application/ports/target-transitions.js';
import { TargetRepository } from '../modules/target/application/ports/target.repository.js';
import { TargetNotifications } from '../modules/webhook/application/ports/target-notifications.js';
import { WebhookDeliveryRepository } from '../modules/webhook/application/ports/webhook-delivery.repository.js';
import { WebhookSender } from '../modules/webhook/application/ports/webhook-sender.js';
import { MessageRepository } from '../modules/messaging/application/ports/message.repository.js';
import { ProviderTextClients } from '../modules/provider-connection/application/ports/provider-text-clients.js';
import { InMemoryMessageRepository } from './in-memory-message.repository.js';
import { InMemoryCallEventStore, InMemoryPlacementRate } from './calling-fakes.js';
import { InMemoryApiKeyRevocations } from './in-memory-api-key-revocations.js';
import { InMemoryBlacklistRepository } from './in-memory-blacklist.repository.js';
import { InMemoryCallLogRepository } from './in-memory-call-log.repository.js';
import { InMemoryCampaignRepository } from './in-memory-campaign.repository.js';
import {
  InMemoryCallLedger,
  InMemoryCompliancePolicyRepository,
  InMemoryDecisionLog,
} from './in-memory-compliance.js';
import { InMemoryDoNotCallRepository } from './in-memory-do-not-call.repository.js';
import { InMemoryOrganizationRepository } from './in-memory-organization.repository.js';
import {
  InMemoryPeople,
  InMemorySessionStore,
  InMemoryUserRepository,
} from './in-memory-people.js';
import { SessionStore } from '../modules/organization/application/ports/session.store.js';
import { IdentityProvider } from '../modules/organization/application/ports/identity-provider.js';
import { NoIdentityProvider } from './no-identity-provider.js';
import { UserRepository } from '../modules/organization/application/ports/user.repository.js';
import { InMemoryProviderConnectionRepository } from './in-memory-provider-connection.repository.js';
import { InMemoryRecipientLocks } from './in-memory-recipient-locks.js';
import { InMemorySimulatedCallStore } from './in-memory-simulated-call.store.js';
import { InMemoryTargetStepData } from './in-memory-target-step-data.js';
import { InMemoryTargetEventLog } from './in-memory-target-event-log.js';
import { InMemoryTargetImportRepository } from './in-memory-target-import.repository.js';
import { InMemoryTargetTransitions } from './in-memory-target-transitions.js';
import { InMemoryTargetRepository } from './in-memory-target.repository.js';
import { InMemoryUnitOfWork } from './in-memory-unit-of-work.js';
import { InMemoryWebhookDeliveryRepository } from './in-memory-webhook-delivery.repository.js';
import { InProcessExclusiveRunner } from './in-process-exclusive-runner.js';
import { RecordingJobQueue } from './recording-job-queue.js';
import { RecordingMetrics } from './recording-metrics.js';
import { RecordingWebhookSender } from './recording-webhook-sender.js';
import {
  ListedProviderDestinations,
  PlainSecretBox,
  ScriptedProviderCallClients,
  ScriptedProviderTextClients,
} from './provider-fakes.js';

import {
  CallLogData,
  ComplianceData,
  MessageData,
  TargetData,
  WebhookData,
} from '../modules/retention/application/ports/patient-data-holders.js';
import { Redactor } from '../modules/retention/application/ports/redactor.js';
import { RetentionStore } from '../modules/retention/application/ports/retention.store.js';
import { RetentionCampaigns } from '../modules/retention/application/ports/retention-campaigns.js';
import { CampaignOwnership } from '../modules/campaign/application/campaign-ownership.js';
import { PatternRedactor } from '../modules/retention/infrastructure/pattern-redactor.js';
import { InMemoryRetentionStore, InMemoryTargetData } from './in-memory-retention.js';
import {
  InMemoryCallLogData,
  InMemoryComplianceData,
  InMemoryMessageData,
  InMemoryWebhookData,
} from './in-memory-patient-data.js';
/**
 * One connected set of in-memory fakes for every port the root module binds: the target fakes share
 * one table (as the SQL adapters share `targets`), the unit of work rolls the stateful ones back
 * together. What `CampaignCallingTestingModule` runs on.
 */
export function inMemoryAdapters(clock: Clock): AdapterBinding[] {
  const events = new InMemoryTargetEventLog();
  const targets = new InMemoryTargetRepository(events);
  const transitions = new InMemoryTargetTransitions(() => targets.table());
  const steps = new InMemoryTargetStepData(events, () => targets.table());
  const imports = new InMemoryTargetImportRepository(targets);
  const campaigns = new InMemoryCampaignRepository();
  const webhooks = new InMemoryWebhookDeliveryRepository(campaigns);
  const callLogs = new InMemoryCallLogRepository();
  const callEvents = new InMemoryCallEventStore();
  const ledger = new InMemoryCallLedger();
  const decisions = new InMemoryDecisionLog();
  const doNotCall = new InMemoryDoNotCallRepository();
  const messages = new InMemoryMessageRepository();
  const retention = new InMemoryRetentionStore();
  const people = new InMemoryPeople();
  const uow = new InMemoryUnitOfWork(
    targets,
    events,
    steps,
    imports,
    callLogs,
    callEvents,
    ledger,
    decisions,
    doNotCall,
    messages,
  );
  const value = <T>(useValue: T) => ({ useValue });
  return [
    [Clock, value(clock)],
    [UnitOfWork, value(uow)],
    [JobQueue, value(new RecordingJobQueue())],
    [ExclusiveRunner, value(new InProcessExclusiveRunner())],
    [Metrics, value(new RecordingMetrics())],
    [OrganizationRepository, value(new InMemoryOrganizationRepository())],
    [UserRepository, value(new InMemoryUserRepository(people))],
    [SessionStore, value(new InMemorySessionStore(people))],
    [IdentityProvider, value(new NoIdentityProvider())],
    [ApiKeyRevocations, value(new InMemoryApiKeyRevocations())],
    [BlacklistRepository, value(new InMemoryBlacklistRepository())],
    [AuditEventStore, value(new InMemoryAuditEventStore())],
    [CompliancePolicyRepository, value(new InMemoryCompliancePolicyRepository())],
    [CallLedger, value(ledger)],
    [DecisionLog, value(decisions)],
    [DoNotCallRepository, value(doNotCall)],
    [RecipientLocks, value(new InMemoryRecipientLocks(uow))],
    [CampaignRepository, value(campaigns)],
    [TargetRepository, value(targets)],
    [TargetTransitions, value(transitions)],
    [TargetEventLog, value(events)],
    [TargetImportRepository, value(imports)],
    [CallLogRepository, value(callLogs)],
    [CallEventStore, value(callEvents)],
    [PlacementRate, value(new InMemoryPlacementRate())],
    [SimulatedCallStore, value(new InMemorySimulatedCallStore())],
    [TargetStepData, value(steps)],
    [WebhookDeliveryRepository, value(webhooks)],
    [TargetNotifications, value(webhooks)],
    [WebhookSender, value(new RecordingWebhookSender())],
    [ProviderConnectionRepository, value(new InMemoryProviderConnectionRepository())],
    [ProviderCallClients, value(new ScriptedProviderCallClients())],
    [ProviderDestinations, value(new ListedProviderDestinations())],
    [SecretBox, value(new PlainSecretBox())],
    [MessageRepository, value(messages)],
    [ProviderTextClients, value(new ScriptedProviderTextClients())],
    [RetentionStore, value(retention)],
    [RetentionCampaigns, value(new CampaignOwnership(campaigns))],
    [TargetData, value(new InMemoryTargetData(() => targets.table()))],
    [CallLogData, value(new InMemoryCallLogData(callLogs))],
    [MessageData, value(new InMemoryMessageData(messages))],
    [WebhookData, value(new InMemoryWebhookData(webhooks))],
    [ComplianceData, value(new InMemoryComplianceData(doNotCall, decisions))],
    [Redactor, value(new PatternRedactor())],
  ];
}
