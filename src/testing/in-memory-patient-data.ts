import type { Tx } from '../common/persistence/unit-of-work.js';
import type { CallLog } from '../modules/call-log/domain/call-log.js';
import type { Message } from '../modules/messaging/domain/message.js';
import {
  CallLogData,
  ComplianceData,
  MessageData,
  WebhookData,
} from '../modules/retention/application/ports/patient-data-holders.js';
import type {
  PatientCallLog,
  PatientDecision,
  PatientDoNotCallEntry,
  PatientMessage,
} from '../modules/retention/domain/patient-record.js';
import type { RetentionPart } from '../modules/retention/domain/retention-policy.js';
import type { InMemoryCallLogRepository } from './in-memory-call-log.repository.js';
import type { InMemoryDecisionLog } from './in-memory-compliance.js';
import type { InMemoryDoNotCallRepository } from './in-memory-do-not-call.repository.js';
import type { InMemoryMessageRepository } from './in-memory-message.repository.js';
import type { InMemoryWebhookDeliveryRepository } from './in-memory-webhook-delivery.repository.js';
import { byCreatedThenId, clone } from './in-memory-rows.js';

/**
 * The retention module's holders over the other modules' fakes: each blanks and reads the rows of
 * its fake as its SQL adapter does its table (test/contracts/patient-data.contract.ts runs the same
 * suite against both). A part a table holds nothing of changes nothing and counts nothing.
 */

/** What each part blanks on a call log (call-log-data.sql.ts); outcomes, dates, durations stay. */
const CALL_LOG_BLANKS: Partial<Record<RetentionPart, (l: CallLog) => void>> = {
  transcripts: (l) => Object.assign(l, { transcripts: [], postCallData: null, qa: null }),
  recordings: (l) => Object.assign(l, { recordingUrls: [] }),
  input_data: (l) => Object.assign(l, { agentData: {}, outputData: null }),
  finished_targets: (l) => Object.assign(l, { to: '' }),
};

/** What each part blanks on a text (message-data.sql.ts): its body, or the person's number on it. */
const MESSAGE_BLANKS: Partial<Record<RetentionPart, (m: Message) => void>> = {
  messages: (m) => Object.assign(m, { body: '' }),
  finished_targets: (m) => blankPersonNumber(m),
};

/** The person's number on a text: the recipient of one sent, the sender of one received. */
function blankPersonNumber(m: Message): void {
  if (m.direction === 'outbound') m.to = '';
  else m.from = null;
}

/**
 * Applies the blanks of `parts` to `rows` as one `UPDATE` would, answering `{ [table]: n }` with
 * every row matched (changed or already blank), or nothing when no part touches the table.
 */
function blankRows<T>(
  table: string,
  rows: T[],
  blanks: Partial<Record<RetentionPart, (row: T) => void>>,
  parts: RetentionPart[],
): Record<string, number> {
  const apply = parts.flatMap((p) => (blanks[p] ? [blanks[p]] : []));
  if (apply.length === 0) return {};
  for (const row of rows) for (const blank of apply) blank(row);
  return { [table]: rows.length };
}

export class InMemoryCallLogData extends CallLogData {
  constructor(private readonly callLogs: InMemoryCallLogRepository) {
    super();
  }

  private of(organizationId: string, targetIds: string[]): CallLog[] {
    return [...this.callLogs.logs.values()]
      .filter((l) => l.organizationId === organizationId && targetIds.includes(l.targetId))
      .sort((a, b) => a.id - b.id);
  }

  async purge(
    _tx: Tx,
    organizationId: string,
    targetIds: string[],
    parts: RetentionPart[],
  ): Promise<Record<string, number>> {
    return blankRows('call_logs', this.of(organizationId, targetIds), CALL_LOG_BLANKS, parts);
  }

  async patientCallLogs(organizationId: string, targetIds: string[]): Promise<PatientCallLog[]> {
    return this.of(organizationId, targetIds).map((l) => ({
      id: l.id,
      campaignId: l.campaignId,
      targetId: l.targetId,
      toNumber: l.to,
      outcome: l.outcome,
      transcripts: clone(l.transcripts),
      postCallData: clone(l.postCallData),
      recordingUrls: [...l.recordingUrls],
      startedAt: l.startedAt,
      endedAt: l.endedAt,
    }));
  }
}

/** Whether the text is one of these targets' (of the organization). */
const ofTargets = (m: Message, organizationId: string, targetIds: string[]) =>
  m.organizationId === organizationId && m.targetId !== null && targetIds.includes(m.targetId);

