import { Injectable, Logger } from '@nestjs/common';
import { Clock } from '../../../common/clock/clock.js';
import { JobQueue } from '../../../common/jobs/job-queue.js';
import { UnitOfWork } from '../../../common/persistence/unit-of-work.js';
import { normalizePhoneNumber } from '../../../common/phone/phone-number.js';
import { DoNotCallService } from '../../compliance/application/do-not-call.service.js';
import { Outbox } from '../../webhook/application/ports/outbox.js';
import { Message, replyKeyword } from '../domain/message.js';
import { MessageRepository } from './ports/message.repository.js';
import { recordMessageEvent } from './text-settlement.js';
import { textJob } from './text-queue.js';
import { TranscriptRedactionService } from '../../retention/application/transcript-redaction.service.js';

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

/** Texts received from recipients: replies, opt-outs and HELP. */
@Injectable()
export class TextReceipts {
  private readonly logger = new Logger('Texts');

  constructor(
    private readonly messages: MessageRepository,
    private readonly doNotCall: DoNotCallService,
    private readonly outbox: Outbox,
    private readonly jobs: JobQueue,
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
    private readonly redaction: TranscriptRedactionService,
  ) {}

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
        await this.jobs.enqueue(tx, textJob(reply.id));
      }
      await recordMessageEvent(this.outbox, tx, 'message.received', message, now);
      return message;
    });
  }
}
