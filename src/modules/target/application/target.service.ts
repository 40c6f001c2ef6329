import { Injectable } from '@nestjs/common';
import { randomUUID } from 'crypto';
import { Clock } from '../../../common/clock/clock.js';
import { ConflictError, NotFoundError } from '../../../common/errors/domain-errors.js';
import { CreationPosition, offsetOf, PageRequest } from '../../../common/paging/paging.js';
import { UnitOfWork } from '../../../common/persistence/unit-of-work.js';
import { readPhoneNumber } from '../../../common/phone/phone-number.js';
import { countryOf, FixedPhoneCountry, PhoneCountries } from './ports/phone-countries.js';
import { canonicalUuid } from '../../../common/ids/canonical-uuid.js';
import {
  AddTargetInput,
  IgnoredTarget,
  initialState,
  newTarget,
  NewTarget,
  partitionDuplicates,
  TargetDraft,
  toDraft,
  toTimeZone,
} from '../domain/new-targets.js';
import { Target } from '../domain/target.js';
import { targetSearch } from '../domain/target-search.js';
import { CampaignReader } from '../../campaign/application/ports/campaign-reader.js';
import { EventActor, SYSTEM_ACTOR, TargetEventLog } from './ports/target-event-log.js';
import { ReviewAction, TargetTransitions } from './ports/target-transitions.js';
import {
  InputFieldGap,
  TargetListFilter,
  TargetPage,
  TargetRepository,
} from './ports/target.repository.js';

export interface AddTargetsCommand {
  targets: AddTargetInput[];
  launch: boolean;
  allowDuplicates: boolean;
}

export interface AddTargetsResult {
  created: number;
  ignored: IgnoredTarget[];
  /** Created ids, in request order. */
  targetIds: string[];
}

export interface DeleteTargetsResult {
  deleted: string[];
  notFound: string[];
  skipped: { id: string; reason: 'in_progress' }[];
}

/** The target use cases. Every method checks tenancy: another organization's resources are not found. */
@Injectable()
export class TargetService {
  constructor(
    private readonly targets: TargetRepository,
    private readonly campaigns: CampaignReader,
    private readonly unitOfWork: UnitOfWork,
    private readonly clock: Clock,
    private readonly transitions: TargetTransitions,
    private readonly events: TargetEventLog,
    private readonly countries: PhoneCountries = new FixedPhoneCountry(),
  ) {}

  async addTargets(
    organizationId: string,
    campaignId: string,
    command: AddTargetsCommand,
    actor: EventActor = SYSTEM,
  ): Promise<AddTargetsResult> {
    const campaign = await this.campaigns.get(organizationId, campaignId);
    const country = await countryOf(this.countries, campaign);
    const drafts = command.targets.map((input, index) => toDraft(input, index, country));
    const callerIds = drafts.flatMap((d) => (d.id ? [d.id] : []));
    const repeatedIds = callerIds.filter((id, i) => callerIds.indexOf(id) !== i);
    if (repeatedIds.length > 0) {
      throw new ConflictError(
        `Target ids repeated in the request: ${unique(repeatedIds).join(', ')}`,
      );
    }
    const now = this.clock.now();

    return this.unitOfWork.run(async (tx) => {
      const takenIds = await this.targets.findExistingIds(tx, organizationId, callerIds);
      if (takenIds.size > 0) {
        throw new ConflictError(
          `Target ids already exist: ${callerIds.filter((id) => takenIds.has(id)).join(', ')}`,
        );
      }
      // By default (allow_duplicates) external ids the campaign holds are found by the insert itself,
      // which skips them: a request of new targets reads nothing first (the lookup of 10,000 external
      // ids cost a third as much as the insert, and more as campaigns grew). A request that may be
      // refused looks them up first, so a refusal writes nothing.
      const held = command.allowDuplicates
        ? NO_EXTERNAL_IDS
        : await this.targets.findExistingExternalIds(tx, campaign.id, externalIdsOf(drafts));
      const { keep, duplicates } = partitionDuplicates(drafts, held);
      if (!command.allowDuplicates && duplicates.length > 0) throw duplicatesRefused(duplicates);
      const state = initialState(campaign, command.launch, now);
      const owner = { organizationId, campaignId: campaign.id };
      const rows: NewTarget[] = keep.map((index) =>
        newTarget(drafts[index], drafts[index].id ?? randomUUID(), owner, state),
      );
      const inserted = new Set(
        await this.targets.insertMany(tx, rows, {
          now,
          skipTakenExternalIds: true,
          cause: { actor },
        }),
      );
      // A row the insert skipped has an external id the campaign holds: added earlier, or by a
      // concurrent request that committed first.
      const taken = keep
        .filter((_, k) => !inserted.has(rows[k].id))
        .map((index) => ({ index, externalId: drafts[index].externalId as string }));
      // Thrown inside the unit of work: the rows just inserted are rolled back with it.
      if (!command.allowDuplicates && taken.length > 0) throw duplicatesRefused(taken);
      const ignored = [...duplicates, ...taken].sort((a, b) => a.index - b.index);
      const created = rows.filter((row) => inserted.has(row.id));

      return { created: created.length, ignored, targetIds: created.map((row) => row.id) };
    });
  }

