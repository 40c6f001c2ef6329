import { Injectable, Logger } from '@nestjs/common';
import { Clock } from '../../../common/clock/clock.js';
import { NotFoundError } from '../../../common/errors/domain-errors.js';
import { canonicalUuid } from '../../../common/ids/canonical-uuid.js';
import { JobQueue } from '../../../common/jobs/job-queue.js';
import { Tx, UnitOfWork } from '../../../common/persistence/unit-of-work.js';
import { CampaignReader } from '../../campaign/application/ports/campaign-reader.js';
import { ComplianceService } from '../../compliance/application/compliance.service.js';
import { DoNotCallService } from '../../compliance/application/do-not-call.service.js';
import { ProviderConnectionService } from '../../provider-connection/application/provider-connection.service.js';
import type { ResolvedConnection } from '../../provider-connection/domain/provider-connection.js';
import { TargetEventLog, WORKER } from '../../target/application/ports/target-event-log.js';
import { TargetTransitions } from '../../target/application/ports/target-transitions.js';
import { TargetService } from '../../target/application/target.service.js';
import type { TargetStatus } from '../../target/domain/target.js';
import { MessageEventOutbox } from '../../webhook/application/ports/message-event-outbox.js';
import { decideText } from '../domain/text-rules.js';
import {
  FINAL_STATUSES,
  Message,
  renderTextTemplate,
  TargetContinuation,
  TEXT_REFUSALS,
  TextRefusal,
} from '../domain/message.js';
import { FollowUpText, FollowUpTexts } from './ports/follow-up-texts.js';
import { MessageRepository, SendOutcome } from './ports/message.repository.js';
import { TextSenders } from './ports/text-senders.js';

/** The job that sends one queued text (and sends it again after a hold). */
export const TEXT_QUEUE = 'text-send';

export interface TextJob {
  messageId: string;
}

/** How long a sender owns a text it took: a sender that died leaves it to the next run after this. */
const SENDING_LEASE_MS = 60_000;

/**
 * Texts (docs/calling.md, Texts): follow-up texts queued after calls, sent when the calling rules allow
 * (quiet hours in the recipient's zones, restricted dates, the do-not-call list), through the
 * connection's provider; then the target goes on as the call decided. Owns the `messages` table.
 */
@Injectable()
export class MessagingService extends FollowUpTexts {
  private readonly logger = new Logger('Texts');

  constructor(
    private readonly messages: MessageRepository,
    private readonly senders: TextSenders,
    private readonly jobs: JobQueue,
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
    private readonly campaigns: CampaignReader,
    private readonly targets: TargetService,
    private readonly transitions: TargetTransitions,
    private readonly events: TargetEventLog,
    private readonly compliance: ComplianceService,
    private readonly doNotCall: DoNotCallService,
    private readonly connections: ProviderConnectionService,
    private readonly outbox: MessageEventOutbox,
  ) {
    super();
  }

  /** Queues the texts and their send jobs in `tx` (the calls' completion). */
  async queueFollowUps(tx: Tx, texts: FollowUpText[]): Promise<void> {
    if (texts.length === 0) return;
    const queued = await this.messages.insertOutbound(
      tx,
      texts.map((t) => ({
        organizationId: t.target.organizationId,
        campaignId: t.campaign.id,
        targetId: t.target.id,
        callLogId: t.callLogId,
        providerConnectionId:
          t.campaign.smsFollowUp?.provider_connection_id ?? t.campaign.providerConnectionId,
        to: t.to,
        body: renderTextTemplate(t.campaign.smsFollowUp?.template ?? '', t.target.inputData),
        continuation: t.continuation,
        now: t.now,
      })),
    );
    await this.jobs.enqueue(
      tx,
      queued.map((m) => ({ queue: TEXT_QUEUE, data: { messageId: m.id } satisfies TextJob })),
    );
  }

