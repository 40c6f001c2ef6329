import type { CreationPosition } from '../../../../common/paging/paging.js';
import type { Tx } from '../../../../common/persistence/unit-of-work.js';
import type {
  PatientCallLog,
  PatientDecision,
  PatientDoNotCallEntry,
  PatientMessage,
  PatientTarget,
} from '../../domain/patient-record.js';
import type { RetentionPart } from '../../domain/retention-policy.js';
import type { PatientKey } from '../../domain/retention-run.js';

/**
 * Where the service copied a patient's data: each module that owns such a table implements one of
 * these ports over its own tables (one module writes each table) and binds it in its adapters. The
 * retention module drives them, inside one transaction per batch, so that a target is purged
 * everywhere or nowhere. `purge` blanks columns only: it never moves a row's status, counts or
 * dates (what the owners' triggers and statistics read), and answers the rows changed per table.
 */
export abstract class PatientDataHolder {
  abstract purge(
    tx: Tx,
    organizationId: string,
    targetIds: string[],
    parts: RetentionPart[],
  ): Promise<Record<string, number>>;
}

/**
 * Which ended targets are due for one part's purge, a batch at a time in creation order: the order
 * the rows were written in, so a batch rewrites neighbouring pages of the table and of its indexes
 * rather than one random page per target (id order wrote about 70% more WAL, docs/benchmarks.md).
 */
export interface DueQuery {
  organizationId: string;
  /** Only this campaign's targets; null: every campaign but `exceptCampaignIds`. */
  campaignId: string | null;
  exceptCampaignIds: string[];
  part: RetentionPart;
  /** Due when the last call ended (or the target was created) at or before this instant. */
  cutoff: Date;
  /** Where the batch before ended; null: from the first. */
  after: CreationPosition | null;
  limit: number;
}

/** One batch: the targets locked for the purge, and where the next batch starts (null: none). */
export interface DueBatch {
  ids: string[];
  next: CreationPosition | null;
}

/** What redaction knows of a target: its campaign (whose policy applies) and its person's values. */
export interface KnownTarget {
  organizationId: string;
  targetId: string;
  campaignId: string;
  knownValues: string[];
}

/**
 * The target module's tables: targets, their step events, timeline and import rows. Not a
 * `PatientDataHolder`: its purge also marks the targets, in the same UPDATE of each target row.
 */
export abstract class TargetData {
  /**
   * Removes `parts` from the targets and their rows, and says on each target when it was purged and
   * which parts (`purged_at`, `purged_parts`): each target row is rewritten once, whatever the parts.
   * Answers the rows changed per table (`targets` only when a part blanks columns of the row itself).
   */
  abstract purge(
    tx: Tx,
    organizationId: string,
    targetIds: string[],
    parts: RetentionPart[],
    at: Date,
  ): Promise<Record<string, number>>;
  /**
   * The next `limit` targets due for the part in creation order, locked in id order (the order every
   * other writer of targets locks them in); a target that stopped being due before its lock is left
   * out. `next` is null when fewer than `limit` were due.
   */
  abstract lockDue(tx: Tx, query: DueQuery): Promise<DueBatch>;
  /** One person's targets: by either of a target's numbers, or by external id. */
  abstract patientTargetIds(organizationId: string, key: PatientKey): Promise<string[]>;
  /** Locks those of the targets not in a call (an erasure purges them now). */
  abstract lockErasable(tx: Tx, organizationId: string, targetIds: string[]): Promise<string[]>;
  abstract patientTargets(organizationId: string, targetIds: string[]): Promise<PatientTarget[]>;
  abstract knownTargets(
    tx: Tx | null,
    targets: { organizationId: string; targetId: string }[],
  ): Promise<KnownTarget[]>;
}

/** The call-log module's `call_logs`: transcripts, post-call data, recordings, agent data, numbers. */
export abstract class CallLogData extends PatientDataHolder {
  abstract patientCallLogs(organizationId: string, targetIds: string[]): Promise<PatientCallLog[]>;
}

/** The messaging module's `messages`: bodies and numbers. */
export abstract class MessageData extends PatientDataHolder {
  /** Texts from or to the number that matched no target: erased with the person. */
  abstract eraseUnmatched(tx: Tx, organizationId: string, phoneNumber: string): Promise<number>;
  abstract patientMessages(
    organizationId: string,
    targetIds: string[],
    phoneNumbers: string[],
  ): Promise<PatientMessage[]>;
}

/** The webhook module's stored deliveries: what receivers answered (they may echo data back). */
export abstract class WebhookData extends PatientDataHolder {}

/** The compliance module's do-not-call list (a legal record: erased only when asked) and decisions. */
export abstract class ComplianceData {
  abstract eraseDoNotCall(tx: Tx, organizationId: string, phoneNumbers: string[]): Promise<number>;
  abstract doNotCallEntries(
    organizationId: string,
    phoneNumbers: string[],
  ): Promise<PatientDoNotCallEntry[]>;
  abstract decisions(organizationId: string, targetIds: string[]): Promise<PatientDecision[]>;
}
