import { Injectable } from '@nestjs/common';
import { NotFoundError } from '../../../common/errors/domain-errors.js';
import { canonicalUuid } from '../../../common/ids/canonical-uuid.js';
import { JobQueue } from '../../../common/jobs/job-queue.js';
import { Tx } from '../../../common/persistence/unit-of-work.js';
import { TargetService } from '../../target/application/target.service.js';
import { Message, MessageStatus, renderTextTemplate } from '../domain/message.js';
import { FollowUpText, FollowUpTexts } from './ports/follow-up-texts.js';
import { MessageRepository } from './ports/message.repository.js';
import { textJob } from './text-queue.js';
import { InboundText, TextReceipts } from './text-receipts.js';
import { TextSending } from './text-sending.js';
import { TextSettlement } from './text-settlement.js';

export { MessagingSettings } from './messaging-settings.js';
export { TEXT_QUEUE, type TextJob } from './text-queue.js';
export type { InboundText } from './text-receipts.js';

/**
 * Texts (docs/calling.md, Texts): follow-up texts queued after calls, sent when the calling rules allow
 * (quiet hours in the recipient's zones, restricted dates, the do-not-call list), through the
 * connection's provider; then the target goes on as the call decided. Owns the `messages` table.
 * Sending (`TextSending`), receiving (`TextReceipts`) and settling (`TextSettlement`) are units of
 * their own; this service is the module's one entry.
 */
@Injectable()
export class MessagingService extends FollowUpTexts {
  constructor(
    private readonly messages: MessageRepository,
    private readonly jobs: JobQueue,
    private readonly targets: TargetService,
    private readonly sending: TextSending,
    private readonly receipts: TextReceipts,
    private readonly settlement: TextSettlement,
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
        body: renderTextTemplate(t.campaign.smsFollowUp?.template ?? '', t.target),
        continuation: t.continuation,
        now: t.now,
      })),
    );
    await this.jobs.enqueue(
      tx,
      queued.map((m) => textJob(m.id)),
    );
  }

  /**
   * Sends a queued text when the rules allow it now; holds it (a job at the rules' next opening) when
   * they allow it later; fails it when they never will. Safe to run twice: only a `queued` text that no
   * other sender holds is sent. The simulator's reply is received as any text is.
   */
  async send(messageId: string): Promise<void> {
    const reply = await this.sending.send(messageId);
    if (reply) await this.receipts.receive(reply);
  }

  /**
   * A text received from a recipient, in one transaction: recorded against the target whose text it
   * answers (the latest sent to its sender), an opt-out puts the number on the do-not-call list at
   * once, HELP is answered with the connection's help reply, and a matched reply is sent as
   * `message.received`. A replay of a recorded provider message id changes nothing (null).
   */
  receive(inbound: InboundText): Promise<Message | null> {
    return this.receipts.receive(inbound);
  }

  /**
   * A provider's status report on a text it sent: applied only when it moves the text forward, so
   * reports that arrive out of order never move it back; a final status is sent as `message.status`.
   * False: no text of the provider has that id.
   */
  report(
    provider: string,
    providerMessageId: string,
    report: { status: MessageStatus; errorCode: string | null; errorMessage: string | null },
  ): Promise<boolean> {
    return this.settlement.report(provider, providerMessageId, report);
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
}
