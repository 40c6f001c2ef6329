import type { FoldReport } from '../common/persistence/count-folding.js';
import { matchesSearch } from '../modules/target/domain/target-search.js';
import { ConflictError } from '../common/errors/domain-errors.js';
import { Tx } from '../common/persistence/unit-of-work.js';
import {
  DeleteOutcome,
  InputDataMerge,
  InputFieldGap,
  TargetListFilter,
  TargetPage,
  TargetPageRequest,
  TargetRepository,
} from '../modules/target/application/ports/target.repository.js';
import { freshTarget, NewTarget } from '../modules/target/domain/new-targets.js';
import type { EventCause } from '../modules/target/application/ports/target-event-log.js';
import type { InMemoryTargetEventLog } from './in-memory-target-event-log.js';
import { clone, compareIds } from './in-memory-rows.js';
import {
  AWAITING_CALL_STATUSES,
  hasStarted,
  IN_FLIGHT_STATUSES,
  mergeInput,
  Target,
} from '../modules/target/domain/target.js';

interface Stored {
  target: Target;
  /** created_at in microseconds: the adapter offsets a batch's rows by one microsecond each. */
  createdMicros: number;
}

interface RepositoryState {
  rows: Map<string, Stored>;
  events: ReturnType<InMemoryTargetEventLog['snapshot']> | undefined;
}

/** The adapter's list order: by created_at (to the microsecond), then id. */
const byPosition = (a: Stored, b: Stored) =>
  a.createdMicros - b.createdMicros || compareIds(a.target.id, b.target.id);

/**
 * A target's key in the in-memory tables: its id is unique within its organization only (the
 * database's primary key is (id, organization_id)).
 */
export const targetKey = (organizationId: string, id: string): string => `${organizationId}/${id}`;

/** The target rows one in-memory fake keeps and others may share, keyed by `targetKey`. */
export interface TargetTable {
  get(key: string): Target | undefined;
  set(key: string, target: Target): void;
  values(): IterableIterator<Target>;
}

/**
 * TargetRepository in memory, with the same uniqueness rules as the database (`id` per organization,
 * `external_id` per campaign) and the same ordering. For unit tests and integrators' tests.
 */
export class InMemoryTargetRepository extends TargetRepository {
  private readonly rows = new Map<string, Stored>();

  /** With `events`, every change is recorded there as the database's triggers record it. */
  constructor(private readonly events?: InMemoryTargetEventLog) {
    super();
  }

  async findExistingExternalIds(
    _tx: Tx | null,
    campaignId: string,
    externalIds: string[],
  ): Promise<Set<string>> {
    const wanted = new Set(externalIds);
    const inCampaign = [...this.rows.values()].flatMap(({ target: t }) =>
      t.campaignId === campaignId && t.externalId !== null ? [t.externalId] : [],
    );
    return new Set(inCampaign.filter((id) => wanted.has(id)));
  }

  async findExistingIds(
    _tx: Tx | null,
    organizationId: string,
    ids: string[],
  ): Promise<Set<string>> {
    return new Set(ids.filter((id) => this.rows.has(targetKey(organizationId, id))));
  }

  async insertMany(
    _tx: Tx,
    targets: NewTarget[],
    options: { now: Date; skipTakenExternalIds: boolean; cause?: EventCause },
  ): Promise<string[]> {
    const ids = new Set<string>();
    // The campaigns' external ids: those held, then those of the batch's rows accepted so far.
    const taken = new Set<string>();
    for (const { target } of this.rows.values()) {
      if (target.externalId !== null) taken.add(`${target.campaignId}\u0000${target.externalId}`);
    }
    const accepted: { row: NewTarget; position: number }[] = [];
    targets.forEach((row, position) => {
      const idKey = targetKey(row.organizationId, row.id);
      if (this.rows.has(idKey) || ids.has(idKey)) {
        throw new ConflictError(`Target id ${row.id} already exists`);
      }
      ids.add(idKey);
      const key = row.externalId === null ? null : `${row.campaignId}\u0000${row.externalId}`;
      if (key !== null && taken.has(key)) {
        if (options.skipTakenExternalIds) return;
        throw new ConflictError(`External id ${row.externalId} already exists in the campaign`);
      }
      if (key !== null) taken.add(key);
      accepted.push({ row, position });
    });
    for (const { row, position } of accepted) {
      const createdMicros = options.now.getTime() * 1000 + position;
      const target = freshTarget(
        clone(row),
        new Date(Math.floor(createdMicros / 1000)),
        new Date(options.now.getTime()),
      );
      this.rows.set(targetKey(row.organizationId, row.id), { target, createdMicros });
      this.events?.changed(null, clone(target), options.cause);
    }
    return accepted.map(({ row }) => row.id);
  }

