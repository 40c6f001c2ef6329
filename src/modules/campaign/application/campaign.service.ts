import { Injectable } from '@nestjs/common';
import {
  ConflictError,
  InvalidInputError,
  NotFoundError,
} from '../../../common/errors/domain-errors.js';
import { offsetOf, PageRequest } from '../../../common/paging/paging.js';
import { isUuid } from '../../../common/ids/canonical-uuid.js';
import { BlacklistService } from '../../blacklist/application/blacklist.service.js';
import { ProviderConnectionService } from '../../provider-connection/application/provider-connection.service.js';
import { CampaignReader } from './ports/campaign-reader.js';
import { CampaignStateChanges } from './ports/campaign-state-changes.js';
import { Tx } from '../../../common/persistence/unit-of-work.js';
import { Clock, SystemClock } from '../../../common/clock/clock.js';
import { ExpiringCache } from '../../../common/caching/expiring-cache.js';
import {
  applyAction,
  Campaign,
  CampaignAction,
  CAMPAIGN_DEFAULTS,
  CampaignState,
  CampaignStep,
} from '../domain/campaign.js';
import { generateWebhookSecret } from '../domain/webhook-secret.js';
import { CampaignChanges, CampaignRepository, NewCampaign } from './ports/campaign.repository.js';

export type CreateCampaign = Pick<Campaign, 'name' | 'type'> &
  Partial<Omit<NewCampaign, 'organizationId' | 'name' | 'type' | 'webhookSecret'>>;

/** How long `findRecent` keeps a campaign read (a change made by another process shows after it). */
export const RECENT_CAMPAIGN_MS = 1000;
/** Campaigns kept at most (see ExpiringCache). */
const RECENT_CAMPAIGNS_MAX = 10_000;

@Injectable()
export class CampaignService implements CampaignReader, CampaignStateChanges {
  /**
   * Campaigns read for `findRecent`: `GET /targets/{id}` explains a waiting target from its campaign,
   * and integrators poll targets all day (issue 10: the campaign read was a third of that request's
   * database work). Changes through this service drop their campaign at once.
   */
  private readonly recent = new ExpiringCache<string, Campaign>(RECENT_CAMPAIGNS_MAX);

  constructor(
    private readonly repository: CampaignRepository,
    private readonly blacklists: BlacklistService,
    private readonly connections: ProviderConnectionService,
    private readonly clock: Clock = new SystemClock(),
  ) {}

  async create(organizationId: string, input: CreateCampaign): Promise<Campaign> {
    const steps = input.steps ?? [];
    const entryStep = input.entryStep ?? null;
    checkEntryStep(steps, entryStep);
    await this.checkBlacklists(organizationId, input.blacklistIds ?? []);
    await this.checkProviderConnections(organizationId, input);
    return this.repository.create(
      {
        organizationId,
        name: input.name,
        type: input.type,
        callerId: input.callerId ?? null,
        maxAttempts: input.maxAttempts ?? CAMPAIGN_DEFAULTS.maxAttempts,
        retryDelayMinutes: input.retryDelayMinutes ?? CAMPAIGN_DEFAULTS.retryDelayMinutes,
        maxConcurrentCalls: input.maxConcurrentCalls ?? CAMPAIGN_DEFAULTS.maxConcurrentCalls,
        callingWindow: input.callingWindow ?? null,
        steps,
        entryStep,
        blacklistIds: input.blacklistIds ?? [],
        webhookUrl: input.webhookUrl ?? null,
        providerConnectionId: input.providerConnectionId ?? null,
        autoPause: input.autoPause ?? null,
        smsFollowUp: input.smsFollowUp ?? null,
        defaultCountry: input.defaultCountry ?? null,
        voicemailMessage: input.voicemailMessage ?? null,
        webhookSecret: generateWebhookSecret(),
      },
      this.clock.now(),
    );
  }

  /**
   * The organization's campaign, or NotFoundError (also for malformed ids and other tenants); read in
   * `tx` when given.
   */
  async get(organizationId: string, campaignId: string, tx?: Tx): Promise<Campaign> {
    const campaign = isUuid(campaignId) ? await this.repository.findById(campaignId, tx) : null;
    if (!campaign || campaign.organizationId !== organizationId) {
      throw new NotFoundError(`Campaign ${campaignId} not found`);
    }
    return campaign;
  }

  /** For workers acting on a job: no tenancy check, the job already belongs to the campaign. */
  findById(campaignId: string): Promise<Campaign | null> {
    return isUuid(campaignId) ? this.repository.findById(campaignId) : Promise.resolve(null);
  }

  findRecent(campaignId: string): Promise<Readonly<Campaign> | null> {
    return this.recent.get(campaignId, this.clock.now().getTime(), RECENT_CAMPAIGN_MS, () =>
      this.findById(campaignId),
    );
  }

  /** `campaignIds`: only those (a credential limited to them), or null for all. */
  async list(
    organizationId: string,
    page: PageRequest,
    campaignIds: string[] | null = null,
  ): Promise<{ items: Campaign[]; total: number }> {
    return this.repository.list(organizationId, offsetOf(page), page.limit, campaignIds);
  }

