/**
 * Every migration, oldest first. Listed rather than globbed: ES modules are loaded by import, which a
 * file-name pattern cannot give TypeORM reliably across the built service, Vitest and the TS loader.
 */
import { CreateCoreSchema1767225600000 } from './1767225600000-create-core-schema.js';
import { CreateCallLogs1767400000000 } from './1767400000000-create-call-logs.js';
import { CreateCallWaitlist1767400000001 } from './1767400000001-create-call-waitlist.js';
import { AddCallLogOutcomeData1767400000002 } from './1767400000002-add-call-log-outcome-data.js';
import { CreateTargetStepEvents1767500000000 } from './1767500000000-create-target-step-events.js';
import { CreateWebhookTables1767600000000 } from './1767600000000-create-webhook-tables.js';
import { CreateAsyncCallLifecycle1767700000000 } from './1767700000000-create-async-call-lifecycle.js';
import { CreateProviderConnections1767800000000 } from './1767800000000-create-provider-connections.js';
import { AddCampaignProviderConnection1767800000001 } from './1767800000001-add-campaign-provider-connection.js';
import { CreateTargetCountDeltas1767900000000 } from './1767900000000-create-target-count-deltas.js';
import { CreateCallLogCountDeltas1767900000001 } from './1767900000001-create-call-log-count-deltas.js';
import { AddCampaignState1768010000000 } from './1768010000000-add-campaign-state.js';
import { CreateTargetImports1768100000000 } from './1768100000000-create-target-imports.js';
import { CreateTargetEvents1768200000000 } from './1768200000000-create-target-events.js';
import { ExtendCountDeltasForStats1768300000000 } from './1768300000000-extend-count-deltas-for-stats.js';
import { IndexPausedCampaigns1768300000001 } from './1768300000001-index-paused-campaigns.js';
import { AddImportFailure1768300000002 } from './1768300000002-add-import-failure.js';
import { AddCampaignAutoPause1768700000000 } from './1768700000000-add-campaign-auto-pause.js';
import { ScopeTargetIdsByOrganization1768800000000 } from './1768800000000-scope-target-ids-by-organization.js';
import { TriggerFunctionsWithoutJit1768830000000 } from './1768830000000-trigger-functions-without-jit.js';
import { CountCalledTargets1768840000000 } from './1768840000000-count-called-targets.js';
import { TargetPositionDeltas1768850000000 } from './1768850000000-target-position-deltas.js';
import { CallLogHourDeltas1768860000000 } from './1768860000000-call-log-hour-deltas.js';
import { TargetStatusLastCallIndex1768870000000 } from './1768870000000-target-status-last-call-index.js';
import { TargetLastCallMinuteDeltas1768880000000 } from './1768880000000-target-last-call-minute-deltas.js';
import { CreateDoNotCallList1768900000000 } from './1768900000000-create-do-not-call-list.js';
import { CallingRules1768910000000 } from './1768910000000-calling-rules.js';
import { CreateMessages1769000000000 } from './1769000000000-create-messages.js';
import { CallLogNumberIndex1769300000000 } from './1769300000000-call-log-number-index.js';
import { TargetEventTransactions1769310000000 } from './1769310000000-target-event-transactions.js';
import { InstallTriggerDefinitions1769400000000 } from './1769400000000-install-trigger-definitions.js';
import { TargetListCounts1769600000000 } from './1769600000000-target-list-counts.js';
import { InstallTriggerDefinitions1769610000000 } from './1769610000000-install-trigger-definitions.js';
import { ApiKeyRoles1769700000000 } from './1769700000000-api-key-roles.js';
import { CreateAuditEvents1769800000000 } from './1769800000000-create-audit-events.js';
import { InstallTriggerDefinitions1769800000001 } from './1769800000001-install-trigger-definitions.js';
import { PatientsAndNationalNumbers1769820000000 } from './1769820000000-patients-and-national-numbers.js';
import { FoldedCountRows1769850000000 } from './1769850000000-folded-count-rows.js';
import { CreateRetention1769860000000 } from './1769860000000-create-retention.js';
import { CreateUsersAndSessions1769810000000 } from './1769810000000-create-users-and-sessions.js';
import { AddTotp1769810000001 } from './1769810000001-add-totp.js';
import { ChangeActorTypes1769900000000 } from './1769900000000-change-actor-types.js';
import { SealTotpSecrets1769900000001 } from './1769900000001-seal-totp-secrets.js';
import { CampaignVoicemailMessage1769910000000 } from './1769910000000-campaign-voicemail-message.js';
import { RetentionWalkInCreationOrder1769920000000 } from './1769920000000-retention-walk-in-creation-order.js';
import { VacuumTargetsSooner1769930000000 } from './1769930000000-vacuum-targets-sooner.js';
import { AuditResourceIndexWithoutPendingList1769930000001 } from './1769930000001-audit-resource-index-without-pending-list.js';

export const MIGRATIONS = [
  CreateCoreSchema1767225600000,
  CreateCallLogs1767400000000,
  CreateCallWaitlist1767400000001,
  AddCallLogOutcomeData1767400000002,
  CreateTargetStepEvents1767500000000,
  CreateWebhookTables1767600000000,
  CreateAsyncCallLifecycle1767700000000,
  CreateProviderConnections1767800000000,
  AddCampaignProviderConnection1767800000001,
  CreateTargetCountDeltas1767900000000,
  CreateCallLogCountDeltas1767900000001,
  AddCampaignState1768010000000,
  CreateTargetImports1768100000000,
  CreateTargetEvents1768200000000,
  ExtendCountDeltasForStats1768300000000,
  IndexPausedCampaigns1768300000001,
  AddImportFailure1768300000002,
  AddCampaignAutoPause1768700000000,
  ScopeTargetIdsByOrganization1768800000000,
  TriggerFunctionsWithoutJit1768830000000,
  CountCalledTargets1768840000000,
  TargetPositionDeltas1768850000000,
  CallLogHourDeltas1768860000000,
  TargetStatusLastCallIndex1768870000000,
  TargetLastCallMinuteDeltas1768880000000,
  CreateDoNotCallList1768900000000,
  CallingRules1768910000000,
  CreateMessages1769000000000,
  CallLogNumberIndex1769300000000,
  TargetEventTransactions1769310000000,
  InstallTriggerDefinitions1769400000000,
  TargetListCounts1769600000000,
  InstallTriggerDefinitions1769610000000,
  ApiKeyRoles1769700000000,
  CreateAuditEvents1769800000000,
  InstallTriggerDefinitions1769800000001,
  PatientsAndNationalNumbers1769820000000,
  FoldedCountRows1769850000000,
  CreateRetention1769860000000,
  CreateUsersAndSessions1769810000000,
  AddTotp1769810000001,
  ChangeActorTypes1769900000000,
  SealTotpSecrets1769900000001,
  CampaignVoicemailMessage1769910000000,
  RetentionWalkInCreationOrder1769920000000,
  VacuumTargetsSooner1769930000000,
  AuditResourceIndexWithoutPendingList1769930000001,
];