  /**
   * Sends a queued text when the rules allow it now; holds it (a job at the rules' next opening) when
   * they allow it later; fails it when they never will. Safe to run twice: only a `queued` text that no
   * other sender holds is sent.
   */
  async send(messageId: string): Promise<void> {
    const text = await this.messages.claimForSending(messageId, this.clock.now(), SENDING_LEASE_MS);
    if (!text) return;
    const campaign = text.campaignId ? await this.campaigns.findById(text.campaignId) : null;
    if (campaign?.state === 'cancelled') return this.refuse(text, 'campaign_cancelled');
    const target = text.targetId
      ? await this.transitions.findById(null, text.organizationId, text.targetId)
      : null;
    const now = this.clock.now();
    const policy = await this.compliance.policyForCalls(text.organizationId);
    const place = this.compliance.place(target?.timeZone ?? null, text.to, policy);
    const listed = await this.doNotCall.listedAmong(null, text.organizationId, [text.to]);
    const decision = decideText({
      now,
      policy,
      zones: place.zones,
      doNotCallSince: listed.get(text.to) ?? null,
    });
    if (decision.kind === 'refuse') {
      return this.refuse(
        text,
        decision.rule === 'do_not_call' ? 'do_not_call' : 'calling_rules',
        decision.reason,
      );
    }
    if (decision.kind === 'defer') {
      await this.uow.run(async (tx) => {
        await this.messages.hold(tx, text.id, decision.until);
        await this.jobs.enqueue(tx, {
          queue: TEXT_QUEUE,
          data: { messageId: text.id } satisfies TextJob,
          startAfter: decision.until,
        });
      });
      this.logger.log(
        { messageId: text.id, until: decision.until },
        `text held: ${decision.reason}`,
      );
      return;
    }
    let connection: ResolvedConnection | null;
    try {
      connection = await this.connections.resolve(text.organizationId, text.providerConnectionId);
    } catch (err) {
      if (!(err instanceof NotFoundError)) throw err;
      return this.refuse(text, 'provider_error', 'The provider connection no longer exists');
    }
    const sender = this.senders.forConnection(connection);
    if (!sender) return this.refuse(text, 'texts_not_supported');
    const from =
      (typeof connection?.settings.from_number === 'string'
        ? connection.settings.from_number
        : null) ??
      campaign?.callerId ??
      null;
    const base = { provider: sender.provider, providerConnectionId: connection?.id ?? null };
    let outcome: SendOutcome;
    try {
      const sent = await sender.send({ to: text.to, from, body: text.body });
      outcome = { ...base, ...sent, now: this.clock.now() };
    } catch (err) {
      this.logger.warn({ messageId: text.id, err }, 'text not sent');
      outcome = {
        ...base,
        from,
        status: 'failed',
        providerMessageId: null,
        errorCode: 'provider_error',
        errorMessage: err instanceof Error ? err.message : String(err),
        now: this.clock.now(),
      };
    }
    await this.settle(text, outcome);
  }

  async get(organizationId: string, messageId: string): Promise<Message> {
    const id = canonicalUuid(messageId);
    const message = id ? await this.messages.findById(null, organizationId, id) : null;
    if (!message) throw new NotFoundError(`Message ${messageId} not found`);
    return message;
  }

  /** The target's texts, oldest first (NotFoundError: no such target in the organization). */
  async listForTarget(organizationId: string, targetId: string): Promise<Message[]> {
    const target = await this.targets.get(organizationId, targetId);
    return this.messages.listForTarget(organizationId, target.id);
  }

  private refuse(text: Message, code: TextRefusal, reason?: string): Promise<void> {
    return this.settle(text, {
      provider: null,
      providerConnectionId: text.providerConnectionId,
      from: null,
      status: 'failed',
      providerMessageId: null,
      errorCode: code,
      errorMessage: reason ?? TEXT_REFUSALS[code],
      now: this.clock.now(),
    });
  }

  /**
   * Records what sending did; the target goes on as its call decided (a retry of a campaign cancelled
   * meanwhile ends instead); a final status is sent as `message.status`. One transaction.
   */
  private async settle(text: Message, outcome: SendOutcome): Promise<void> {
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
      if (FINAL_STATUSES.includes(updated.status) && updated.campaignId && updated.targetId) {
        await this.outbox.recordAll(tx, [
          {
            type: 'message.status',
            organizationId: updated.organizationId,
            campaignId: updated.campaignId,
            targetId: updated.targetId,
            messageId: updated.id,
            direction: updated.direction,
            status: updated.status,
            errorCode: updated.errorCode,
            at: outcome.now,
          },
        ]);
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
