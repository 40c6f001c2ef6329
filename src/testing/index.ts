/**
 * The importable testing module: stateful in-memory fakes of the ports, recording and scripted
 * doubles of the outbound adapters, a fake clock, a unit of work that rolls the fakes back, and the
 * aCampaign/aTarget builders. Unit and contract tests build services with `new` and these.
 */
export * from './calling-fakes';
export * from './fake-clock';
export * from './fixed-organization.guard';
export * from './in-memory-api-key-revocations';
export * from './in-memory-blacklist.repository';
export * from './in-memory-call-log.repository';
export * from './in-memory-campaign-reader';
export * from './in-memory-campaign.repository';
export * from './in-memory-organization.repository';
export * from './in-memory-provider-connection.repository';
export * from './in-memory-step.repository';
export * from './in-memory-target.repository';
export * from './in-memory-target-event-log';
export * from './in-memory-target-import.repository';
export * from './in-memory-target-transitions';
export * from './in-memory-unit-of-work';
export * from './in-memory-webhook-delivery.repository';
export * from './in-process-exclusive-runner';
export * from './recording-job-queue';
export * from './recording-metrics';
export * from './recording-webhook-sender';
export * from './scripted-call-provider';
export * from './step-rules';
export * from './test-data';
