/**
 * The package's public API (`campaign-calling-service`): what is exported here follows semver
 * (docs/extending.md); anything reached by another path may change in any release.
 */
import 'reflect-metadata';

// The service as one module, and its options.
export {
  CampaignCallingModule,
  type CampaignCallingOptions,
  DOMAIN_MODULES,
} from './campaign-calling.module.js';
export type { Extension, ExtensionOptions } from './extensions.js';
export type { Adapter, AdapterBinding, Port } from './common/adapters/adapter-binding.js';
export { AppConfig, ConfigError, loadConfig } from './config/app-config.js';
export { configureApp } from './app.setup.js';
export { startService, type RunningService, type ServiceOptions } from './bootstrap.js';
/**
 * A route's caller (`@Auth() auth: AuthContext`): the organization its API key belongs to, the key's
 * role and the campaigns it is limited to. Every route declares the permission it needs
 * (`@RequiresPermission`) or is `@Public()`; see docs/access.md.
 */
export {
  Auth,
  type AuthContext,
  CampaignScope,
  Public,
  RequiresPermission,
} from './common/http/auth.decorators.js';
export { reachesCampaign, type Principal } from './common/auth/auth-context.js';
export {
  mayDo,
  type Permission,
  PERMISSIONS,
  type Role,
  ROLE_PERMISSIONS,
  ROLES,
} from './common/auth/access.js';

// The domain modules, each importable alone with the ports it uses bound (docs/extending.md).
export { BlacklistModule } from './modules/blacklist/blacklist.module.js';
export { CallLogModule } from './modules/call-log/call-log.module.js';
export { CallingModule } from './modules/calling/calling.module.js';
export { CampaignModule } from './modules/campaign/campaign.module.js';
export { ComplianceModule } from './modules/compliance/compliance.module.js';
export { OrganizationModule } from './modules/organization/organization.module.js';
export { ProviderConnectionModule } from './modules/provider-connection/provider-connection.module.js';
export { StepModule } from './modules/step/step.module.js';
export { TargetModule } from './modules/target/target.module.js';
export { WebhookModule } from './modules/webhook/webhook.module.js';
export { MessagingModule } from './modules/messaging/messaging.module.js';
export { RetentionModule } from './modules/retention/retention.module.js';

// The services the modules export, for a team's own routes and jobs.
export { BlacklistService } from './modules/blacklist/application/blacklist.service.js';
export { CallLogService } from './modules/call-log/application/call-log.service.js';
export { CampaignService } from './modules/campaign/application/campaign.service.js';
export { ComplianceService } from './modules/compliance/application/compliance.service.js';
export { DoNotCallService } from './modules/compliance/application/do-not-call.service.js';
export { OrganizationService } from './modules/organization/application/organization.service.js';
export { ProviderConnectionService } from './modules/provider-connection/application/provider-connection.service.js';
export { StepService } from './modules/step/application/step.service.js';
export { TargetService } from './modules/target/application/target.service.js';
export { WebhookDeliveryService } from './modules/webhook/application/webhook-delivery.service.js';
export { MessagingService } from './modules/messaging/application/messaging.service.js';
export { AuditTrailService } from './modules/audit/application/audit-trail.service.js';
export { AUDIT_ACTIONS, type AuditAction } from './modules/audit/domain/audit-actions.js';
export type {
  AuditActor,
  AuditEvent,
  AuditEventInput,
  AuditOutcome,
  ChainVerification,
} from './modules/audit/domain/audit-event.js';
export { Audit, NotAudited, type AuditSpec } from './common/audit/audit.decorators.js';
export { RetentionService } from './modules/retention/application/retention.service.js';
export { RetentionPurge } from './modules/retention/application/retention-purge.js';
export { PatientRecordService } from './modules/retention/application/patient-record.service.js';
export { TranscriptRedactionService } from './modules/retention/application/transcript-redaction.service.js';

