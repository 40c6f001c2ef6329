import { Injectable, Logger } from '@nestjs/common';
import { Clock } from '../../../common/clock/clock.js';
import { JobQueue } from '../../../common/jobs/job-queue.js';
import { Tx, UnitOfWork } from '../../../common/persistence/unit-of-work.js';
import { CampaignReader } from '../../campaign/application/ports/campaign-reader.js';
import { TargetEventLog, WORKER } from '../../target/application/ports/target-event-log.js';
import { TargetTransitions } from '../../target/application/ports/target-transitions.js';
import type { TargetStatus } from '../../target/domain/target.js';
import { MessageEvent, Outbox } from '../../webhook/application/ports/outbox.js';
import { FINAL_STATUSES, Message, MessageStatus, TargetContinuation } from '../domain/message.js';
import { MessageRepository, SendOutcome } from './ports/message.repository.js';
import { textJob } from './text-queue.js';

/**
 * What becomes of a text once sending was tried, refused or held, and of the provider's later status
 * reports: the text's record, the target going on as its call decided, `message.status` when final.
 */
@Injectable()
export class TextSettlement {
  private readonly logger = new Logger('Texts');

  constructor(
    private readonly messages: MessageRepository,
    private readonly campaigns: CampaignReader,
    private readonly transitions: TargetTransitions,
    private readonly events: TargetEventLog,
    private readonly outbox: Outbox,
    private readonly jobs: JobQueue,
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  /**
   * A provider's status report on a text it sent: applied only when it moves the text forward, so
   * reports that arrive out of order never move it back; a final status is sent as `message.status`.
   * False: no text of the provider has that id.
   */
  async report(
    provider: string,
    providerMessageId: string,
    report: { status: MessageStatus; errorCode: string | null; errorMessage: string | null },
  ): Promise<boolean> {
    const now = this.clock.now();
    return this.uow.run(async (tx) => {
      const updated = await this.messages.advance(tx, provider, providerMessageId, report, now);
      // A report that does not move the text forward (late, repeated) changes nothing.
      if (!updated) return this.messages.hasProviderMessage(tx, provider, providerMessageId);
      if (FINAL_STATUSES.includes(updated.status)) {
        await recordMessageEvent(this.outbox, tx, 'message.status', updated, now);
      }
      return true;
    });
  }

  /** Holds a text the rules allow later: a job at their next opening sends it again. */
  async hold(text: Message, until: Date, reason: string): Promise<void> {
    await this.uow.run(async (tx) => {
      await this.messages.hold(tx, text.id, until);
      await this.jobs.enqueue(tx, { ...textJob(text.id), startAfter: until });
    });
    this.logger.log({ messageId: text.id, until }, `text held: ${reason}`);
  }

  /**
   * Records what sending did; the target goes on as its call decided (a retry of a campaign cancelled
   * meanwhile ends instead); a final status is sent as `message.status`. One transaction.
   */
  async settle(text: Message, outcome: SendOutcome): Promise<void> {
    await this.uow.run(async (tx) => {
      const updated = await this.messages.recordSend(tx, text.id, outcome);
      if (!updated) return;
      this.logger.log(
        {
          messageId: updated.id,
          targetId: updated.targetId,
          provider: updated.provider,
          status: updated.status,
          errorCode: updated.errorCode,
        },
        'text settled',
      );
      if (updated.campaignId && updated.targetId && updated.continuation) {
        // The share lock closes the race with a cancel, as the calls' completion does.
        const state = await this.campaigns.lockedState(tx, updated.campaignId);
        const { next, ifCancelled } = updated.continuation;
        const then = state === 'cancelled' && next.status === 'Scheduled' ? ifCancelled : next;
        await this.events.attribute(tx, {
          actor: WORKER,
          reason: continuationWords(updated, then),
        });
        await this.transitions.continueAfterTexts(tx, [
          {
            organizationId: updated.organizationId,
            targetId: updated.targetId,
            status: then.status as TargetStatus,
            resolution: then.resolution,
            category: then.category,
            subcategory: then.subcategory,
            outcome: then.outcome,
            retryAt: then.retryAt === null ? null : new Date(then.retryAt),
            now: outcome.now,
          },
        ]);
      }
      if (FINAL_STATUSES.includes(updated.status)) {
        await recordMessageEvent(this.outbox, tx, 'message.status', updated, outcome.now);
      }
    });
  }
}

/** The timeline's words for a target leaving `SMS Scheduled`. */
function continuationWords(text: Message, then: TargetContinuation): string {
  const error = text.errorCode ? ` (${text.errorCode})` : '';
  const next =
    then.status === 'Scheduled' && then.retryAt
      ? `next attempt due ${then.retryAt.slice(0, 16).replace('T', ' ')} UTC`
      : then.status.toLowerCase();
  return `follow-up text ${text.status}${error}; ${next}`;
}

/**
 * Records in `tx` the webhook event `type` of a text (`message.status`: it reached its final status;
 * `message.received`: a reply was matched). Only a text of a campaign's target has one.
 */
export async function recordMessageEvent(
  outbox: Outbox,
  tx: Tx,
  type: MessageEvent['type'],
  text: Message,
  at: Date,
): Promise<void> {
  if (!text.campaignId || !text.targetId) return;
  await outbox.record(tx, [
    {
      kind: 'message',
      event: {
        type,
        organizationId: text.organizationId,
        campaignId: text.campaignId,
        targetId: text.targetId,
        messageId: text.id,
        direction: text.direction,
        status: text.status,
        errorCode: text.errorCode,
        at,
      },
    },
  ]);
}
