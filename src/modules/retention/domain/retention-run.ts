import type { RetentionPart, RetentionPolicy } from './retention-policy.js';

/** The record of one purge run or one erasure: the proof of what was removed, when, and why. */
export interface RetentionRun {
  id: string;
  organizationId: string;
  kind: 'purge' | 'erasure';
  trigger: 'schedule' | 'api';
  status: 'running' | 'finished';
  /** The organization's policy and every campaign's own, as they were when the run started. */
  policies: { campaignId: string | null; policy: RetentionPolicy }[];
  /** An erasure's person: the key it was asked for. */
  subject: PatientKey | null;
  reason: string | null;
  /** Targets purged, by part (an erasure also counts what else it removed). */
  counts: Partial<Record<RetentionPart | string, number>>;
  startedAt: Date;
  finishedAt: Date | null;
  apiKeyId: string | null;
}

/** One person, named by one number or one external id. */
export type PatientKey = { phoneNumber: string } | { externalId: string };