  async update(
    organizationId: string,
    campaignId: string,
    changes: CampaignChanges,
  ): Promise<Campaign> {
    const current = await this.get(organizationId, campaignId);
    checkEntryStep(
      changes.steps ?? current.steps,
      changes.entryStep !== undefined ? changes.entryStep : current.entryStep,
    );
    if (changes.blacklistIds) await this.checkBlacklists(organizationId, changes.blacklistIds);
    await this.checkProviderConnections(organizationId, changes);
    const result = await this.repository.update(
      organizationId,
      current.id,
      changes,
      this.clock.now(),
    );
    this.recent.forget(current.id);
    switch (result.kind) {
      case 'updated':
        return result.campaign;
      case 'not_found':
        throw new NotFoundError(`Campaign ${campaignId} not found`);
      case 'entry_step_not_in_steps': // changed concurrently since the check above
        throw new InvalidInputError(
          `entry_step is not one of the campaign's steps`,
          ['entry_step'],
          changes.entryStep ?? null,
        );
      case 'waiting_step_removed':
        throw new ConflictError(
          'Targets are waiting at a step this change removes; post their step data first, or keep the step',
        );
    }
  }

  /**
   * Pause, resume or cancel, in the caller's transaction. The caller serialises state changes of the
   * campaign (calling's CampaignControl holds the campaign's claim lock), so the state read here is
   * the one the conditional update changes; the update's guard still refuses any other. Idempotent:
   * an action whose state the campaign is in already changes nothing (`changed: false`).
   */
  async changeState(
    tx: Tx,
    organizationId: string,
    campaignId: string,
    action: CampaignAction,
    now: Date,
    pausedReason: string | null = null,
  ): Promise<{ campaign: Campaign; changed: boolean }> {
    // Read in `tx`: the caller holds the claim lock in it (and PGlite runs one session at a time).
    const current = await this.get(organizationId, campaignId, tx);
    const step = applyAction(current.state, action);
    if (step.kind === 'unchanged') return { campaign: current, changed: false };
    if (step.kind === 'conflict') {
      throw new ConflictError(`Campaign ${current.id} is cancelled; it cannot be ${action}d`);
    }
    // Dropped before the commit: a read between here and the commit may keep the old state, for
    // RECENT_CAMPAIGN_MS at most, as a change made by another process.
    this.recent.forget(current.id);
    const updated = await this.repository.changeState(
      tx,
      organizationId,
      current.id,
      [current.state],
      step.to,
      now,
      pausedReason,
    );
    if (!updated) throw new ConflictError(`Campaign ${current.id} changed meanwhile; try again`);
    return { campaign: updated, changed: true };
  }

  lockedState(tx: Tx, campaignId: string): Promise<CampaignState | null> {
    return this.repository.lockedState(tx, campaignId);
  }

  lockedStates(tx: Tx, campaignIds: string[]): Promise<Map<string, CampaignState>> {
    return this.repository.lockedStates(tx, campaignIds);
  }

  pausedIds(): Promise<string[]> {
    return this.repository.pausedIds();
  }

  async rotateWebhookSecret(organizationId: string, campaignId: string): Promise<Campaign> {
    const current = await this.get(organizationId, campaignId);
    const updated = await this.repository.setWebhookSecret(
      organizationId,
      current.id,
      generateWebhookSecret(),
      this.clock.now(),
    );
    this.recent.forget(current.id);
    if (!updated) throw new NotFoundError(`Campaign ${campaignId} not found`);
    return updated;
  }

  /**
   * The connections of the campaign's calls and texts, when given: only the organization's own
   * (another's is as unknown as a missing one).
   */
  private async checkProviderConnections(
    organizationId: string,
    campaign: Pick<CampaignChanges, 'providerConnectionId' | 'smsFollowUp'>,
  ): Promise<void> {
    const given: [string | null | undefined, string[]][] = [
      [campaign.providerConnectionId, ['provider_connection_id']],
      [campaign.smsFollowUp?.provider_connection_id, ['sms_follow_up', 'provider_connection_id']],
    ];
    for (const [id, field] of given) {
      if (id === undefined || id === null) continue;
      const found = await this.connections.get(organizationId, id).then(
        () => true,
        (err: unknown) => {
          if (err instanceof NotFoundError) return false;
          throw err;
        },
      );
      if (!found) throw new InvalidInputError(`provider connection ${id} not found`, field, id);
    }
  }

  private async checkBlacklists(organizationId: string, ids: string[]): Promise<void> {
    const known = await this.blacklists.existingIds(organizationId, ids);
    const index = ids.findIndex((id) => !known.has(id));
    if (index >= 0) {
      throw new InvalidInputError(
        `blacklist ${ids[index]} not found`,
        ['blacklist_ids', index],
        ids[index],
      );
    }
  }
}

function checkEntryStep(steps: CampaignStep[], entryStep: string | null): void {
  if (entryStep !== null && !steps.some((s) => s.friendly_id === entryStep)) {
    throw new InvalidInputError(
      `entry_step "${entryStep}" is not one of the campaign's steps`,
      ['entry_step'],
      entryStep,
    );
  }
}
