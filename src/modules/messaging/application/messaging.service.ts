import { Injectable, Logger } from '@nestjs/common';
import { Clock } from '../../../common/clock/clock.js';
import { normalizePhoneNumber } from '../../../common/phone/phone-number.js';
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
  MessageStatus,
  replyKeyword,
  renderTextTemplate,
  TargetContinuation,
  TEXT_REFUSALS,
  TextRefusal,
} from '../domain/message.js';
import { FollowUpText, FollowUpTexts } from './ports/follow-up-texts.js';
import { MessageRepository, SendOutcome } from './ports/message.repository.js';
import { TextSenders } from './ports/text-senders.js';
import { TranscriptRedactionService } from '../../retention/application/transcript-redaction.service.js';

/** The job that sends one queued text (and sends it again after a hold). */
export const TEXT_QUEUE = 'text-send';

export interface TextJob {
  messageId: string;
}

/** A text a provider received for one of the organization's numbers. */
export interface InboundText {
  organizationId: string;
  /** The connection it came through (null: the simulator). */
  connectionId: string | null;
  provider: string;
  providerMessageId: string;
  from: string;
  to: string;
  body: string;
  /** The connection's answer to HELP (null: none is sent). */
  helpReply: string | null;
}

/** Where providers post texts' status reports and inbound texts; how many texts a worker sends at once. */
export class MessagingSettings {
  constructor(
    readonly publicBaseUrl: string,
    readonly concurrency: number,
  ) {}

  /** `POST /api/v1/telephony/{connection_id}/messages` of the connection (null: the simulator). */
  statusCallbackUrl(connection: { id: string } | null): string | null {
    return connection ? `${this.publicBaseUrl}/api/v1/telephony/${connection.id}/messages` : null;
  }
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
    private readonly settings: MessagingSettings,
    private readonly redaction: TranscriptRedactionService,
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
    let reply: string | null = null;
    try {
      const { reply: simulated, ...sent } = await sender.send({
        to: text.to,
        from,
        body: text.body,
        statusCallbackUrl: this.settings.statusCallbackUrl(connection),
      });
      outcome = { ...base, ...sent, now: this.clock.now() };
      reply = simulated ?? null;
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
    if (reply !== null && outcome.from !== null) {
      await this.receive({
        organizationId: text.organizationId,
        connectionId: connection?.id ?? null,
        provider: sender.provider,
        providerMessageId: `${outcome.providerMessageId}-reply`,
        from: text.to,
        to: outcome.from,
        body: reply,
        helpReply: null,
      });
    }
  }

  /**
   * A text received from a recipient, in one transaction: recorded against the target whose text it
   * answers (the latest sent to its sender), an opt-out puts the number on the do-not-call list at
   * once, HELP is answered with the connection's help reply, and a matched reply is sent as
   * `message.received`. A replay of a recorded provider message id changes nothing (null).
   */
  async receive(inbound: InboundText): Promise<Message | null> {
    const now = this.clock.now();
    const from = normalizePhoneNumber(inbound.from) ?? inbound.from;
    const keyword = replyKeyword(inbound.body);
    return this.uow.run(async (tx) => {
      const answered = await this.messages.latestOutboundTo(tx, inbound.organizationId, from);
      // Redacted before it is written when the policy says so: the original is kept nowhere.
      const body = await this.redaction.redactInboundText(tx, {
        organizationId: inbound.organizationId,
        targetId: answered?.targetId ?? null,
        from,
        body: inbound.body,
      });
      const message = await this.messages.insertInbound(tx, {
        organizationId: inbound.organizationId,
        campaignId: answered?.campaignId ?? null,
        targetId: answered?.targetId ?? null,
        providerConnectionId: inbound.connectionId,
        provider: inbound.provider,
        providerMessageId: inbound.providerMessageId,
        from,
        to: inbound.to,
        body,
        keyword,
        now,
      });
      if (!message) return null;
      this.logger.log(
        { messageId: message.id, targetId: message.targetId, keyword },
        'text received',
      );
      if (keyword === 'opt_out') {
        await this.doNotCall.addFromText(tx, {
          organizationId: message.organizationId,
          phoneNumber: from,
          messageId: message.id,
          campaignId: message.campaignId,
          targetId: message.targetId,
          at: now,
        });
      }
      if (keyword === 'help' && inbound.helpReply) {
        const [reply] = await this.messages.insertOutbound(tx, [
          {
            organizationId: message.organizationId,
            campaignId: message.campaignId,
            targetId: message.targetId,
            callLogId: null,
            providerConnectionId: inbound.connectionId,
            to: from,
            body: inbound.helpReply,
            continuation: null,
            now,
          },
        ]);
        await this.jobs.enqueue(tx, {
          queue: TEXT_QUEUE,
          data: { messageId: reply.id } satisfies TextJob,
        });
      }
      if (message.campaignId && message.targetId) {
        await this.outbox.recordAll(tx, [
          {
            type: 'message.received',
            organizationId: message.organizationId,
            campaignId: message.campaignId,
            targetId: message.targetId,
            messageId: message.id,
            direction: 'inbound',
            status: 'received',
            errorCode: null,
            at: now,
          },
        ]);
      }
      return message;
    });
  }

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
      if (FINAL_STATUSES.includes(updated.status)) await this.recordFinal(tx, updated, now);
      return true;
    });
  }

  async get(organizationId: string, messageId: string): Promise<Message> {
    const id = canonicalUuid(messageId);
    const message = id ? await this.messages.findById(null, organizationId, id) : null;
    if (!message) throw new NotFoundError(`Message ${messageId} not found`);
    return message;
  }

  /**
   * The target's texts, oldest first (NotFoundError: no such target in the organization, or beyond
   * `campaignIds` when given).
   */
  async listForTarget(
    organizationId: string,
    targetId: string,
    campaignIds: string[] | null = null,
  ): Promise<Message[]> {
    const target = await this.targets.get(organizationId, targetId);
    if (campaignIds && !campaignIds.includes(target.campaignId)) {
      throw new NotFoundError(`Target ${targetId} not found`);
    }
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
      if (FINAL_STATUSES.includes(updated.status)) await this.recordFinal(tx, updated, outcome.now);
    });
  }

  /** `message.status` for a text that reached its final status (a text of a campaign's target). */
  private async recordFinal(tx: Tx, text: Message, at: Date): Promise<void> {
    if (!text.campaignId || !text.targetId) return;
    await this.outbox.recordAll(tx, [
      {
        type: 'message.status',
        organizationId: text.organizationId,
        campaignId: text.campaignId,
        targetId: text.targetId,
        messageId: text.id,
        direction: text.direction,
        status: text.status,
        errorCode: text.errorCode,
        at,
      },
    ]);
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
