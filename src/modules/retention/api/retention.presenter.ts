import { keyDocument, policyDocument } from '../domain/retention-documents.js';
import {
  PART_REMOVES,
  type RetentionPolicy,
  type ScopedPolicy,
  windowsOf,
} from '../domain/retention-policy.js';
import type { RetentionRun } from '../domain/retention-run.js';
import type { RetentionPolicyDto } from './dto/retention-policy.dto.js';

export const presentPolicy = (p: RetentionPolicy) => ({
  ...policyDocument(p),
  removes: PART_REMOVES,
});

/** A policy with its scope: a campaign's own, or the organization's (campaign_id null). */
export const presentScopedPolicy = (p: ScopedPolicy) => ({
  campaign_id: p.campaignId,
  ...policyDocument(p.policy),
});

export const policyFromBody = (b: RetentionPolicyDto): RetentionPolicy => ({
  windows: windowsOf(b.windows),
  redactTranscripts: b.redact_transcripts,
});

export const presentRun = (r: RetentionRun) => ({
  id: r.id,
  kind: r.kind,
  trigger: r.trigger,
  status: r.status,
  policies: r.policies.map(presentScopedPolicy),
  subject: r.subject && keyDocument(r.subject),
  reason: r.reason,
  counts: r.counts,
  started_at: r.startedAt.toISOString(),
  finished_at: r.finishedAt?.toISOString() ?? null,
});
