/**
 * How long an organization keeps each part of a patient's data (docs/compliance.md, "Retention").
 * Each window is a number of days counted from the end of the target's last call (its creation when
 * never called), or null: kept for as long as the target is.
 */
export const RETENTION_PARTS = [
  'transcripts',
  'recordings',
  'input_data',
  'messages',
  'finished_targets',
] as const;
export type RetentionPart = (typeof RETENTION_PARTS)[number];

export type RetentionWindows = Record<RetentionPart, number | null>;

export interface RetentionPolicy {
  windows: RetentionWindows;
  /** Transcripts, call summaries and inbound texts are redacted before they are written. */
  redactTranscripts: boolean;
}

/** The windows `given` names, in the parts' order; a part it leaves out is kept (null). */
export function windowsOf(given: Partial<Record<RetentionPart, number | null>>): RetentionWindows {
  return Object.fromEntries(
    RETENTION_PARTS.map((part) => [part, given[part] ?? null]),
  ) as RetentionWindows;
}

/** What each window removes: the words of the docs, the console and the API description. */
export const PART_REMOVES: Record<RetentionPart, string> = {
  transcripts: "call transcripts, post-call data (summaries) and QA on the target's call logs",
  recordings: "the recording links on the target's call logs",
  input_data:
    "the target's input data, patient fields, pre-call data, payor and EHR data, fax links, output " +
    'data and step data, and their copies: call logs’ agent and output data, step events, ' +
    'step-data timeline events, pending simulated calls and import rows',
  messages: "the bodies of the target's text messages, sent and received",
  finished_targets:
    'everything above and what identifies the target row itself: its phone numbers and external ' +
    "id, the numbers on its call logs and texts. The row stays, anonymous, so the campaign's " +
    'numbers do not change',
};

/** Nothing is ever purged until an organization says so. */
export const KEEP_EVERYTHING: RetentionPolicy = {
  windows: windowsOf({}),
  redactTranscripts: false,
};

/** The parts a purge of `part` removes: the target row's purge takes every other part with it. */
export function partsRemovedBy(part: RetentionPart): RetentionPart[] {
  return part === 'finished_targets' ? [...RETENTION_PARTS] : [part];
}

/** A campaign's own policy wins over its organization's for that campaign's targets. */
export interface ScopedPolicy {
  campaignId: string | null;
  policy: RetentionPolicy;
}