// Ports: each an abstract class that is its own injection token.
export { PORTS } from './ports.js';
export { Clock, SystemClock } from './common/clock/clock.js';
export { UnitOfWork, type Tx } from './common/persistence/unit-of-work.js';
export * from './common/jobs/job-queue.js';
export { ExclusiveRunner } from './common/persistence/exclusive-runner.js';
export { Metrics } from './common/metrics/metrics.js';
export { BlacklistRepository } from './modules/blacklist/application/ports/blacklist.repository.js';
export {
  AuditEventStore,
  type AuditEventQuery,
  type NewAuditEvent,
} from './modules/audit/application/ports/audit-event.store.js';
export { CallLogRepository } from './modules/call-log/application/ports/call-log.repository.js';
export { CallEventStore } from './modules/calling/application/ports/call-event.store.js';
export * from './modules/telephony/application/ports/call-provider.js';
export { PlacementRate } from './modules/calling/application/ports/placement-rate.js';
export * from './modules/calling/application/ports/simulated-call.store.js';
export * from './modules/calling/application/ports/pre-dial-check.js';
export * from './modules/target/application/ports/campaign-event-listener.js';
export { CampaignReader } from './modules/campaign/application/ports/campaign-reader.js';
export { CampaignStateChanges } from './modules/campaign/application/ports/campaign-state-changes.js';
export { CampaignRepository } from './modules/campaign/application/ports/campaign.repository.js';
export * from './modules/compliance/application/ports/call-ledger.js';
export { CompliancePolicyRepository } from './modules/compliance/application/ports/compliance-policy.repository.js';
export { DecisionLog } from './modules/compliance/application/ports/decision-log.js';
export { DoNotCallRepository } from './modules/compliance/application/ports/do-not-call.repository.js';
export { RecipientLocks } from './modules/compliance/application/ports/recipient-locks.js';
export { ApiKeyRevocations } from './modules/organization/application/ports/api-key-revocations.js';
export { OrganizationRepository } from './modules/organization/application/ports/organization.repository.js';
export { UserRepository } from './modules/organization/application/ports/user.repository.js';
export { SessionStore } from './modules/organization/application/ports/session.store.js';
export { IdentityProvider } from './modules/organization/application/ports/identity-provider.js';
export { ProviderCallClients } from './modules/provider-connection/application/ports/provider-call-clients.js';
export * from './modules/provider-connection/application/ports/voice-provider.js';
export { ProviderConnectionRepository } from './modules/provider-connection/application/ports/provider-connection.repository.js';
export { ProviderDestinations } from './modules/provider-connection/application/ports/provider-destinations.js';
export { SecretBox } from './common/secrets/secret-box.js';
export { TargetStepData } from './modules/target/application/ports/target-step-data.js';
export {
  TargetEventLog,
  TIMELINE_KINDS,
  type EventActor,
  type EventActorType,
  type EventCause,
  type TargetEvent,
  type TargetTimelineEvent,
  type TimelineEntry,
  type TimelineKind,
  type TimelinePosition,
} from './modules/target/application/ports/target-event-log.js';
export { TargetImportRepository } from './modules/target/application/ports/target-import.repository.js';
export { TargetTransitions } from './modules/target/application/ports/target-transitions.js';
export { TargetRepository } from './modules/target/application/ports/target.repository.js';
export * from './modules/webhook/application/ports/outbox.js';
export { TargetNotifications } from './modules/webhook/application/ports/target-notifications.js';
export { WebhookDeliveryRepository } from './modules/webhook/application/ports/webhook-delivery.repository.js';
export * from './modules/webhook/application/ports/webhook-sender.js';
export { MessageRepository } from './modules/messaging/application/ports/message.repository.js';
export { FollowUpTexts } from './modules/messaging/application/ports/follow-up-texts.js';
export * from './modules/messaging/application/ports/text-senders.js';
export { ProviderTextClients } from './modules/provider-connection/application/ports/provider-text-clients.js';
export { Redactor } from './modules/retention/application/ports/redactor.js';
export { PatternRedactor } from './modules/retention/infrastructure/pattern-redactor.js';
export * from './modules/retention/application/ports/retention.store.js';
export * from './modules/retention/application/ports/patient-data-holders.js';
export { RetentionCampaigns } from './modules/retention/application/ports/retention-campaigns.js';

// Domain errors (the one filter maps them: 404, 409, 422, 401) and domain types.
export * from './common/errors/domain-errors.js';
export type * from './modules/blacklist/domain/blacklist.js';
export type * from './modules/call-log/domain/call-log.js';
export type * from './modules/campaign/domain/campaign.js';
export type * from './modules/compliance/domain/compliance-policy.js';
export type * from './modules/compliance/domain/compliance-decision.js';
export type * from './modules/organization/domain/api-key.js';
export type * from './modules/provider-connection/domain/provider-connection.js';
export type * from './modules/step/domain/step.js';
export type * from './modules/target/domain/target.js';
export type * from './modules/messaging/domain/message.js';
export type * from './modules/retention/domain/retention-policy.js';
export type * from './modules/retention/domain/retention-run.js';
export type * from './modules/retention/domain/patient-record.js';
export type * from './modules/provider-connection/domain/provider-text.js';
export type { CallOutcome } from './modules/telephony/domain/call-outcome.js';