export class InMemoryMessageData extends MessageData {
  constructor(private readonly messages: InMemoryMessageRepository) {
    super();
  }

  async purge(
    _tx: Tx,
    organizationId: string,
    targetIds: string[],
    parts: RetentionPart[],
  ): Promise<Record<string, number>> {
    const rows = this.messages.table().filter((m) => ofTargets(m, organizationId, targetIds));
    return blankRows('messages', rows, MESSAGE_BLANKS, parts);
  }

  async eraseUnmatched(_tx: Tx, organizationId: string, phoneNumber: string): Promise<number> {
    const rows = this.unmatched(organizationId, [phoneNumber]);
    for (const m of rows) {
      m.body = '';
      blankPersonNumber(m);
    }
    return rows.length;
  }

  /** Texts from or to the numbers that matched no target. */
  private unmatched(organizationId: string, phoneNumbers: string[]): Message[] {
    return this.messages
      .table()
      .filter(
        (m) =>
          m.organizationId === organizationId &&
          m.targetId === null &&
          (m.direction === 'inbound'
            ? m.from !== null && phoneNumbers.includes(m.from)
            : phoneNumbers.includes(m.to)),
      );
  }

  async patientMessages(
    organizationId: string,
    targetIds: string[],
    phoneNumbers: string[],
  ): Promise<PatientMessage[]> {
    const unmatched = new Set(this.unmatched(organizationId, phoneNumbers));
    return this.messages
      .table()
      .filter((m) => ofTargets(m, organizationId, targetIds) || unmatched.has(m))
      .sort(byCreatedThenId)
      .map((m) => ({
        id: m.id,
        campaignId: m.campaignId,
        targetId: m.targetId,
        direction: m.direction,
        toNumber: m.to,
        fromNumber: m.from,
        body: m.body,
        status: m.status,
        createdAt: m.createdAt,
      }));
  }
}

/** The stored deliveries' attempts: what a receiver answered goes with the target row. */
export class InMemoryWebhookData extends WebhookData {
  constructor(private readonly webhooks: InMemoryWebhookDeliveryRepository) {
    super();
  }

  async purge(
    _tx: Tx,
    organizationId: string,
    targetIds: string[],
    parts: RetentionPart[],
  ): Promise<Record<string, number>> {
    if (!parts.includes('finished_targets')) return {};
    // As the adapter: only the attempts that still hold an excerpt are counted.
    const held = this.webhooks
      .storedAttempts(organizationId, targetIds)
      .filter((a) => a.responseExcerpt !== null);
    for (const a of held) a.responseExcerpt = null;
    return { webhook_delivery_attempts: held.length };
  }
}

export class InMemoryComplianceData extends ComplianceData {
  constructor(
    private readonly doNotCall: InMemoryDoNotCallRepository,
    private readonly decisionLog: InMemoryDecisionLog,
  ) {
    super();
  }

  async eraseDoNotCall(_tx: Tx, organizationId: string, phoneNumbers: string[]): Promise<number> {
    // Every listing of the numbers, removed ones too (the adapter deletes the rows).
    return this.doNotCall.deleteWhere(
      (e) => e.organizationId === organizationId && phoneNumbers.includes(e.phoneNumber),
    );
  }

  async doNotCallEntries(
    organizationId: string,
    phoneNumbers: string[],
  ): Promise<PatientDoNotCallEntry[]> {
    return this.doNotCall.table().flatMap((e, i) =>
      e.organizationId === organizationId && phoneNumbers.includes(e.phoneNumber)
        ? [
            {
              // The fake keeps no id: a listing's position stands for the adapter's serial id.
              id: String(i + 1),
              phoneNumber: e.phoneNumber,
              reason: e.reason,
              source: e.source.type,
              addedAt: e.createdAt,
              removedAt: e.removal?.at ?? null,
            },
          ]
        : [],
    );
  }

  async decisions(organizationId: string, targetIds: string[]): Promise<PatientDecision[]> {
    return this.decisionLog
      .table()
      .filter((d) => d.organizationId === organizationId && targetIds.includes(d.targetId))
      .sort((a, b) => a.decidedAt.getTime() - b.decidedAt.getTime() || a.id - b.id)
      .map((d) => ({
        id: String(d.id),
        campaignId: d.campaignId,
        targetId: d.targetId,
        rule: d.rule,
        action: d.action,
        reason: d.reason,
        decidedAt: d.decidedAt,
      }));
  }
}
