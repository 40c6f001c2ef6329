import { randomUUID } from 'crypto';
import { UnitOfWork } from '../../src/common/persistence/unit-of-work.js';
import { CallLogRepository } from '../../src/modules/call-log/application/ports/call-log.repository.js';
import { DecisionLog } from '../../src/modules/compliance/application/ports/decision-log.js';
import { DoNotCallRepository } from '../../src/modules/compliance/application/ports/do-not-call.repository.js';
import { MessageRepository } from '../../src/modules/messaging/application/ports/message.repository.js';
import {
  CallLogData,
  ComplianceData,
  MessageData,
  WebhookData,
} from '../../src/modules/retention/application/ports/patient-data-holders.js';
import type { RetentionPart } from '../../src/modules/retention/domain/retention-policy.js';
import { WebhookDeliveryRepository } from '../../src/modules/webhook/application/ports/webhook-delivery.repository.js';

export interface PatientDataHarness {
  callLogData: CallLogData;
  messageData: MessageData;
  webhookData: WebhookData;
  complianceData: ComplianceData;
  /** The owners' own ports, to write what the holders purge and to read back what they left. */
  callLogs: CallLogRepository;
  messages: MessageRepository;
  webhooks: WebhookDeliveryRepository;
  doNotCall: DoNotCallRepository;
  decisions: DecisionLog;
  uow: UnitOfWork;
  /** A new organization and campaign (with a webhook URL) and `n` targets of it, numbered 0..n-1. */
  people(n: number): Promise<{ organizationId: string; campaignId: string; targetIds: string[] }>;
  close(): Promise<void>;
}

const T0 = new Date('2026-03-02T10:00:00.000Z');
const at = (seconds: number) => new Date(T0.getTime() + seconds * 1000);
const number = (i: number) => `+1555020${String(i).padStart(4, '0')}`;

/**
 * The retention module's holders of a person's data outside the targets table (call logs, texts,
 * webhook answers, the do-not-call list and decisions): the in-memory fakes blank, erase and read
 * exactly what the SQL adapters do, so a purge on the testing module leaves what it would in SQL.
 */
