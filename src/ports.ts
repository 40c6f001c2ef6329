import { Clock } from './common/clock/clock.js';
import { JobQueue } from './common/jobs/job-queue.js';
import { Metrics } from './common/metrics/metrics.js';
import { ExclusiveRunner } from './common/persistence/exclusive-runner.js';
import { UnitOfWork } from './common/persistence/unit-of-work.js';
import { BlacklistRepository } from './modules/blacklist/application/ports/blacklist.repository.js';
import { AuditEventStore } from './modules/audit/application/ports/audit-event.store.js';
import { CallLogRepository } from './modules/call-log/application/ports/call-log.repository.js';
import { CallEventStore } from './modules/calling/application/ports/call-event.store.js';
import { PlacementRate } from './modules/calling/application/ports/placement-rate.js';
import { SimulatedCallStore } from './modules/calling/application/ports/simulated-call.store.js';
import { CallProviders } from './modules/telephony/application/ports/call-provider.js';
import { CampaignRepository } from './modules/campaign/application/ports/campaign.repository.js';
import { CallLedger } from './modules/compliance/application/ports/call-ledger.js';
import { CompliancePolicyRepository } from './modules/compliance/application/ports/compliance-policy.repository.js';
import { DecisionLog } from './modules/compliance/application/ports/decision-log.js';
import { DoNotCallRepository } from './modules/compliance/application/ports/do-not-call.repository.js';
import { RecipientLocks } from './modules/compliance/application/ports/recipient-locks.js';
import { ApiKeyRevocations } from './modules/organization/application/ports/api-key-revocations.js';
import { OrganizationRepository } from './modules/organization/application/ports/organization.repository.js';
import { SessionStore } from './modules/organization/application/ports/session.store.js';
import { IdentityProvider } from './modules/organization/application/ports/identity-provider.js';
import { UserRepository } from './modules/organization/application/ports/user.repository.js';
import { ProviderCallClients } from './modules/provider-connection/application/ports/provider-call-clients.js';
import { ProviderConnectionRepository } from './modules/provider-connection/application/ports/provider-connection.repository.js';
import { ProviderDestinations } from './modules/provider-connection/application/ports/provider-destinations.js';
import { SecretBox } from './common/secrets/secret-box.js';
import { TargetStepData } from './modules/target/application/ports/target-step-data.js';
import { TargetEventLog } from './modules/target/application/ports/target-event-log.js';
import { TargetImportRepository } from './modules/target/application/ports/target-import.repository.js';
import { TargetTransitions } from './modules/target/application/ports/target-transitions.js';
import { TargetRepository } from './modules/target/application/ports/target.repository.js';
import { TargetNotifications } from './modules/webhook/application/ports/target-notifications.js';
import { WebhookDeliveryRepository } from './modules/webhook/application/ports/webhook-delivery.repository.js';
import { WebhookSender } from './modules/webhook/application/ports/webhook-sender.js';
import { MessageRepository } from './modules/messaging/application/ports/message.repository.js';
import { ProviderTextClients } from './modules/provider-connection/application/ports/provider-text-clients.js';
import {
  CallLogData,
  ComplianceData,
  MessageData,
  TargetData,
  WebhookData,
} from './modules/retention/application/ports/patient-data-holders.js';
import { Redactor } from './modules/retention/application/ports/redactor.js';
import { RetentionStore } from './modules/retention/application/ports/retention.store.js';
import { RetentionCampaigns } from './modules/retention/application/ports/retention-campaigns.js';

/**
 * The ports the root module binds to adapters (outbound I/O: the database, the queue, the clock,
 * HTTP senders), each replaceable through `forRoot({ adapters })` or `overrideProvider`. Every one
 * has a fake in `campaign-calling-service/testing` (test/unit/app-on-fakes.spec.ts holds that to be so).
 */
export const PORTS = [
  Clock,
  UnitOfWork,
  JobQueue,
  ExclusiveRunner,
  Metrics,
  OrganizationRepository,
  ApiKeyRevocations,
  UserRepository,
  SessionStore,
  IdentityProvider,
  BlacklistRepository,
  AuditEventStore,
  CompliancePolicyRepository,
  CallLedger,
  DecisionLog,
  DoNotCallRepository,
  RecipientLocks,
  CampaignRepository,
  TargetRepository,
  TargetTransitions,
  TargetEventLog,
  TargetImportRepository,
  CallLogRepository,
  CallEventStore,
  PlacementRate,
  SimulatedCallStore,
  CallProviders,
  TargetStepData,
  WebhookDeliveryRepository,
  TargetNotifications,
  WebhookSender,
  ProviderConnectionRepository,
  ProviderCallClients,
  ProviderDestinations,
  SecretBox,
  MessageRepository,
  ProviderTextClients,
  RetentionStore,
  RetentionCampaigns,
  Redactor,
  TargetData,
  CallLogData,
  MessageData,
  WebhookData,
  ComplianceData,
] as const;
