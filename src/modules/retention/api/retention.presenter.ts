import {
  PART_REMOVES,
  type RetentionPolicy,
  type ScopedPolicy,
  windowsOf,
} from '../domain/retention-policy.js';
import type { PatientKey, RetentionRun } from '../domain/retention-run.js';
import type { RetentionPolicyDto } from './dto/retention-policy.dto.js';

export const presentPolicy = (p: RetentionPolicy) => ({
  windows: { ...p.windows },
  redact_transcripts: p.redactTranscripts,
  removes: PART_REMOVES,
});

/** A policy with its scope: a campaign's own, or the organization's (campaign_id null). */
export const presentScopedPolicy = (p: ScopedPolicy) => ({
  campaign_id: p.campaignId,
  windows: { ...p.policy.windows },
  redact_transcripts: p.policy.redactTranscripts,
});

export const policyFromBody = (b: RetentionPolicyDto): RetentionPolicy => ({
  windows: windowsOf(b.windows),
  redactTranscripts: b.redact_transcripts,
});

export const presentKey = (k: PatientKey) =>
  'phoneNumber' in k ? { phone_number: k.phoneNumber } : { external_id: k.externalId };

export const presentRun = (r: RetentionRun) => ({
  id: r.id,
  kind: r.kind,
  trigger: r.trigger,
  status: r.status,
  policies: r.policies.map(presentScopedPolicy),
  subject: r.subject && presentKey(r.subject),
  reason: r.reason,
  counts: r.counts,
  started_at: r.startedAt.toISOString(),
  finished_at: r.finishedAt?.toISOString() ?? null,
});