export function patientDataContract(name: string, setup: () => Promise<PatientDataHarness>): void {
  describe(`retention's patient data holders contract: ${name}`, () => {
    let h: PatientDataHarness;
    beforeAll(async () => {
      h = await setup();
    });
    afterAll(() => h.close());

    const purge = (
      holder: CallLogData | MessageData | WebhookData,
      organizationId: string,
      targetIds: string[],
      parts: RetentionPart[],
    ) => h.uow.run((tx) => holder.purge(tx, organizationId, targetIds, parts));

    /** One ended call per target, with everything a call leaves behind. */
    async function endedCalls(organizationId: string, campaignId: string, targetIds: string[]) {
      return h.uow.run(async (tx) => {
        const ids = await h.callLogs.createMany(
          tx,
          targetIds.map((targetId, i) => ({
            organizationId,
            campaignId,
            targetId,
            attempt: 1,
            to: number(i),
            from: '+15550009999',
            provider: 'simulated',
            startedAt: at(i),
            deadlineAt: at(3600),
          })),
        );
        await h.callLogs.completeMany(
          tx,
          ids.map((id, i) => ({
            id,
            completion: {
              outcome: 'GOOD',
              endedReason: 'customer-ended-call',
              providerCallId: `call-${randomUUID()}`,
              callCategorization: { category: 'GOOD' },
              agentData: { patient_name: `Ada ${i}` },
              postCallData: { summary: `Ada ${i} confirmed` },
              qa: { score: 5 },
              transcripts: [{ role: 'user', message: `I am Ada ${i}` }],
              recordingUrls: [`https://recordings.invalid/${i}.wav`],
              outputData: { confirmed: true },
              subcategory: null,
              endedAt: at(60 + i),
              durationSeconds: 60,
            },
          })),
        );
        return ids;
      });
    }

    it('call logs: each part blanks its own columns of the given targets, and counts every log it matched', async () => {
      const { organizationId: org, campaignId, targetIds } = await h.people(2);
      const [a, b] = targetIds;
      const [logA, logB] = await endedCalls(org, campaignId, [a, b]);
      const untouched = await h.callLogs.findById(logB);

      // Texts are not in call logs: nothing matched, nothing counted.
      expect(await purge(h.callLogData, org, [a], ['messages'])).toEqual({});
      expect(await purge(h.callLogData, org, [a], ['transcripts'])).toEqual({ call_logs: 1 });
      const afterTranscripts = await h.callLogs.findById(logA);
      expect(afterTranscripts).toMatchObject({
        transcripts: [],
        postCallData: null,
        qa: null,
        recordingUrls: ['https://recordings.invalid/0.wav'],
        agentData: { patient_name: 'Ada 0' },
        outputData: { confirmed: true },
        to: number(0),
      });

      expect(
        await purge(h.callLogData, org, [a], ['recordings', 'input_data', 'finished_targets']),
      ).toEqual({ call_logs: 1 });
      // Blank already: matched and counted again, as an UPDATE counts the rows it matched.
      expect(await purge(h.callLogData, org, [a], ['recordings'])).toEqual({ call_logs: 1 });
      const purged = await h.callLogs.findById(logA);
      expect(purged).toMatchObject({
        recordingUrls: [],
        agentData: {},
        outputData: null,
        to: '',
        // What stays: the outcome, its dates and duration.
        outcome: 'GOOD',
        startedAt: at(0),
        endedAt: at(60),
        durationSeconds: 60,
      });
      expect(await h.callLogs.findById(logB)).toEqual(untouched);
      expect(await h.callLogData.patientCallLogs(org, [a, b])).toEqual([
        {
          id: logA,
          campaignId,
          targetId: a,
          toNumber: '',
          outcome: 'GOOD',
          transcripts: [],
          postCallData: null,
          recordingUrls: [],
          startedAt: at(0),
          endedAt: at(60),
        },
        {
          id: logB,
          campaignId,
          targetId: b,
          toNumber: number(1),
          outcome: 'GOOD',
          transcripts: [{ role: 'user', message: 'I am Ada 1' }],
          postCallData: { summary: 'Ada 1 confirmed' },
          recordingUrls: ['https://recordings.invalid/1.wav'],
          startedAt: at(1),
          endedAt: at(61),
        },
      ]);
      // Another organization's key reaches none of them.
      const other = await h.people(0);
      expect(await purge(h.callLogData, other.organizationId, [b], ['transcripts'])).toEqual({
        call_logs: 0,
      });
      expect(await h.callLogData.patientCallLogs(other.organizationId, [a, b])).toEqual([]);
    });

    it("texts: bodies go with `messages`, the person's number with `finished_targets`; texts from a number no target matched are erased with it", async () => {
      const { organizationId: org, campaignId, targetIds } = await h.people(2);
      const [a, b] = targetIds;
      const stranger = '+15550209999';
      const texts = await h.uow.run(async (tx) => {
        const sent = await h.messages.insertOutbound(
          tx,
          [a, b].map((targetId, i) => ({
            organizationId: org,
            campaignId,
            targetId,
            callLogId: null,
            providerConnectionId: null,
            to: number(i),
            body: `Hello Ada ${i}`,
            continuation: null,
            now: at(i),
          })),
        );
        const inbound = (targetId: string | null, from: string, body: string, s: number) =>
          h.messages.insertInbound(tx, {
            organizationId: org,
            campaignId: targetId ? campaignId : null,
            targetId,
            providerConnectionId: null,
            provider: 'simulated',
            providerMessageId: `sm-${randomUUID()}`,
            from,
            to: '+15550009999',
            body,
            keyword: null,
            now: at(s),
          });
        const reply = await inbound(a, number(0), 'My birthday is 1980-02-03', 10);
        const unmatched = await inbound(null, stranger, 'Who is this? Ada', 20);
        return { sentA: sent[0], sentB: sent[1], reply: reply!, unmatched: unmatched! };
      });

      expect(await purge(h.messageData, org, [a], ['transcripts', 'recordings'])).toEqual({});
      expect(await purge(h.messageData, org, [a], ['messages'])).toEqual({ messages: 2 });
      const read = () => h.messageData.patientMessages(org, [a], [number(0), stranger]);
      expect(await read()).toEqual([
        {
          id: texts.sentA.id,
          campaignId,
          targetId: a,
          direction: 'outbound',
          toNumber: number(0),
          fromNumber: null,
          body: '',
          status: 'queued',
          createdAt: at(0),
        },
        {
          id: texts.reply.id,
          campaignId,
          targetId: a,
          direction: 'inbound',
          toNumber: '+15550009999',
          fromNumber: number(0),
          body: '',
          status: texts.reply.status,
          createdAt: at(10),
        },
        {
          id: texts.unmatched.id,
          campaignId: null,
          targetId: null,
          direction: 'inbound',
          toNumber: '+15550009999',
          fromNumber: stranger,
          body: 'Who is this? Ada',
          status: texts.unmatched.status,
          createdAt: at(20),
        },
      ]);

      expect(await purge(h.messageData, org, [a], ['finished_targets'])).toEqual({ messages: 2 });
      expect(await h.uow.run((tx) => h.messageData.eraseUnmatched(tx, org, stranger))).toBe(1);
      expect((await read()).map((m) => [m.direction, m.toNumber, m.fromNumber, m.body])).toEqual([
        ['outbound', '', null, ''],
        ['inbound', '+15550009999', null, ''],
      ]);
      // Once blank, the stranger's number no longer finds their text.
      expect(await h.messageData.patientMessages(org, [], [stranger])).toEqual([]);
      expect(await h.messages.findById(null, org, texts.unmatched.id)).toMatchObject({
        from: null,
        body: '',
      });
      // The other target's text is whole.
      expect(await h.messageData.patientMessages(org, [b], [])).toEqual([
        expect.objectContaining({ id: texts.sentB.id, toNumber: number(1), body: 'Hello Ada 1' }),
      ]);
    });

    it('webhooks: what a receiver answered goes with `finished_targets`; only attempts holding an excerpt are counted', async () => {
      const { organizationId: org, campaignId, targetIds } = await h.people(2);
      const [a, b] = targetIds;
      const deliveries = await h.uow.run((tx) =>
        h.webhooks.recordEvents(
          tx,
          [a, b].map((targetId, i) => ({
            id: randomUUID(),
            organizationId: org,
            campaignId,
            targetId,
            type: 'target.finished',
            payload: { target_id: targetId },
            createdAt: at(i),
          })),
        ),
      );
      expect(deliveries).toHaveLength(2);
      // Two attempts on A's delivery (one answered with a body, one with none), one on B's.
      const attempt = async (deliveryId: string, excerpt: string | null, s: number) => {
        const token = randomUUID();
        const claimed = await h.webhooks.claim(deliveryId, at(s), at(s + 30), token);
        expect(claimed).not.toBeNull();
        await h.webhooks.completeAttempt(
          null,
          deliveryId,
          token,
          {
            attemptedAt: at(s),
            url: 'https://hooks.invalid/campaign',
            statusCode: 500,
            durationMs: 12,
            success: false,
            error: 'HTTP 500',
            responseExcerpt: excerpt,
          },
          { status: 'pending', nextAttemptAt: at(s + 1) },
        );
      };
      await attempt(deliveries[0], 'unknown patient Ada 0, born 1980-02-03', 10);
      await attempt(deliveries[0], null, 20);
      await attempt(deliveries[1], 'unknown patient Ada 1', 30);

      expect(
        await purge(h.webhookData, org, [a], ['transcripts', 'input_data', 'messages']),
      ).toEqual({});
      expect(await purge(h.webhookData, org, [a], ['finished_targets'])).toEqual({
        webhook_delivery_attempts: 1,
      });
      expect(await purge(h.webhookData, org, [a], ['finished_targets'])).toEqual({
        webhook_delivery_attempts: 0,
      });
      const excerpts = async (deliveryId: string) =>
        (await h.webhooks.findById(org, deliveryId))!.attemptLog.map((x) => [
          x.statusCode,
          x.responseExcerpt,
        ]);
      expect(await excerpts(deliveries[0])).toEqual([
        [500, null],
        [500, null],
      ]);
      expect(await excerpts(deliveries[1])).toEqual([[500, 'unknown patient Ada 1']]);
    });

    it('the do-not-call list is erased only when asked, every listing of the numbers; decisions are read per target', async () => {
      const { organizationId: org, campaignId, targetIds } = await h.people(2);
      const [a, b] = targetIds;
      const listing = (i: number, targetId: string, s: number) => ({
        organizationId: org,
        phoneNumber: number(i),
        reason: 'Asked not to be called',
        source: { type: 'call' as const, campaignId, targetId, callLogId: 1 + i },
        createdAt: at(s),
      });
      // A's number listed, taken off, listed again: two listings; B's number once.
      await h.doNotCall.add(null, [listing(0, a, 0), listing(1, b, 1)]);
      await h.doNotCall.remove(null, org, [number(0)], {
        at: at(5),
        reason: 'Listed by mistake',
        removedBy: { type: 'api_key', id: randomUUID(), name: 'EHR sync' },
      });
      await h.doNotCall.add(null, [listing(0, a, 10)]);
      await h.uow.run((tx) =>
        h.decisions.record(
          tx,
          [a, b, a].map((targetId, i) => ({
            organizationId: org,
            campaignId,
            targetId,
            rule: 'quiet_hours',
            action: 'deferred' as const,
            reason: `quiet hours ${i}`,
            timeZone: 'America/New_York',
            localTime: '2026-03-02 05:00',
            deferredUntil: at(3600),
            decidedAt: at(100 + i),
          })),
        ),
      );

      const entries = await h.complianceData.doNotCallEntries(org, [number(0)]);
      expect(entries.map(({ id: _id, ...e }) => e)).toEqual([
        {
          phoneNumber: number(0),
          reason: 'Asked not to be called',
          source: 'call',
          addedAt: at(0),
          removedAt: at(5),
        },
        {
          phoneNumber: number(0),
          reason: 'Asked not to be called',
          source: 'call',
          addedAt: at(10),
          removedAt: null,
        },
      ]);
      expect((await h.complianceData.decisions(org, [a])).map(({ id: _id, ...d }) => d)).toEqual(
        [0, 2].map((i) => ({
          campaignId,
          targetId: a,
          rule: 'quiet_hours',
          action: 'deferred',
          reason: `quiet hours ${i}`,
          decidedAt: at(100 + i),
        })),
      );

      expect(await h.uow.run((tx) => h.complianceData.eraseDoNotCall(tx, org, [number(0)]))).toBe(
        2,
      );
      expect(await h.complianceData.doNotCallEntries(org, [number(0)])).toEqual([]);
      expect(await h.complianceData.doNotCallEntries(org, [number(1)])).toHaveLength(1);
      // Another organization erases nothing of this one.
      const other = await h.people(0);
      expect(
        await h.uow.run((tx) =>
          h.complianceData.eraseDoNotCall(tx, other.organizationId, [number(1)]),
        ),
      ).toBe(0);
      expect(await h.complianceData.doNotCallEntries(org, [number(1)])).toHaveLength(1);
    });
  });
}
