import { Injectable, Logger } from '@nestjs/common';
import { Clock } from '../../../common/clock/clock.js';
import { NotFoundError } from '../../../common/errors/domain-errors.js';
import { CampaignReader } from '../../campaign/application/ports/campaign-reader.js';
import { ProviderConnectionService } from '../../provider-connection/application/provider-connection.service.js';
import type { ResolvedConnection } from '../../provider-connection/domain/provider-connection.js';
import { Message, TEXT_REFUSALS, TextRefusal } from '../domain/message.js';
import { MessagingSettings } from './messaging-settings.js';
import { MessageRepository, SendOutcome } from './ports/message.repository.js';
import { TextSenders } from './ports/text-senders.js';
import { TextPermission } from './text-permission.js';
import type { InboundText } from './text-receipts.js';
import { TextSettlement } from './text-settlement.js';

/** How long a sender owns a text it took: a sender that died leaves it to the next run after this. */
const SENDING_LEASE_MS = 60_000;

/** Sending one queued text through its connection's provider, when the rules allow it. */
@Injectable()
export class TextSending {
  private readonly logger = new Logger('Texts');

  constructor(
    private readonly messages: MessageRepository,
    private readonly campaigns: CampaignReader,
    private readonly permission: TextPermission,
    private readonly connections: ProviderConnectionService,
    private readonly senders: TextSenders,
    private readonly settings: MessagingSettings,
    private readonly settlement: TextSettlement,
    private readonly clock: Clock,
  ) {}

  /**
   * Sends a queued text when the rules allow it now; holds it (a job at the rules' next opening) when
   * they allow it later; fails it when they never will. Safe to run twice: only a `queued` text that no
   * other sender holds is sent. Returns the simulator's reply, to be received as a text (else null).
   */
  async send(messageId: string): Promise<InboundText | null> {
    const text = await this.messages.claimForSending(messageId, this.clock.now(), SENDING_LEASE_MS);
    if (!text) return null;
    const campaign = text.campaignId ? await this.campaigns.findById(text.campaignId) : null;
    if (campaign?.state === 'cancelled') return this.refuse(text, 'campaign_cancelled');
    const decision = await this.permission.decide(text);
    if (decision.kind === 'refuse') {
      const code = decision.rule === 'do_not_call' ? 'do_not_call' : 'calling_rules';
      return this.refuse(text, code, decision.reason);
    }
    if (decision.kind === 'defer') {
      await this.settlement.hold(text, decision.until, decision.reason);
      return null;
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
    const fromNumber = connection?.settings.from_number;
    const from = typeof fromNumber === 'string' ? fromNumber : (campaign?.callerId ?? null);
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
    await this.settlement.settle(text, outcome);
    if (reply === null || outcome.from === null) return null;
    return {
      organizationId: text.organizationId,
      connectionId: connection?.id ?? null,
      provider: sender.provider,
      providerMessageId: `${outcome.providerMessageId}-reply`,
      from: text.to,
      to: outcome.from,
      body: reply,
      helpReply: null,
    };
  }

  /** Fails a text our rules (or its connection) stopped; `code` says which. Null: no reply. */
  private async refuse(text: Message, code: TextRefusal, reason?: string): Promise<null> {
    await this.settlement.settle(text, {
      provider: null,
      providerConnectionId: text.providerConnectionId,
      from: null,
      status: 'failed',
      providerMessageId: null,
      errorCode: code,
      errorMessage: reason ?? TEXT_REFUSALS[code],
      now: this.clock.now(),
    });
    return null;
  }
}
