/**
 * The importable testing module: stateful in-memory fakes of the ports, recording and scripted
 * doubles of the outbound adapters, a fake clock, a unit of work that rolls the fakes back, and the
 * aCampaign/aTarget builders. Unit and contract tests build services with `new` and these.
 */
export * from './calling-fakes.js';
export * from './fake-clock.js';
export * from './fixed-organization.guard.js';
export * from './in-memory-api-key-revocations.js';
export * from './in-memory-audit-event.store.js';
export * from './in-memory-blacklist.repository.js';
export * from './in-memory-call-log.repository.js';
export * from './in-memory-campaign-reader.js';
export * from './in-memory-campaign.repository.js';
export * from './in-memory-compliance.js';
export * from './in-memory-recipient-locks.js';
export * from './in-memory-do-not-call.repository.js';
export * from './in-memory-organization.repository.js';
export * from './in-memory-people.js';
export * from './no-identity-provider.js';
export * from './in-memory-provider-connection.repository.js';
export * from './in-memory-target-step-data.js';
export * from './in-memory-target.repository.js';
export * from './in-memory-target-event-log.js';
export * from './in-memory-target-import.repository.js';
export * from './in-memory-target-transitions.js';
export * from './in-memory-unit-of-work.js';
export * from './in-memory-webhook-delivery.repository.js';
export * from './in-process-exclusive-runner.js';
export * from './recording-job-queue.js';
export * from './recording-follow-up-texts.js';
export * from './in-memory-message.repository.js';
export * from './in-memory-retention.js';
export * from './in-memory-patient-data.js';
// Pure (no I/O): the default Redactor is its own fake.
export { PatternRedactor } from '../modules/retention/infrastructure/pattern-redactor.js';
export * from './recording-metrics.js';
export * from './recording-webhook-sender.js';
export * from './scripted-call-provider.js';
export * from './step-rules.js';
export * from './test-data.js';
export * from './in-memory-simulated-call.store.js';
export * from './in-memory-adapters.js';
export * from './campaign-calling-testing.module.js';
export * from './provider-fakes.js';
export * from './wait-until.js';
// The one RetentionCampaigns / OrganizationCampaigns implementation, run over the campaign repository fake.
export { CampaignOwnership } from '../modules/campaign/application/campaign-ownership.js';
