import { randomUUID } from 'crypto';
import { UnitOfWork } from '../../src/common/persistence/unit-of-work.js';
import {
  AttemptRecord,
  WebhookDeliveryRepository,
} from '../../src/modules/webhook/application/ports/webhook-delivery.repository.js';
import { TargetNotifications } from '../../src/modules/webhook/application/ports/target-notifications.js';

export interface WebhookContractCampaign {
  organizationId: string;
  campaignId: string;
  webhookUrl: string | null;
  webhookSecret: string;
}

export interface WebhookContractContext {
  repository: WebhookDeliveryRepository;
  /** The same events as the target timeline reads them (the repository's other port). */
  notifications: TargetNotifications;
  uow: UnitOfWork;
  newCampaign(webhookUrl: string | null): Promise<WebhookContractCampaign>;
}

const T0 = new Date('2026-02-01T10:00:00.000Z');
const at = (ms: number) => new Date(T0.getTime() + ms);

const attempt = (overrides: Partial<AttemptRecord> = {}): AttemptRecord => ({
  attemptedAt: T0,
  url: 'https://hooks.example.com/x',
  statusCode: 500,
  durationMs: 12,
  success: false,
  error: 'HTTP 500',
  responseExcerpt: 'nope',
  ...overrides,
});

/** The rules every WebhookDeliveryRepository keeps; run against the fake and the TypeORM adapter. */
export function webhookDeliveryRepositoryContract(
  name: string,
  context: () => WebhookContractContext,
): void {
  describe(`WebhookDeliveryRepository contract (${name})`, () => {
    let ctx: WebhookContractContext;
    beforeAll(() => {
      ctx = context();
    });

    async function record(
      campaign: WebhookContractCampaign,
      createdAt = T0,
      payload: Record<string, unknown> = { type: 'x' },
    ) {
      const eventId = randomUUID();
      const ids = await ctx.uow.run((tx) =>
        ctx.repository.recordEvents(tx, [
          {
            id: eventId,
            organizationId: campaign.organizationId,
            campaignId: campaign.campaignId,
            targetId: randomUUID(),
            type: 'target.call_finished',
            payload,
            createdAt,
          },
        ]),
      );
      return { eventId, ids };
    }

    const complete = (
      id: string,
      token: string,
      result: Parameters<WebhookDeliveryRepository['completeAttempt']>[4],
      a = attempt(),
    ) => ctx.uow.run((tx) => ctx.repository.completeAttempt(tx, id, token, a, result));

    it("lists a target's notifications newest first, with their delivery, in pages", async () => {
      const campaign = await ctx.newCampaign('https://hooks.example.com/n');
      const quiet = await ctx.newCampaign(null);
      const targetId = randomUUID();
      const ids = [randomUUID(), randomUUID(), randomUUID()].sort();
      const event = (id: string, createdAt: Date, c = campaign, target = targetId) => ({
        id,
        organizationId: c.organizationId,
        campaignId: c.campaignId,
        targetId: target,
        type: 'target.call_finished',
        payload: { type: 'target.call_finished' },
        createdAt,
      });
      await ctx.uow.run((tx) =>
        ctx.repository.recordEvents(tx, [
          event(ids[0], at(0)),
          // Two of one instant: ordered by their keys, highest first.
          event(ids[1], at(5)),
          event(ids[2], at(5)),
          event(randomUUID(), at(9), campaign, randomUUID()),
        ]),
      );
      // Another organization's event about the same target id is not this target's.
      await ctx.uow.run((tx) =>
        ctx.repository.recordEvents(tx, [event(randomUUID(), at(7), quiet)]),
      );
      const notification = (id: string, createdAt: Date) => ({
        eventId: id,
        type: 'target.call_finished',
        createdAt,
        createdMicros: createdAt.getTime() * 1000,
        sortKey: `n:${id}`,
        deliveryStatus: 'pending',
        deliveryAttempts: 0,
      });
      const first = await ctx.notifications.listForTarget(
        campaign.organizationId,
        targetId,
        null,
        2,
      );
      expect(first).toEqual([notification(ids[2], at(5)), notification(ids[1], at(5))]);
      const rest = await ctx.notifications.listForTarget(
        campaign.organizationId,
        targetId,
        { atMicros: first[1].createdMicros, key: first[1].sortKey },
        2,
      );
      expect(rest).toEqual([notification(ids[0], at(0))]);
      // Without a webhook_url nothing is delivered: the notification shows no delivery.
      const quietTarget = randomUUID();
      const quietId = randomUUID();
      await ctx.uow.run((tx) =>
        ctx.repository.recordEvents(tx, [event(quietId, at(3), quiet, quietTarget)]),
      );
      expect(
        await ctx.notifications.listForTarget(quiet.organizationId, quietTarget, null, 10),
      ).toEqual([{ ...notification(quietId, at(3)), deliveryStatus: null }]);
    });

    it('creates one pending delivery per event when the campaign has a webhook_url, none otherwise', async () => {
      const withUrl = await ctx.newCampaign('https://hooks.example.com/a');
      const { eventId, ids } = await record(withUrl, T0, {
        type: 'target.call_finished',
        attempt: 1,
      });
      expect(ids).toHaveLength(1);
      const delivery = await ctx.repository.findById(withUrl.organizationId, ids[0]);
      expect(delivery).toMatchObject({
        id: ids[0],
        eventId,
        campaignId: withUrl.campaignId,
        eventType: 'target.call_finished',
        payload: { type: 'target.call_finished', attempt: 1 },
        status: 'pending',
        attempts: 0,
        nextAttemptAt: T0,
        eventCreatedAt: T0,
        attemptLog: [],
      });

      const withoutUrl = await ctx.newCampaign(null);
      expect((await record(withoutUrl)).ids).toEqual([]);
    });

    it('records many events in one call: a delivery each where the campaign has a webhook_url', async () => {
      const withUrl = await ctx.newCampaign('https://hooks.example.com/many');
      const withoutUrl = await ctx.newCampaign(null);
      const events = [withUrl, withoutUrl, withUrl].map((campaign, n) => ({
        id: randomUUID(),
        organizationId: campaign.organizationId,
        campaignId: campaign.campaignId,
        targetId: randomUUID(),
        type: 'target.call_finished',
        payload: { type: 'target.call_finished', n, nested: { list: [n, null, 'x'] } },
        createdAt: T0,
      }));
      const ids = await ctx.uow.run((tx) => ctx.repository.recordEvents(tx, events));
      expect(ids).toHaveLength(2);
      const deliveries = await Promise.all(
        ids.map((id) => ctx.repository.findById(withUrl.organizationId, id)),
      );
      expect(deliveries.map((d) => [d?.eventId, d?.payload]).sort()).toEqual(
        [events[0], events[2]].map((e) => [e.id, e.payload]).sort(),
      );
      expect(await ctx.uow.run((tx) => ctx.repository.recordEvents(tx, []))).toEqual([]);
    });

    it('claims a due delivery once, with the campaign endpoint, until its lease expires', async () => {
      const campaign = await ctx.newCampaign('https://hooks.example.com/b');
      const {
        eventId,
        ids: [id],
      } = await record(campaign, T0, { n: 1 });

      expect(await ctx.repository.claim(id, at(-5000), at(1000), randomUUID())).toBeNull(); // not due yet
      const token = randomUUID();
      expect(await ctx.repository.claim(id, T0, at(30_000), token)).toEqual({
        id,
        eventId,
        leaseToken: token,
        runAttempts: 1,
        body: '{"n":1}',
        url: 'https://hooks.example.com/b',
        secret: campaign.webhookSecret,
      });
      expect(await ctx.repository.claim(id, at(29_000), at(60_000), randomUUID())).toBeNull(); // lease held
      const second = await ctx.repository.claim(id, at(31_000), at(60_000), randomUUID()); // lease expired
      expect(second).toMatchObject({ id, runAttempts: 2 });
      // The first worker lost its lease: its outcome is recorded as an attempt but changes nothing.
      expect(await complete(id, token, { status: 'delivered' })).toBe(false);
      const afterLost = await ctx.repository.findById(campaign.organizationId, id);
      expect(afterLost).toMatchObject({ status: 'sending', attempts: 2 });
      expect(afterLost!.attemptLog).toHaveLength(1);
      expect(
        await complete(
          id,
          second!.leaseToken,
          { status: 'delivered' },
          attempt({ statusCode: 200, success: true, error: null }),
        ),
      ).toBe(true);
      const done = await ctx.repository.findById(campaign.organizationId, id);
      expect(done).toMatchObject({
        status: 'delivered',
        lastStatusCode: 200,
        lastError: null,
        deliveredAt: at(12),
      });
      expect(await ctx.repository.claim(id, at(100_000), at(200_000), randomUUID())).toBeNull();
    });

    it('keeps a retried delivery pending until its next attempt is due, and records every attempt', async () => {
      const campaign = await ctx.newCampaign('https://hooks.example.com/c');
      const {
        ids: [id],
      } = await record(campaign);
      const token = randomUUID();
      await ctx.repository.claim(id, T0, at(30_000), token);
      expect(await complete(id, token, { status: 'pending', nextAttemptAt: at(60_000) })).toBe(
        true,
      );
      const pending = await ctx.repository.findById(campaign.organizationId, id);
      expect(pending).toMatchObject({
        status: 'pending',
        nextAttemptAt: at(60_000),
        lastStatusCode: 500,
        lastError: 'HTTP 500',
        lastAttemptAt: T0,
      });
      expect(pending!.attemptLog).toEqual([
        {
          id: expect.any(Number),
          attemptedAt: T0,
          url: 'https://hooks.example.com/x',
          statusCode: 500,
          durationMs: 12,
          success: false,
          error: 'HTTP 500',
          responseExcerpt: 'nope',
        },
      ]);
      expect(await ctx.repository.claim(id, at(50_000), at(80_000), randomUUID())).toBeNull();
      const retry = await ctx.repository.claim(id, at(60_000), at(90_000), randomUUID());
      expect(retry).toMatchObject({ runAttempts: 2 });
      expect(
        await complete(
          id,
          retry!.leaseToken,
          { status: 'failed' },
          attempt({ attemptedAt: at(60_000), statusCode: null, error: 'timeout' }),
        ),
      ).toBe(true);
      const failed = await ctx.repository.findById(campaign.organizationId, id);
      expect(failed).toMatchObject({
        status: 'failed',
        attempts: 2,
        nextAttemptAt: null,
        lastStatusCode: null,
        lastError: 'timeout',
      });
      expect(failed!.attemptLog.map((a) => a.error)).toEqual(['HTTP 500', 'timeout']);
    });

    it('re-queues failed deliveries of the campaign in the window (inclusive) once, with a fresh schedule', async () => {
      const campaign = await ctx.newCampaign('https://hooks.example.com/d');
      const other = await ctx.newCampaign('https://hooks.example.com/e');
      const fail = async (c: WebhookContractCampaign, createdAt: Date) => {
        const {
          ids: [id],
        } = await record(c, createdAt);
        const token = randomUUID();
        await ctx.repository.claim(id, createdAt, at(10_000_000), token);
        await complete(id, token, { status: 'failed' });
        return id;
      };
      const a = await fail(campaign, at(0));
      const b = await fail(campaign, at(1000));
      const c = await fail(campaign, at(2000));
      await fail(other, at(1000));
      const {
        ids: [stillPending],
      } = await record(campaign, at(1000));

      const requeued = await ctx.uow.run((tx) =>
        ctx.repository.requeueFailed(
          tx,
          campaign.organizationId,
          campaign.campaignId,
          at(0),
          at(1000),
          at(5000),
        ),
      );
      expect(requeued.sort()).toEqual([a, b].sort());
      expect(requeued).not.toContain(stillPending);
      expect(
        await ctx.uow.run((tx) =>
          ctx.repository.requeueFailed(
            tx,
            campaign.organizationId,
            campaign.campaignId,
            at(0),
            at(1000),
            at(5000),
          ),
        ),
      ).toEqual([]);
      // Another organization's call touches nothing.
      expect(
        await ctx.uow.run((tx) =>
          ctx.repository.requeueFailed(
            tx,
            other.organizationId,
            campaign.campaignId,
            at(0),
            at(9000),
            at(5000),
          ),
        ),
      ).toEqual([]);
      expect(await ctx.repository.findById(campaign.organizationId, a)).toMatchObject({
        status: 'pending',
        nextAttemptAt: at(5000),
      });
      expect(await ctx.repository.findById(campaign.organizationId, c)).toMatchObject({
        status: 'failed',
      });
      const again = await ctx.repository.claim(a, at(5000), at(6000), randomUUID());
      expect(again).toMatchObject({ runAttempts: 1 });
    });

    it('gives a delivery to exactly one of many concurrent claims, and a failed one to one of two concurrent reruns', async () => {
      const campaign = await ctx.newCampaign('https://hooks.example.com/race');
      const {
        ids: [id],
      } = await record(campaign);
      const claims = await Promise.all(
        Array.from({ length: 8 }, () => ctx.repository.claim(id, T0, at(30_000), randomUUID())),
      );
      const winners = claims.filter((c) => c !== null);
      expect(winners).toHaveLength(1);
      await complete(id, winners[0]!.leaseToken, { status: 'failed' });

      const reruns = await Promise.all(
        [0, 1].map(() =>
          ctx.uow.run((tx) =>
            ctx.repository.requeueFailed(
              tx,
              campaign.organizationId,
              campaign.campaignId,
              T0,
              T0,
              at(1000),
            ),
          ),
        ),
      );
      expect(reruns.flat()).toEqual([id]);
    });

    it('revives overdue unfinished deliveries and leaves them alone until they are overdue again', async () => {
      const campaign = await ctx.newCampaign('https://hooks.example.com/f');
      const {
        ids: [due],
      } = await record(campaign, at(-3_600_000));
      const {
        ids: [claimed],
      } = await record(campaign, at(-3_600_000));
      await ctx.repository.claim(claimed, at(-3_600_000), at(-3_000_000), randomUUID()); // its worker died
      const {
        ids: [fresh],
      } = await record(campaign, T0);
      const revived = await ctx.uow.run((tx) =>
        ctx.repository.reviveOverdue(tx, at(-60_000), T0, 1000),
      );
      expect(revived).toEqual(expect.arrayContaining([due, claimed]));
      expect(revived).not.toContain(fresh);
      expect(
        await ctx.uow.run((tx) => ctx.repository.reviveOverdue(tx, at(-60_000), T0, 1000)),
      ).not.toEqual(expect.arrayContaining([due]));
      expect(await ctx.repository.claim(claimed, T0, at(30_000), randomUUID())).toMatchObject({
        runAttempts: 2,
      });
    });

    it("lists a campaign's deliveries in creation order, by status, paged, and hides other organizations'", async () => {
      const campaign = await ctx.newCampaign('https://hooks.example.com/g');
      const ids: string[] = [];
      for (let i = 0; i < 3; i++) ids.push((await record(campaign, at(i * 1000))).ids[0]);
      const token = randomUUID();
      await ctx.repository.claim(ids[1], at(1000), at(9000), token);
      await complete(
        ids[1],
        token,
        { status: 'delivered' },
        attempt({ statusCode: 200, success: true, error: null }),
      );

      const all = await ctx.repository.list(campaign.organizationId, campaign.campaignId, null, {
        offset: 0,
        limit: 10,
      });
      expect(all.total).toBe(3);
      expect(all.items.map((d) => d.id)).toEqual(ids);
      const page = await ctx.repository.list(campaign.organizationId, campaign.campaignId, null, {
        offset: 2,
        limit: 2,
      });
      expect([page.total, page.items.map((d) => d.id)]).toEqual([3, [ids[2]]]);
      const delivered = await ctx.repository.list(
        campaign.organizationId,
        campaign.campaignId,
        'delivered',
        { offset: 0, limit: 10 },
      );
      expect([delivered.total, delivered.items.map((d) => d.id)]).toEqual([1, [ids[1]]]);

      const stranger = randomUUID();
      expect(
        await ctx.repository.list(stranger, campaign.campaignId, null, { offset: 0, limit: 10 }),
      ).toEqual({ items: [], total: 0 });
      expect(await ctx.repository.findById(stranger, ids[0])).toBeNull();
      expect(await ctx.repository.findById(campaign.organizationId, randomUUID())).toBeNull();
    });
  });
}