  /** Targets in flight are kept; ids that are malformed, unknown or in another campaign are not found. */
  async deleteTargets(
    organizationId: string,
    campaignId: string,
    targetIds: string[],
    actor: EventActor = SYSTEM,
  ): Promise<DeleteTargetsResult> {
    const campaign = await this.campaigns.get(organizationId, campaignId);
    const requested = unique(targetIds);
    const byCanonical = new Map<string, string>();
    for (const id of requested) {
      const canonical = canonicalUuid(id);
      if (canonical) byCanonical.set(canonical, id);
    }

    const outcome =
      byCanonical.size > 0
        ? await this.targets.deleteUnlessInFlight(
            organizationId,
            campaign.id,
            [...byCanonical.keys()],
            this.clock.now(),
            { actor, reason: 'deleted through the API' },
          )
        : { deleted: [], inFlight: [] };
    const deleted = new Set(outcome.deleted.map((id) => byCanonical.get(id) ?? id));
    const inFlight = new Set(outcome.inFlight.map((id) => byCanonical.get(id) ?? id));
    return {
      deleted: requested.filter((id) => deleted.has(id)),
      notFound: requested.filter((id) => !deleted.has(id) && !inFlight.has(id)),
      skipped: requested
        .filter((id) => inFlight.has(id))
        .map((id) => ({ id, reason: 'in_progress' as const })),
    };
  }

  /** See `TargetRepository.findLackingInput`: the campaign's awaiting targets lacking each field. */
  findLackingInput(
    organizationId: string,
    campaignId: string,
    paths: string[][],
    sample: number,
  ): Promise<{ awaiting: number; gaps: InputFieldGap[] }> {
    return this.targets.findLackingInput(organizationId, campaignId, paths, sample);
  }

  /** See `TargetRepository.findIdsByInputValue`. */
  findIdsByInputValue(
    organizationId: string,
    path: string[],
    value: string,
    limit: number,
    campaignIds: string[] | null = null,
  ): Promise<string[]> {
    return this.targets.findIdsByInputValue(organizationId, path, value, limit, campaignIds);
  }

  /** The target, or null when the organization has none of that id (a call log outlives its target). */
  async find(organizationId: string, targetId: string): Promise<Target | null> {
    const id = canonicalUuid(targetId);
    return id ? this.targets.findById(organizationId, id) : null;
  }

  async get(organizationId: string, targetId: string): Promise<Target> {
    const target = await this.find(organizationId, targetId);
    if (!target) throw targetNotFound(targetId);
    return target;
  }

  /**
   * Shallow merge; with `onlyIfNotStarted` a started target is a ConflictError (spec, States). A
   * `timeZone` (null: none, the number's zones apply again) replaces the recipient's zone.
   */
  async updateInputData(
    organizationId: string,
    targetId: string,
    patch: Record<string, unknown>,
    onlyIfNotStarted: boolean,
    actor: EventActor = SYSTEM,
    timeZone?: string | null,
  ): Promise<Target> {
    const id = canonicalUuid(targetId);
    if (!id) throw targetNotFound(targetId);
    const zone = timeZone === undefined ? undefined : toTimeZone(timeZone, ['time_zone']);
    const updated = await this.targets.mergeInputData(organizationId, id, patch, {
      onlyIfNotStarted,
      now: this.clock.now(),
      cause: { actor },
      ...(zone !== undefined ? { timeZone: zone } : {}),
    });
    if (updated) return updated;
    // The update is the guard; reading afterwards only tells which refusal to report.
    if (!(await this.targets.findById(organizationId, id))) throw targetNotFound(targetId);
    throw new ConflictError(
      `Target ${targetId} has already started; send only_if_not_started=false to edit its input data anyway`,
    );
  }

