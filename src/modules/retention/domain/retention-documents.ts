import type { RetentionPolicy } from './retention-policy.js';
import type { PatientKey } from './retention-run.js';

/** The policy in its wire shape (snake_case): what the API answers and `retention_policies` stores. */
export const policyDocument = (p: RetentionPolicy) => ({
  windows: { ...p.windows },
  redact_transcripts: p.redactTranscripts,
});

/** The key in its wire shape: what the API answers and a run's `subject` stores. */
export type PatientKeyDocument = { phone_number: string } | { external_id: string };

export const keyDocument = (k: PatientKey): PatientKeyDocument =>
  'phoneNumber' in k ? { phone_number: k.phoneNumber } : { external_id: k.externalId };
