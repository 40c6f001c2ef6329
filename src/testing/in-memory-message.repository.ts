import { randomUUID } from 'crypto';
import { Tx } from '../common/persistence/unit-of-work.js';
import {
  MessageRepository,
  NewInboundText,
  NewOutboundText,
  SendOutcome,
} from '../modules/messaging/application/ports/message.repository.js';
import {
  advancesStatus,
  FINAL_STATUSES,
  Message,
  MessageStatus,
} from '../modules/messaging/domain/message.js';
import type { Snapshottable } from './in-memory-unit-of-work.js';
import { clone, compareIds } from './in-memory-rows.js';
const SENT: readonly MessageStatus[] = ['sent', 'delivered', 'undelivered'];

/** The columns a new text of either direction starts with alike. */
const newRow = (t: NewOutboundText | NewInboundText) => ({
  id: randomUUID(),
  organizationId: t.organizationId,
  campaignId: t.campaignId,
  targetId: t.targetId,
  providerConnectionId: t.providerConnectionId,
  to: t.to,
  body: t.body,
  errorCode: null,
  errorMessage: null,
  sendAfter: null,
  createdAt: t.now,
  updatedAt: t.now,
  sentAt: null,
});

/** The `messages` table in memory, with the SQL adapter's guards (see the contract suite). */
export class InMemoryMessageRepository
  extends MessageRepository
  implements Snapshottable<Message[]>
{
  private messages: Message[] = [];
  /** When each queued text was taken for sending (the adapter's `sending_since`). */
  private sending = new Map<string, Date>();

  /** The live rows, for the retention fake that purges them (as its SQL adapter updates the table). */
  table(): Message[] {
    return this.messages;
  }

  snapshot(): Message[] {
    return this.messages.map(clone);
  }

  restore(state: Message[]): void {
    this.messages = state.map(clone);
  }

  async insertOutbound(_tx: Tx, texts: NewOutboundText[]): Promise<Message[]> {
    const added = texts.map((t): Message => ({
      ...newRow(t),
      callLogId: t.callLogId,
      provider: null,
      direction: 'outbound',
      from: null,
      status: 'queued',
      providerMessageId: null,
      keyword: null,
      continuation: t.continuation,
      settledAt: null,
    }));
    this.messages.push(...added);
    return added.map(clone);
  }

  async insertInbound(_tx: Tx, t: NewInboundText): Promise<Message | null> {
    if (this.byProviderId(t.provider, t.providerMessageId)) return null;
    const message: Message = {
      ...newRow(t),
      callLogId: null,
      provider: t.provider,
      direction: 'inbound',
      from: t.from,
      status: 'received',
      providerMessageId: t.providerMessageId,
      keyword: t.keyword,
      continuation: null,
      settledAt: t.now,
    };
    this.messages.push(message);
    return clone(message);
  }

  async latestOutboundTo(_tx: Tx, organizationId: string, phoneNumber: string) {
    const latest = this.messages
      .filter(
        (m) =>
          m.organizationId === organizationId && m.to === phoneNumber && m.direction === 'outbound',
      )
      .reduce<Message | null>((a, m) => (a && a.createdAt >= m.createdAt ? a : m), null);
    return latest ? clone(latest) : null;
  }

  async advance(
    _tx: Tx,
    provider: string,
    providerMessageId: string,
    report: { status: MessageStatus; errorCode: string | null; errorMessage: string | null },
    now: Date,
  ): Promise<Message | null> {
    const m = this.byProviderId(provider, providerMessageId);
    if (!m || m.direction !== 'outbound' || !advancesStatus(m.status, report.status)) return null;
    Object.assign(m, {
      status: report.status,
      errorCode: report.errorCode ?? m.errorCode,
      errorMessage: report.errorMessage ?? m.errorMessage,
      updatedAt: now,
      sentAt: m.sentAt ?? (SENT.includes(report.status) ? now : null),
      settledAt: FINAL_STATUSES.includes(report.status) ? now : null,
    });
    return clone(m);
  }

  async hasProviderMessage(_tx: Tx, provider: string, providerMessageId: string) {
    return this.byProviderId(provider, providerMessageId) !== undefined;
  }

  async findById(_tx: Tx | null, organizationId: string | null, id: string) {
    const m = this.messages.find(
      (x) => x.id === id && (organizationId === null || x.organizationId === organizationId),
    );
    return m ? clone(m) : null;
  }

  async listForTarget(organizationId: string, targetId: string): Promise<Message[]> {
    return this.messages
      .filter((m) => m.organizationId === organizationId && m.targetId === targetId)
      .sort(
        (a, b) =>
          a.createdAt.getTime() - b.createdAt.getTime() ||
          Number(a.direction === 'outbound') - Number(b.direction === 'outbound') ||
          compareIds(a.id, b.id),
      )
      .map(clone);
  }

  async claimForSending(id: string, now: Date, leaseMs: number): Promise<Message | null> {
    const m = this.messages.find((x) => x.id === id);
    const since = this.sending.get(id);
    if (!m || m.status !== 'queued') return null;
    if (since && since.getTime() >= now.getTime() - leaseMs) return null;
    this.sending.set(id, now);
    return clone(m);
  }

  async hold(_tx: Tx, id: string, until: Date): Promise<void> {
    const m = this.messages.find((x) => x.id === id && x.status === 'queued');
    if (m) {
      m.sendAfter = until;
      this.sending.delete(id);
    }
  }

  async recordSend(_tx: Tx, id: string, o: SendOutcome): Promise<Message | null> {
    const m = this.messages.find((x) => x.id === id && x.status === 'queued');
    if (!m) return null;
    Object.assign(m, {
      provider: o.provider,
      providerConnectionId: o.providerConnectionId,
      from: o.from,
      status: o.status,
      providerMessageId: o.providerMessageId,
      errorCode: o.errorCode,
      errorMessage: o.errorMessage,
      updatedAt: o.now,
      sentAt: SENT.includes(o.status) ? o.now : null,
      settledAt: FINAL_STATUSES.includes(o.status) ? o.now : null,
    });
    this.sending.delete(id);
    return clone(m);
  }

  private byProviderId(provider: string, providerMessageId: string): Message | undefined {
    return this.messages.find(
      (m) => m.provider === provider && m.providerMessageId === providerMessageId,
    );
  }
}
