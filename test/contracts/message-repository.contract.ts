import { randomUUID } from 'crypto';
import { UnitOfWork } from '../../src/common/persistence/unit-of-work.js';
import {
  MessageRepository,
  NewOutboundText,
} from '../../src/modules/messaging/application/ports/message.repository.js';

export interface MessageRepositorySubject {
  repository: MessageRepository;
  unitOfWork: UnitOfWork;
  organizationId(): Promise<string>;
}

const T0 = new Date('2026-11-27T15:00:00.000Z');
const at = (seconds: number) => new Date(T0.getTime() + seconds * 1000);

const continuation = {
  next: {
    status: 'Scheduled',
    resolution: null,
    category: 'NO_RESPONSE',
    subcategory: null,
    outcome: 'No answer',
    retryAt: '2026-11-27T16:00:00.000Z',
  },
  ifCancelled: {
    status: 'Finished',
    resolution: 'unsuccessful',
    category: null,
    subcategory: null,
    outcome: 'Campaign cancelled',
    retryAt: null,
  },
};

const sent = (providerMessageId: string, now: Date) => ({
  provider: 'twilio',
  providerConnectionId: null,
  from: '+15550009999',
  status: 'sent' as const,
  providerMessageId,
  errorCode: null,
  errorMessage: null,
  now,
});

/** The MessageRepository port, against the in-memory fake and the SQL adapter: the same answers. */
export function messageRepositoryContract(name: string, subject: () => MessageRepositorySubject) {
  describe(`MessageRepository contract: ${name}`, () => {
    let s: MessageRepositorySubject;
    let organizationId: string;
    const targetId = randomUUID();
    beforeEach(async () => {
      s = subject();
      organizationId = await s.organizationId();
    });
    const tx = <T>(work: Parameters<UnitOfWork['run']>[0]) => s.unitOfWork.run(work) as Promise<T>;
    const queue = (over: Partial<NewOutboundText> = {}) =>
      tx(async (t) => {
        const [m] = await s.repository.insertOutbound(t, [
          {
            organizationId,
            campaignId: randomUUID(),
            targetId,
            callLogId: 7,
            providerConnectionId: null,
            to: '+15551230000',
            body: 'Hi Ada',
            continuation,
            now: T0,
            ...over,
          },
        ]);
        return m;
      }) as Promise<Awaited<ReturnType<MessageRepository['insertOutbound']>>[number]>;

    it('queues a text as a record, read back by id (only by its organization) and by target', async () => {
      const m = await queue();
      expect(m).toMatchObject({
        organizationId,
        targetId,
        callLogId: 7,
        direction: 'outbound',
        to: '+15551230000',
        body: 'Hi Ada',
        status: 'queued',
        provider: null,
        keyword: null,
        continuation,
        sentAt: null,
        settledAt: null,
      });
      expect(await s.repository.findById(null, organizationId, m.id)).toEqual(m);
      expect(await s.repository.findById(null, randomUUID(), m.id)).toBeNull();
      expect(await s.repository.listForTarget(organizationId, targetId)).toEqual([m]);
    });

    it('one sender takes a queued text; another takes it only after the lease; a sent text is never taken', async () => {
      const m = await queue();
      expect(await s.repository.claimForSending(m.id, T0, 60_000)).toMatchObject({ id: m.id });
      expect(await s.repository.claimForSending(m.id, at(30), 60_000)).toBeNull();
      expect(await s.repository.claimForSending(m.id, at(61), 60_000)).toMatchObject({ id: m.id });
      const recorded = await tx((t) => s.repository.recordSend(t, m.id, sent('SM1', at(62))));
      expect(recorded).toMatchObject({ status: 'sent', providerMessageId: 'SM1', sentAt: at(62) });
      // Recorded once: a second sender's result changes nothing.
      expect(await tx((t) => s.repository.recordSend(t, m.id, sent('SM2', at(63))))).toBeNull();
      expect(await s.repository.claimForSending(m.id, at(200), 60_000)).toBeNull();
    });

    it('a hold releases the claim and says until when', async () => {
      const m = await queue();
      await s.repository.claimForSending(m.id, T0, 60_000);
      await tx((t) => s.repository.hold(t, m.id, at(3600)));
      expect((await s.repository.findById(null, organizationId, m.id))!.sendAfter).toEqual(
        at(3600),
      );
      expect(await s.repository.claimForSending(m.id, at(1), 60_000)).toMatchObject({ id: m.id });
    });

    it("a provider's reports only move a text forward", async () => {
      const m = await queue();
      await tx((t) => s.repository.recordSend(t, m.id, sent('SM-forward', T0)));
      const report = (status: 'sent' | 'delivered' | 'undelivered', seconds: number) =>
        tx((t) =>
          s.repository.advance(
            t,
            'twilio',
            'SM-forward',
            { status, errorCode: null, errorMessage: null },
            at(seconds),
          ),
        );
      expect(await report('delivered', 5)).toMatchObject({
        status: 'delivered',
        settledAt: at(5),
        sentAt: T0,
      });
      expect(await report('sent', 6)).toBeNull();
      expect(await report('undelivered', 7)).toBeNull();
      expect(await tx((t) => s.repository.hasProviderMessage(t, 'twilio', 'SM-forward'))).toBe(
        true,
      );
      expect(await tx((t) => s.repository.hasProviderMessage(t, 'twilio', 'SM-none'))).toBe(false);
    });

    it('records a reply once per provider message id; a reply answers the latest text to its sender', async () => {
      await queue({ to: '+15551239999', now: T0 });
      const latest = await queue({ to: '+15551239999', now: at(10), targetId: randomUUID() });
      const answered = await tx((t) =>
        s.repository.latestOutboundTo(t, organizationId, '+15551239999'),
      );
      expect(answered).toMatchObject({ id: latest.id });
      const inbound = {
        organizationId,
        campaignId: latest.campaignId,
        targetId: latest.targetId,
        providerConnectionId: null,
        provider: 'twilio',
        providerMessageId: `SM-in-${randomUUID()}`,
        from: '+15551239999',
        to: '+15550009999',
        body: 'STOP',
        keyword: 'opt_out' as const,
        now: at(20),
      };
      const first = await tx((t) => s.repository.insertInbound(t, inbound));
      expect(first).toMatchObject({
        direction: 'inbound',
        status: 'received',
        keyword: 'opt_out',
        settledAt: at(20),
      });
      expect(await tx((t) => s.repository.insertInbound(t, inbound))).toBeNull();
      expect(
        (await s.repository.listForTarget(organizationId, latest.targetId!)).map((m) => m.id),
      ).toEqual([latest.id, (first as { id: string }).id]);
    });
  });
}
