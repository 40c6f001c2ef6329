import { Injectable } from '@nestjs/common';
import { Clock } from '../../../common/clock/clock.js';
import { InvalidInputError, NotFoundError } from '../../../common/errors/domain-errors.js';
import { Tx, UnitOfWork } from '../../../common/persistence/unit-of-work.js';
import { CampaignReader } from '../../campaign/application/ports/campaign-reader.js';
import { CampaignStep, findStep } from '../../campaign/domain/campaign.js';
import {
  apiKeyActor,
  SYSTEM_ACTOR,
  TargetEventLog,
} from '../../target/application/ports/target-event-log.js';
import { TargetTransitions } from '../../target/application/ports/target-transitions.js';
import type { Target } from '../../target/domain/target.js';
import { canonicalUuid } from '../../../common/ids/canonical-uuid.js';
import { EhrEventType, statusAfterReceive, StepKind } from '../domain/step.js';
import {
  ReceivedStep,
  StepDataUpdate,
  TargetStepData,
  StepScope,
} from '../../target/application/ports/target-step-data.js';

/** Who posts: the organization scopes every lookup, the key is kept in the history. */
export interface StepCaller {
  organizationId: string;
  apiKeyId: string | null;
}

export interface BatchUpdate {
  target_id?: string | null;
  external_id?: string | null;
  input_data: Record<string, unknown>;
}

export interface NotFoundUpdate {
  index: number;
  target_id: string | null;
  external_id: string | null;
}

export interface BatchResult {
  updated: number;
  not_found: NotFoundUpdate[];
}

export interface EhrEventInput {
  event_type?: EhrEventType | null;
  event_data?: Record<string, unknown>;
  target_id?: string | null;
  external_id?: string | null;
}

export const TARGET_REF_REQUIRED = 'target_id or external_id is required';

/**
 * The three ways data reaches a campaign step. Each request is one transaction: the merge, the history
 * rows and the status moves (targets it schedules become due) commit together or not at all.
 */
@Injectable()
export class StepService {
  constructor(
    private readonly campaigns: CampaignReader,
    private readonly steps: TargetStepData,
    private readonly uow: UnitOfWork,
    private readonly transitions: TargetTransitions,
    private readonly clock: Clock,
    private readonly events: TargetEventLog,
  ) {}

  async receiveWebhookStep(
    caller: StepCaller,
    campaignId: string,
    targetId: string,
    friendlyId: string,
    data: Record<string, unknown>,
  ): Promise<Target> {
    const { scope, step } = await this.stepOf(caller, campaignId, friendlyId, 'webhook');
    const id = canonicalUuid(targetId);
    if (!id) throw targetNotFound();

    const now = this.clock.now();
    return this.uow.run(async (tx) => {
      const received = await this.receive(tx, caller, step, null, now);
      const applied = await this.steps.mergeStepData(tx, scope, received, [
        { index: 0, targetId: id, data },
      ]);
      if (applied.length === 0) throw targetNotFound();
      await this.moveOn(tx, scope, step, applied[0].waiting ? [id] : [], now);
      return (await this.transitions.findById(tx, scope.organizationId, id))!;
    });
  }

  /**
   * All or nothing: one merge statement (with its history rows), one statement for the status moves. Updates naming no target are reported, not failed.
   */
  async receiveWebhookStepBatch(
    caller: StepCaller,
    campaignId: string,
    friendlyId: string,
    updates: BatchUpdate[],
  ): Promise<BatchResult> {
    const { scope, step } = await this.stepOf(caller, campaignId, friendlyId, 'webhook');
    const missing = updates.findIndex((u) => !hasRef(u));
    if (missing >= 0)
      throw new InvalidInputError(TARGET_REF_REQUIRED, ['updates', missing], updates[missing]);

    const resolvable: StepDataUpdate[] = [];
    updates.forEach((u, index) => {
      const targetId = u.target_id == null ? null : canonicalUuid(u.target_id);
      // A malformed target id names no target: reported as not found without asking the database.
      if (u.target_id != null && targetId === null) return;
      resolvable.push({ index, targetId, externalId: u.external_id ?? null, data: u.input_data });
    });

    const now = this.clock.now();
    const applied = await this.uow.run(async (tx) => {
      const received = await this.receive(tx, caller, step, null, now);
      const result =
        resolvable.length === 0
          ? []
          : await this.steps.mergeStepData(tx, scope, received, resolvable);
      // Only targets waiting at this step move on: the others are left out of the status statement.
      const waiting = new Set(result.filter((a) => a.waiting).map((a) => a.targetId));
      await this.moveOn(tx, scope, step, [...waiting], now);
      return result;
    });

    const appliedIndexes = new Set(applied.map((a) => a.index));
    const notFound = updates.flatMap((u, index): NotFoundUpdate[] =>
      appliedIndexes.has(index)
        ? []
        : [{ index, target_id: u.target_id ?? null, external_id: u.external_id ?? null }],
    );
    return { updated: applied.length, not_found: notFound };
  }