  async findById(organizationId: string, id: string): Promise<Target | null> {
    const stored = this.rows.get(targetKey(organizationId, id));
    return stored ? clone(stored.target) : null;
  }

  async mergeInputData(
    organizationId: string,
    id: string,
    patch: Record<string, unknown>,
    options: InputDataMerge,
  ): Promise<Target | null> {
    const stored = this.rows.get(targetKey(organizationId, id));
    if (!stored) return null;
    if (options.onlyIfNotStarted && hasStarted(stored.target)) return null;
    const before = clone(stored.target);
    stored.target.inputData = mergeInput(stored.target.inputData, clone(patch));
    stored.target.updatedAt = options.now;
    if (options.timeZone !== undefined) {
      const t = stored.target;
      t.timeZone = options.timeZone;
      t.hold = null;
      if (t.status === 'Scheduled' && t.scheduledTime && t.scheduledTime > options.now) {
        t.scheduledTime = options.now;
      }
    }
    this.events?.changed(before, clone(stored.target), options.cause);
    return clone(stored.target);
  }

  async withdrawAdded(
    _tx: Tx,
    organizationId: string,
    campaignId: string,
    ids: string[],
  ): Promise<string[]> {
    const withdrawn: string[] = [];
    for (const id of new Set(ids)) {
      const target = this.rows.get(targetKey(organizationId, id))?.target;
      if (target?.campaignId !== campaignId || IN_FLIGHT_STATUSES.includes(target.status)) continue;
      this.rows.delete(targetKey(organizationId, id));
      withdrawn.push(id);
    }
    this.events?.forget(organizationId, withdrawn);
    return withdrawn;
  }

  async deleteUnlessInFlight(
    organizationId: string,
    campaignId: string,
    ids: string[],
    now: Date,
    cause?: EventCause,
  ): Promise<DeleteOutcome> {
    const outcome: DeleteOutcome = { deleted: [], inFlight: [] };
    for (const id of new Set(ids)) {
      const target = this.rows.get(targetKey(organizationId, id))?.target;
      if (!target || target.campaignId !== campaignId) continue;
      if (IN_FLIGHT_STATUSES.includes(target.status)) {
        outcome.inFlight.push(id);
      } else {
        this.rows.delete(targetKey(organizationId, id));
        this.events?.changed(clone(target), null, cause, now);
        outcome.deleted.push(id);
      }
    }
    return outcome;
  }

  /** Nothing to fold: the fake counts its targets as it lists them. */
  async foldCounts(): Promise<FoldReport> {
    return {};
  }

  async list(
    organizationId: string,
    campaignId: string,
    filter: TargetListFilter,
    page: TargetPageRequest,
  ): Promise<TargetPage> {
    const micros = (d: Date) => d.getTime() * 1000;
    const matching = [...this.rows.values()]
      .filter(({ target: t, createdMicros }) => {
        if (t.organizationId !== organizationId || t.campaignId !== campaignId) return false;
        if (filter.status !== undefined && t.status !== filter.status) return false;
        if (filter.externalId !== undefined && t.externalId !== filter.externalId) return false;
        if (filter.search !== undefined && !matchesSearch(t, filter.search)) return false;
        if (filter.createdFrom && createdMicros < micros(filter.createdFrom)) return false;
        // Inclusive to the millisecond, like the adapter: the bound's whole last millisecond counts.
        if (filter.createdTo && createdMicros >= micros(filter.createdTo) + 1000) return false;
        const last = t.lastCallDate;
        if (filter.lastCallFrom && (!last || last < filter.lastCallFrom)) return false;
        if (filter.lastCallTo && (!last || last > filter.lastCallTo)) return false;
        return true;
      })
      .sort(byPosition);
    const start =
      'after' in page
        ? matching.filter(
            (s) =>
              s.createdMicros < page.after.createdMicros ||
              (s.createdMicros === page.after.createdMicros &&
                compareIds(s.target.id, page.after.id) <= 0),
          ).length
        : page.offset;
    const slice = matching.slice(start, start + page.limit);
    const last = slice[slice.length - 1];
    return {
      targets: slice.map((s) => clone(s.target)),
      total: matching.length,
      next:
        last && start + slice.length < matching.length
          ? { createdMicros: last.createdMicros, id: last.target.id }
          : null,
    };
  }