  /**
   * A person's decision on a target `To review`: `done` ends it `Finished` (outcome kept), `requeue`
   * makes it due now for one more attempt. The conditional update is the guard (two reviewers: one
   * wins, the other gets the ConflictError naming the status it found). A requeue in a cancelled
   * campaign is refused: the campaign's state is read with a share lock, so a cancel waits for it.
   */
  async review(
    organizationId: string,
    targetId: string,
    action: ReviewAction,
    actor: EventActor = SYSTEM,
  ): Promise<Target> {
    const current = await this.get(organizationId, targetId);
    const reviewed = await this.unitOfWork.run(async (tx) => {
      if (action === 'requeue') {
        const state = await this.campaigns.lockedState(tx, current.campaignId);
        if (state === 'cancelled') {
          throw new ConflictError(
            `Campaign ${current.campaignId} is cancelled; target ${targetId} cannot be re-queued`,
          );
        }
      }
      // The timeline records the status change with who decided and why.
      await this.events.attribute(tx, {
        actor,
        reason:
          action === 'done' ? 'reviewed: marked done' : 'reviewed: re-queued for one more attempt',
      });
      return this.transitions.review(tx, {
        organizationId,
        targetId: current.id,
        action,
        now: this.clock.now(),
      });
    });
    if (reviewed) return reviewed;
    // The update is the guard; reading afterwards only tells which status refused it.
    const now = await this.targets.findById(organizationId, current.id);
    if (!now) throw targetNotFound(targetId);
    throw new ConflictError(
      `Target ${targetId} is ${now.status}, not To review; only a target To review can be marked done or re-queued`,
    );
  }

  /** `filter.search`: the search box's text (a name, an external id or a phone number). */
  async list(
    organizationId: string,
    campaignId: string,
    filter: Omit<TargetListFilter, 'search'> & { search?: string },
    page: PageRequest & { after?: CreationPosition },
  ): Promise<TargetPage> {
    const campaign = await this.campaigns.get(organizationId, campaignId);
    const { search: text, ...rest } = filter;
    const search =
      text === undefined || text.trim() === ''
        ? undefined
        : targetSearch(text, await this.searchedNumber(campaign, text));
    return this.targets.list(
      organizationId,
      campaign.id,
      search ? { ...rest, search } : rest,
      page.after
        ? { limit: page.limit, after: page.after }
        : { limit: page.limit, offset: offsetOf(page) },
    );
  }

  /** A search's text as a stored number (E.164), when it reads as one in the campaign's country. */
  private async searchedNumber(
    campaign: { organizationId: string; defaultCountry: string | null },
    text: string,
  ): Promise<string | null> {
    if (!/\d/.test(text)) return null;
    const reading = readPhoneNumber(text.trim(), await countryOf(this.countries, campaign));
    return 'number' in reading ? reading.number : null;
  }
}

/** Who changed targets when the caller does not say (scripts, tests). */
const SYSTEM = SYSTEM_ACTOR;

/** With allow_duplicates, the campaign's external ids are the insert's to skip: none looked up. */
const NO_EXTERNAL_IDS: ReadonlySet<string> = new Set();

function externalIdsOf(drafts: TargetDraft[]): string[] {
  return unique(drafts.flatMap((d) => (d.externalId === null ? [] : [d.externalId])));
}

function duplicatesRefused(duplicates: IgnoredTarget[]): ConflictError {
  return new ConflictError(
    `Duplicate external ids (already in the campaign or repeated in the request): ${unique(
      duplicates.map((d) => d.externalId),
    ).join(', ')}`,
  );
}

export function targetNotFound(targetId: string): NotFoundError {
  return new NotFoundError(`Target ${targetId} not found`);
}

function unique<T>(values: T[]): T[] {
  return [...new Set(values)];
}