  async receiveEhrEvent(
    caller: StepCaller,
    campaignId: string,
    friendlyId: string,
    input: EhrEventInput,
  ): Promise<{ eventId: string; target: Target }> {
    // A body rule, so checked before any lookup, as request validation would be.
    if (!hasRef(input)) throw new InvalidInputError(TARGET_REF_REQUIRED, [], input);
    const { scope, step } = await this.stepOf(caller, campaignId, friendlyId, 'ehr_event');
    const targetId = input.target_id == null ? null : canonicalUuid(input.target_id);
    if (input.target_id != null && targetId === null) throw targetNotFound();

    const now = this.clock.now();
    return this.uow.run(async (tx) => {
      const received = await this.receive(tx, caller, step, input.event_type ?? null, now);
      const recorded = await this.steps.recordEhrEvent(
        tx,
        scope,
        received,
        { targetId, externalId: input.external_id ?? null },
        input.event_data ?? {},
      );
      if (!recorded) throw targetNotFound();
      await this.moveOn(tx, scope, step, [recorded.targetId], now);
      const target = await this.transitions.findById(tx, scope.organizationId, recorded.targetId);
      return { eventId: recorded.eventId, target: target! };
    });
  }

  /** Unknown campaign or step: 404. A step of the other kind: 422 on the path, saying where to post. */
  private async stepOf(
    caller: StepCaller,
    campaignId: string,
    friendlyId: string,
    kind: StepKind,
  ): Promise<{ scope: StepScope; step: CampaignStep }> {
    const campaign = await this.campaigns.get(caller.organizationId, campaignId);
    const step = findStep(campaign, friendlyId);
    if (!step) throw new NotFoundError(`Step '${friendlyId}' not found in campaign`);
    if (step.type !== kind) {
      const where =
        step.type === 'ehr_event'
          ? `post its events to /api/v1/campaigns/{campaign_id}/ehr-event/${friendlyId}`
          : `post its data to /api/v1/campaigns/{campaign_id}/targets/{target_id}/step/${friendlyId}`;
      throw new InvalidInputError(
        `step '${friendlyId}' is a ${step.type} step, not a ${kind} step: ${where}`,
        ['friendly_id'],
        friendlyId,
      );
    }
    return { scope: { organizationId: campaign.organizationId, campaignId: campaign.id }, step };
  }

  private async moveOn(
    tx: Tx,
    scope: StepScope,
    step: CampaignStep,
    targetIds: string[],
    now: Date,
  ): Promise<void> {
    if (targetIds.length === 0) return;
    // Moved to `Scheduled` means due now: the calling engine is notified when this commits.
    await this.transitions.moveWaiting(
      tx,
      scope,
      targetIds,
      step.friendly_id,
      statusAfterReceive(step),
      now,
    );
  }

  /**
   * The step's data as received, for its history rows. The merge of a payload into input data is
   * recorded as the target's `step_data` event, and the move out of `Waiting` that follows as its
   * status change, both caused by the caller's key.
   */
  private async receive(
    tx: Tx,
    caller: StepCaller,
    step: CampaignStep,
    eventType: string | null,
    now: Date,
  ): Promise<ReceivedStep> {
    await this.events.attribute(tx, {
      actor: caller.apiKeyId ? apiKeyActor(caller.apiKeyId) : SYSTEM_ACTOR,
      reason: `step ${step.friendly_id} data received`,
      stepData: { step: step.friendly_id, ...(eventType ? { event_type: eventType } : {}) },
    });
    return {
      kind: step.type,
      friendlyId: step.friendly_id,
      eventType,
      apiKeyId: caller.apiKeyId,
      receivedAt: now,
    };
  }
}

function hasRef(u: { target_id?: string | null; external_id?: string | null }): boolean {
  return u.target_id != null || u.external_id != null;
}

function targetNotFound(): NotFoundError {
  return new NotFoundError('Target not found');
}
