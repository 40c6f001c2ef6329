import type { CreationPosition } from '../../../../common/paging/paging.js';
import type { FoldReport } from '../../../../common/persistence/count-folding.js';
import type { TargetSearch } from '../../domain/target-search.js';
import { Tx } from '../../../../common/persistence/unit-of-work.js';
import { NewTarget } from '../../domain/new-targets.js';
import { Target, TargetStatus } from '../../domain/target.js';
import type { EventCause } from './target-event-log.js';

/** All bounds inclusive; absent means unbounded. */
export interface TargetListFilter {
  status?: TargetStatus;
  /** The campaign's target with this external id (at most one: they are unique per campaign). */
  externalId?: string;
  createdFrom?: Date;
  createdTo?: Date;
  lastCallFrom?: Date;
  lastCallTo?: Date;
  /** By the patient's name, the external id or the phone number (one search box). */
  search?: TargetSearch;
}

/** A page by number (`offset` rows skipped), or by keyset: the rows after `after`. */
export type TargetPageRequest =
  { limit: number; offset: number } | { limit: number; after: CreationPosition };

export interface TargetPage {
  targets: Target[];
  /** Rows matching the filter, all pages. */
  total: number;
  /** The position of the last target returned, when more targets match after it; else null. */
  next: CreationPosition | null;
}

export interface DeleteOutcome {
  deleted: string[];
  /** Found but `In Progress` / `Post-processing`: kept. */
  inFlight: string[];
}

/** The targets that lack one input-data field. */
export interface InputFieldGap {
  /** How many lack it. */
  lacking: number;
  /** The first of them in (created_at, id) order, as many as asked for. */
  targetIds: string[];
}

/** How `TargetRepository.mergeInputData` merges, and what else it sets. */
export interface InputDataMerge {
  onlyIfNotStarted: boolean;
  now: Date;
  cause?: EventCause;
  timeZone?: string | null;
}

/**
 * Targets, always scoped by organization on reads and writes that come from the API. Uniqueness: `id`
 * within an organization (two organizations may each have a target of one id), `external_id` within a
 * campaign (when not null); a violation is a ConflictError.
 */
export abstract class TargetRepository {
  /** Which of `externalIds` the campaign already holds. */
  abstract findExistingExternalIds(
    tx: Tx | null,
    campaignId: string,
    externalIds: string[],
  ): Promise<Set<string>>;

  /**
   * Which of `ids` (canonical UUIDs) the organization already has, in any of its campaigns. Another
   * organization's ids are never looked at (ids are unique per organization).
   */
  abstract findExistingIds(
    tx: Tx | null,
    organizationId: string,
    ids: string[],
  ): Promise<Set<string>>;

  /**
   * Inserts every row in one statement. `created_at` is `now` plus the row's position in microseconds,
   * so a batch lists in request order. A row whose external id is taken meanwhile is skipped when
   * `skipTakenExternalIds`, else the whole insert fails with ConflictError; a taken id always does.
   * Returns the ids inserted. Each inserted target's `added` event is recorded with `cause`.
   */
  abstract insertMany(
    tx: Tx,
    targets: NewTarget[],
    options: { now: Date; skipTakenExternalIds: boolean; cause?: EventCause },
  ): Promise<string[]>;

  abstract findById(organizationId: string, id: string): Promise<Target | null>;

  /**
   * Shallow-merges `patch` into `input_data` in one conditional statement. With `onlyIfNotStarted`,
   * only a target that has not started (see `hasStarted`) is changed. Null when nothing was changed.
   * A `timeZone` (null clears it) replaces the recipient's zone; a `Scheduled` target is then due at
   * once, so that the calling rules decide again in its new zone.
   */
  abstract mergeInputData(
    organizationId: string,
    id: string,
    patch: Record<string, unknown>,
    options: InputDataMerge,
  ): Promise<Target | null>;

  /**
   * Takes back targets an import added but may not keep (it lost a race with another writer of the
   * same external ids, see TargetImportService): those of `ids` in the campaign that are not in flight
   * are deleted with their whole history, as if never added. Returns the ids withdrawn.
   */
  abstract withdrawAdded(
    tx: Tx,
    organizationId: string,
    campaignId: string,
    ids: string[],
  ): Promise<string[]>;

  /**
   * Deletes those of `ids` in the campaign that are not in flight, in one statement. `now`: the time
   * of their `deleted` timeline events.
   */
  abstract deleteUnlessInFlight(
    organizationId: string,
    campaignId: string,
    ids: string[],
    now: Date,
    cause?: EventCause,
  ): Promise<DeleteOutcome>;

  /**
   * Ordered by (created_at, id). `total` is exact and consistent with the page (one snapshot), also
   * while other requests add, delete and move targets.
   */
  abstract list(
    organizationId: string,
    campaignId: string,
    filter: TargetListFilter,
    page: TargetPageRequest,
  ): Promise<TargetPage>;

  /**
   * Folds the count rows `list` and the campaign stats sum (every campaign's that are due, under the
   * one policy of common/persistence/count-folding.ts): the folding job's work, never a read's.
   * What it folded, per table.
   */
  abstract foldCounts(): Promise<FoldReport>;

  /**
   * For each field path of `paths` (from the root a template names: `['input_data', 'appointment']`,
   * `['patient', 'first_name']`), in one read: the campaign's targets awaiting a call
   * (`AWAITING_CALL_STATUSES`) that hold no text, number or boolean there (absent, null, an object or a
   * list: what a template fills in as empty text). `awaiting` counts those targets.
   */
  abstract findLackingInput(
    organizationId: string,
    campaignId: string,
    paths: string[][],
    sample: number,
  ): Promise<{ awaiting: number; gaps: InputFieldGap[] }>;

  /**
   * Up to `limit` of the organization's targets whose input data holds `value` at `path` (a string,
   * or a number or boolean written as text), the most recently called first, then the newest. With
   * `campaignIds`, only targets of those campaigns.
   */
  abstract findIdsByInputValue(
    organizationId: string,
    path: string[],
    value: string,
    limit: number,
    campaignIds?: string[] | null,
  ): Promise<string[]>;
}
