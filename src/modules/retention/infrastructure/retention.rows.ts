import { rowMapper, type RowOf } from '../../../common/persistence/row-of.js';
import {
  keyDocument,
  type PatientKeyDocument,
  policyDocument,
} from '../domain/retention-documents.js';
import { type RetentionPolicy, windowsOf } from '../domain/retention-policy.js';
import type { PatientKey, RetentionRun } from '../domain/retention-run.js';

/** `retention_policies.policy` as stored (snake_case, as the API says it). */
export interface StoredRetentionPolicy {
  windows: Record<string, number | null>;
  redact_transcripts: boolean;
}

export function policyFromStored(s: StoredRetentionPolicy): RetentionPolicy {
  return { windows: windowsOf(s.windows ?? {}), redactTranscripts: s.redact_transcripts === true };
}

const keyFromStored = (k: PatientKeyDocument): PatientKey =>
  'phone_number' in k ? { phoneNumber: k.phone_number } : { externalId: k.external_id };

/** A `retention_runs` row: the domain's fields in snake_case, but the policies and the subject stored. */
export type RetentionRunRow = RowOf<Omit<RetentionRun, 'policies' | 'subject' | 'counts'>> & {
  policy: { campaign_id: string | null; policy: StoredRetentionPolicy }[];
  subject: PatientKeyDocument | null;
  counts: Record<string, number>;
};

export const RUN_COLUMNS = [
  'id',
  'organization_id',
  'kind',
  'trigger',
  'status',
  'policy',
  'subject',
  'reason',
  'counts',
  'started_at',
  'finished_at',
  'api_key_id',
] as const satisfies readonly (keyof RetentionRunRow)[];

export const runFromRow = rowMapper<RetentionRun, RetentionRunRow>()(
  RUN_COLUMNS,
  {
    policies: (r) =>
      r.policy.map((p) => ({ campaignId: p.campaign_id, policy: policyFromStored(p.policy) })),
    subject: (r) => (r.subject ? keyFromStored(r.subject) : null),
  },
  { policy: 'policies' },
);

export const runParams = (run: RetentionRun): unknown[] => [
  run.id,
  run.organizationId,
  run.kind,
  run.trigger,
  run.status,
  JSON.stringify(
    run.policies.map((p) => ({ campaign_id: p.campaignId, policy: policyDocument(p.policy) })),
  ),
  run.subject ? JSON.stringify(keyDocument(run.subject)) : null,
  run.reason,
  JSON.stringify(run.counts),
  run.startedAt,
  run.finishedAt,
  run.apiKeyId,
];