  /**
   * Test helper: what the calling engine would change (status, attempts, call logs, outcome...), to
   * the target of that id (of `organizationId` when two organizations have one).
   */
  setState(
    id: string,
    changes: Partial<Omit<Target, 'id' | 'organizationId' | 'campaignId'>>,
    organizationId?: string,
  ): void {
    const matching = [...this.rows.values()].filter(
      (s) =>
        s.target.id === id &&
        (organizationId === undefined || s.target.organizationId === organizationId),
    );
    if (matching.length !== 1) throw new Error(`${matching.length} targets ${id}`);
    const stored = matching[0];
    Object.assign(stored.target, clone(changes));
    if (changes.createdAt) stored.createdMicros = changes.createdAt.getTime() * 1000;
  }

  /**
   * The rows as a table of targets, for the other fakes that work on `targets` (e.g.
   * `new InMemoryTargetTransitions(() => repository.table())`), so one fake holds target state.
   */
  table(): TargetTable {
    const rows = this.rows;
    return {
      get: (id) => rows.get(id)?.target,
      set: (id, target) => {
        const stored = rows.get(id);
        this.events?.changed(stored ? clone(stored.target) : null, clone(target));
        rows.set(id, {
          target,
          createdMicros: stored?.createdMicros ?? target.createdAt.getTime() * 1000,
        });
      },
      values: () => [...rows.values()].map((r) => r.target)[Symbol.iterator](),
    };
  }

  async findLackingInput(
    organizationId: string,
    campaignId: string,
    paths: string[][],
    sample: number,
  ): Promise<{ awaiting: number; gaps: InputFieldGap[] }> {
    const awaiting = this.ordered().filter(
      (t) =>
        t.organizationId === organizationId &&
        t.campaignId === campaignId &&
        AWAITING_CALL_STATUSES.includes(t.status),
    );
    const gaps = paths.map((path) => {
      const lacking = awaiting.filter(
        (t) => !isScalar(valueAt({ input_data: t.inputData, patient: t.patient }, path)),
      );
      return { lacking: lacking.length, targetIds: lacking.slice(0, sample).map((t) => t.id) };
    });
    return { awaiting: awaiting.length, gaps };
  }

  async findIdsByInputValue(
    organizationId: string,
    path: string[],
    value: string,
    limit: number,
    campaignIds: string[] | null = null,
  ): Promise<string[]> {
    const time = (d: Date | null) => (d ? d.getTime() : -Infinity);
    return [...this.rows.values()]
      .filter(({ target: t }) => {
        const held = valueAt(t.inputData, path);
        return (
          t.organizationId === organizationId &&
          (campaignIds === null || campaignIds.includes(t.campaignId)) &&
          isScalar(held) &&
          String(held) === value
        );
      })
      .sort(
        (a, b) =>
          time(b.target.lastCallDate) - time(a.target.lastCallDate) ||
          b.createdMicros - a.createdMicros ||
          compareIds(a.target.id, b.target.id),
      )
      .slice(0, limit)
      .map((s) => s.target.id);
  }

  /** Its rows and, when it records events, its event log: a rollback takes both back. */
  snapshot(): RepositoryState {
    return { rows: clone(this.rows), events: this.events?.snapshot() };
  }

  restore(snapshot: RepositoryState): void {
    this.rows.clear();
    for (const [id, stored] of snapshot.rows) this.rows.set(id, stored);
    if (snapshot.events) this.events?.restore(snapshot.events);
  }

  /** Test helper: every stored target, in list order. */
  all(): Target[] {
    return this.ordered().map(clone);
  }

  private ordered(): Target[] {
    return [...this.rows.values()].sort(byPosition).map((s) => s.target);
  }
}

/** jsonb's `#>`: the value at `path`, undefined where the path leads nowhere. */
function valueAt(data: unknown, path: string[]): unknown {
  let value = data;
  for (const key of path) {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
    value = (value as Record<string, unknown>)[key];
  }
  return value;
}

const isScalar = (v: unknown) => ['string', 'number', 'boolean'].includes(typeof v);
