import {
  PART_REMOVES,
  type RetentionPolicy,
  type RetentionWindows,
} from '../domain/retention-policy.js';
import type { PatientKey, RetentionRun } from '../domain/retention-run.js';
import type { RetentionPolicyDto } from './dto/retention-policy.dto.js';

export const presentPolicy = (p: RetentionPolicy) => ({
  windows: { ...p.windows },
  redact_transcripts: p.redactTranscripts,
  removes: PART_REMOVES,
});

export const policyFromBody = (b: RetentionPolicyDto): RetentionPolicy => ({
  windows: {
    transcripts: b.windows.transcripts,
    recordings: b.windows.recordings,
    input_data: b.windows.input_data,
    messages: b.windows.messages,
    finished_targets: b.windows.finished_targets,
  } satisfies RetentionWindows,
  redactTranscripts: b.redact_transcripts,
});

export const presentKey = (k: PatientKey) =>
  'phoneNumber' in k ? { phone_number: k.phoneNumber } : { external_id: k.externalId };

export const presentRun = (r: RetentionRun) => ({
  id: r.id,
  kind: r.kind,
  trigger: r.trigger,
  status: r.status,
  policies: r.policies.map((p) => ({
    campaign_id: p.campaignId,
    windows: { ...p.policy.windows },
    redact_transcripts: p.policy.redactTranscripts,
  })),
  subject: r.subject && presentKey(r.subject),
  reason: r.reason,
  counts: r.counts,
  started_at: r.startedAt.toISOString(),
  finished_at: r.finishedAt?.toISOString() ?? null,
});
