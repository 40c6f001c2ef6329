import { CallFinishedEvent } from './ports/outbox.js';
import { InvalidInputError, NotFoundError } from '../../../common/errors/domain-errors.js';
import { FakeClock } from '../../../testing/fake-clock.js';
import { InMemoryBlacklistRepository } from '../../../testing/in-memory-blacklist.repository.js';
import { InMemoryCampaignRepository } from '../../../testing/in-memory-campaign.repository.js';
import { inMemoryProviderConnections } from '../../../testing/in-memory-provider-connection.repository.js';
import { InMemoryWebhookDeliveryRepository } from '../../../testing/in-memory-webhook-delivery.repository.js';
import { RecordingJobQueue } from '../../../testing/recording-job-queue.js';
import { RecordingWebhookSender } from '../../../testing/recording-webhook-sender.js';
import { BlacklistService } from '../../blacklist/application/blacklist.service.js';
import { CampaignService } from '../../campaign/application/campaign.service.js';
import { Campaign } from '../../campaign/domain/campaign.js';
import { GONE_ERROR, WebhookDeliveryService } from './webhook-delivery.service.js';
import { DELIVERY_QUEUE, WebhookOutbox } from './webhook-outbox.js';
import { WebhookSettings } from './webhook-settings.js';
import { CampaignEventListeners } from '../../target/application/ports/campaign-event-listener.js';
import { WebhookWorker } from '../infrastructure/webhook.worker.js';
import { InMemoryUnitOfWork } from '../../../testing/in-memory-unit-of-work.js';
import { InProcessExclusiveRunner } from '../../../testing/in-process-exclusive-runner.js';
import { RecordingMetrics } from '../../../testing/recording-metrics.js';

const ORG = '00000000-0000-4000-8000-00000000000a';
const OTHER_ORG = '00000000-0000-4000-8000-00000000000b';

function build() {
  const clock = new FakeClock('2026-01-05T15:00:00.000Z');
  const campaignRepository = new InMemoryCampaignRepository();
  const campaigns = new CampaignService(
    campaignRepository,
    new BlacklistService(new InMemoryBlacklistRepository()),
    inMemoryProviderConnections().service,
  );
  const repository = new InMemoryWebhookDeliveryRepository(campaignRepository);
  const jobs = new RecordingJobQueue();
  const sender = new RecordingWebhookSender();
  const settings = new WebhookSettings({
    retryScheduleMs: [10_000, 60_000],
    leaseMs: 15_000,
    recoveryMs: 60_000,
    runRecovery: true,
    concurrency: 4,
  });
  const uow = new InMemoryUnitOfWork();
  const metrics = new RecordingMetrics();
  const service = new WebhookDeliveryService(
    repository,
    sender,
    uow,
    jobs,
    clock,
    settings,
    campaigns,
    metrics,
  );
  const outbox = new WebhookOutbox(repository, jobs, clock, uow, new CampaignEventListeners());
  return { clock, campaigns, repository, jobs, sender, service, outbox, uow, metrics };
}

type Setup = ReturnType<typeof build>;

async function campaignWith(s: Setup, webhookUrl: string | null): Promise<Campaign> {
  return s.campaigns.create(ORG, { name: 'c', type: 'patient', webhookUrl });
}

function event(campaign: Campaign, overrides: Partial<CallFinishedEvent> = {}): CallFinishedEvent {
  return {
    organizationId: campaign.organizationId,
    campaignId: campaign.id,
    targetId: '00000000-0000-4000-8000-0000000000f1',
    callLogId: 7,
    attempt: 1,
    maxAttempts: 3,
    nextAttemptScheduled: null,
    status: 'Finished',
    resolution: 'successful',
    category: 'COMPLETED',
    subcategory: null,
    ...overrides,
  };
}

/** Runs every due delivery job, as a worker would. */
async function runDueJobs(s: Setup): Promise<string[]> {
  const due = s.jobs
    .take(DELIVERY_QUEUE)
    .filter((j) => !j.startAfter || j.startAfter <= s.clock.now());
  const outcomes: string[] = [];
  for (const job of due)
    outcomes.push(await s.service.deliver((job.data as { deliveryId: string }).deliveryId));
  return outcomes;
}

describe('WebhookOutbox', () => {
  it("writes the event and a delivery and queues its job in the caller's transaction", async () => {
    const s = build();
    const campaign = await campaignWith(s, 'https://hooks.example.com/x');
    await s.uow.run((tx) =>
      s.outbox.record(tx, [{ kind: 'call_finished', event: event(campaign) }]),
    );
    expect(s.repository.events).toEqual([
      expect.objectContaining({
        campaignId: campaign.id,
        type: 'target.call_finished',
        createdAt: s.clock.now(),
      }),
    ]);
    const { items } = await s.repository.list(ORG, campaign.id, null, { offset: 0, limit: 10 });
    expect(items).toEqual([
      expect.objectContaining({ status: 'pending', eventId: s.repository.events[0].id }),
    ]);
    expect(s.jobs.jobs).toEqual([
      { queue: DELIVERY_QUEUE, data: { deliveryId: items[0].id }, startAfter: s.clock.now() },
    ]);
  });

  it('records the event of a campaign without webhook_url but queues nothing', async () => {
    const s = build();
    const campaign = await campaignWith(s, null);
    await s.uow.run((tx) =>
      s.outbox.record(tx, [{ kind: 'call_finished', event: event(campaign) }]),
    );
    expect(s.repository.events).toHaveLength(1);
    expect(s.jobs.jobs).toEqual([]);
  });
});

describe('WebhookDeliveryService.deliver', () => {
  it('sends the payload, to be signed with the campaign secret and the event id as webhook-id, once', async () => {
    const s = build();
    const campaign = await campaignWith(s, 'https://hooks.example.com/x');
    await s.uow.run((tx) =>
      s.outbox.record(tx, [{ kind: 'call_finished', event: event(campaign) }]),
    );
    const [job] = [...s.jobs.jobs];
    expect(await runDueJobs(s)).toEqual(['delivered']);

    const [request] = s.sender.sent;
    const eventId = s.repository.events[0].id;
    expect(request.url).toBe('https://hooks.example.com/x');
    expect(request).toMatchObject({
      messageId: eventId,
      sentAt: new Date('2026-01-05T15:00:00Z'),
      secret: campaign.webhookSecret,
    });
    expect(JSON.parse(request.body)).toMatchObject({
      type: 'target.call_finished',
      campaign_id: campaign.id,
      call_log_id: 7,
    });

    // The same job again (at-least-once queue): nothing is sent twice.
    expect(await s.service.deliver((job.data as { deliveryId: string }).deliveryId)).toBe(
      'skipped',
    );
    expect(s.sender.sent).toHaveLength(1);
  });

  it('retries on the schedule and fails after the last attempt, recording every attempt', async () => {
    const s = build();
    s.sender.answer(
      { statusCode: 500, responseExcerpt: 'down' },
      { statusCode: null, error: 'ECONNREFUSED' },
      { statusCode: 503 },
    );
    const campaign = await campaignWith(s, 'https://hooks.example.com/x');
    await s.uow.run((tx) =>
      s.outbox.record(tx, [{ kind: 'call_finished', event: event(campaign) }]),
    );

    expect(await runDueJobs(s)).toEqual(['retry']);
    expect(s.jobs.jobs).toEqual([
      expect.objectContaining({ startAfter: new Date('2026-01-05T15:00:10.000Z') }),
    ]);
    const id = (s.jobs.jobs[0].data as { deliveryId: string }).deliveryId;
    expect(await s.service.deliver(id)).toBe('skipped'); // early: not due yet
    s.clock.advance(10_000);
    expect(await runDueJobs(s)).toEqual(['retry']);
    expect(s.jobs.jobs[0].startAfter).toEqual(new Date('2026-01-05T15:01:10.000Z'));
    s.clock.advance(60_000);
    expect(await runDueJobs(s)).toEqual(['failed']);
    expect(s.jobs.jobs).toEqual([]);

    const delivery = await s.service.get(ORG, id);
    expect(delivery).toMatchObject({
      status: 'failed',
      attempts: 3,
      lastStatusCode: 503,
      lastError: 'HTTP 503',
    });
    expect(delivery.attemptLog.map((a) => [a.statusCode, a.error, a.responseExcerpt])).toEqual([
      [500, 'HTTP 500', 'down'],
      [null, 'ECONNREFUSED', null],
      [503, 'HTTP 503', null],
    ]);
    const headers = s.sender.sent.map((r) => r.messageId);
    expect(new Set(headers).size).toBe(1);
  });

  it('stops at a 410 Gone: no retry, the delivery failed and the attempt saying why', async () => {
    const s = build();
    s.sender.answer({ statusCode: 410 });
    const campaign = await campaignWith(s, 'https://hooks.example.com/x');
    await s.uow.run((tx) =>
      s.outbox.record(tx, [{ kind: 'call_finished', event: event(campaign) }]),
    );
    const id = (s.jobs.jobs[0].data as { deliveryId: string }).deliveryId;

    expect(await runDueJobs(s)).toEqual(['gone']);
    expect(s.jobs.jobs).toEqual([]);
    const delivery = await s.service.get(ORG, id);
    expect(delivery).toMatchObject({ status: 'failed', attempts: 1, lastStatusCode: 410 });
    expect(delivery.attemptLog.map((a) => [a.statusCode, a.error])).toEqual([[410, GONE_ERROR]]);
    expect(s.metrics.webhookAttempts).toEqual(['gone']);
  });

  it('records a failed attempt when the campaign lost its webhook_url after the event', async () => {
    const s = build();
    const campaign = await campaignWith(s, 'https://hooks.example.com/x');
    await s.uow.run((tx) =>
      s.outbox.record(tx, [{ kind: 'call_finished', event: event(campaign) }]),
    );
    await s.campaigns.update(ORG, campaign.id, { webhookUrl: null });
    expect(await runDueJobs(s)).toEqual(['retry']);
    expect(s.sender.sent).toEqual([]);
    const [delivery] = (await s.service.list(ORG, campaign.id, null, { page: 0, limit: 10 })).items;
    expect(delivery).toMatchObject({
      status: 'pending',
      lastError: 'the campaign has no webhook_url',
    });
  });

  it('uses the rotated secret from the next attempt on', async () => {
    const s = build();
    s.sender.answer({ statusCode: 500 });
    const campaign = await campaignWith(s, 'https://hooks.example.com/x');
    await s.uow.run((tx) =>
      s.outbox.record(tx, [{ kind: 'call_finished', event: event(campaign) }]),
    );
    await runDueJobs(s);
    const secret = await s.service.rotateSecret(ORG, campaign.id);
    expect(secret).toMatch(/^whsec_/);
    s.clock.advance(10_000);
    await runDueJobs(s);
    expect(s.sender.sent.map((r) => r.secret)).toEqual([campaign.webhookSecret, secret]);
  });
});

describe('WebhookDeliveryService.rerunFailed', () => {
  async function failedDelivery(s: Setup, campaign: Campaign): Promise<string> {
    s.sender.answer({ statusCode: 500 }, { statusCode: 500 }, { statusCode: 500 });
    await s.uow.run((tx) =>
      s.outbox.record(tx, [{ kind: 'call_finished', event: event(campaign) }]),
    );
    await runDueJobs(s);
    s.clock.advance(10_000);
    await runDueJobs(s);
    s.clock.advance(60_000);
    await runDueJobs(s);
    const [delivery] = (await s.service.list(ORG, campaign.id, 'failed', { page: 0, limit: 10 }))
      .items;
    return delivery.id;
  }

  it('re-queues failed deliveries in the window once, and they are sent again with a fresh schedule', async () => {
    const s = build();
    const campaign = await campaignWith(s, 'https://hooks.example.com/x');
    const id = await failedDelivery(s, campaign);
    expect(await s.service.rerunFailed(ORG, campaign.id, '2026-01-05', '2026-01-05')).toBe(1);
    expect(await s.service.rerunFailed(ORG, campaign.id, '2026-01-05', '2026-01-05')).toBe(0);
    expect(s.jobs.jobs).toEqual([{ queue: DELIVERY_QUEUE, data: { deliveryId: id } }]);
    s.sender.answer({ statusCode: 500 });
    expect(await runDueJobs(s)).toEqual(['retry']); // a fresh schedule: the first delay again
    s.clock.advance(10_000);
    expect(await runDueJobs(s)).toEqual(['delivered']);
    expect((await s.service.get(ORG, id)).attempts).toBe(5);
  });

  it('leaves failed deliveries outside the window', async () => {
    const s = build();
    const campaign = await campaignWith(s, 'https://hooks.example.com/x');
    await failedDelivery(s, campaign);
    expect(
      await s.service.rerunFailed(ORG, campaign.id, '2026-01-05T15:00:00.001Z', '2026-01-06'),
    ).toBe(0);
    expect(
      await s.service.rerunFailed(ORG, campaign.id, '2026-01-01', '2026-01-05T14:59:59.999Z'),
    ).toBe(0);
    expect(
      await s.service.rerunFailed(ORG, campaign.id, '2026-01-05T15:00:00Z', '2026-01-05T15:00:00Z'),
    ).toBe(1);
  });

  it("refuses a reversed window and another organization's campaign", async () => {
    const s = build();
    const campaign = await campaignWith(s, 'https://hooks.example.com/x');
    await expect(
      s.service.rerunFailed(ORG, campaign.id, '2026-01-06', '2026-01-05'),
    ).rejects.toEqual(
      new InvalidInputError(
        'from_date must be before or equal to to_date',
        ['to_date'],
        '2026-01-05',
      ),
    );
    await expect(
      s.service.rerunFailed(OTHER_ORG, campaign.id, '2026-01-01', '2026-01-05'),
    ).rejects.toBeInstanceOf(NotFoundError);
    await expect(
      s.service.rerunFailed(ORG, 'nope', '2026-01-01', '2026-01-05'),
    ).rejects.toBeInstanceOf(NotFoundError);
  });
});

describe('WebhookDeliveryService reads and recovery', () => {
  it('hides deliveries of other organizations and malformed ids', async () => {
    const s = build();
    const campaign = await campaignWith(s, 'https://hooks.example.com/x');
    await s.uow.run((tx) =>
      s.outbox.record(tx, [{ kind: 'call_finished', event: event(campaign) }]),
    );
    const [delivery] = (await s.service.list(ORG, campaign.id, null, { page: 0, limit: 10 })).items;
    await expect(s.service.get(OTHER_ORG, delivery.id)).rejects.toBeInstanceOf(NotFoundError);
    await expect(s.service.get(ORG, 'not-a-uuid')).rejects.toBeInstanceOf(NotFoundError);
    await expect(
      s.service.list(OTHER_ORG, campaign.id, null, { page: 0, limit: 10 }),
    ).rejects.toBeInstanceOf(NotFoundError);
  });

  it('re-queues deliveries whose job was lost, once per recovery period', async () => {
    const s = build();
    const campaign = await campaignWith(s, 'https://hooks.example.com/x');
    await s.uow.run((tx) =>
      s.outbox.record(tx, [{ kind: 'call_finished', event: event(campaign) }]),
    );
    s.jobs.take(DELIVERY_QUEUE); // the job is lost
    expect(await s.service.recoverOverdue()).toBe(0);
    s.clock.advance(61_000);
    expect(await s.service.recoverOverdue()).toBe(1);
    expect(await s.service.recoverOverdue()).toBe(0);
    expect(await runDueJobs(s)).toEqual(['delivered']);
  });

  it('registers the delivery handler with an expiry longer than the lease', async () => {
    const s = build();
    const worker = new WebhookWorker(
      s.jobs,
      s.service,
      new WebhookSettings({
        retryScheduleMs: [1000],
        leaseMs: 15_000,
        recoveryMs: 60_000,
        runRecovery: false,
        concurrency: 4,
      }),
      new InProcessExclusiveRunner(),
    );
    await worker.onModuleInit();
    expect(s.jobs.handlers.get(DELIVERY_QUEUE)?.options).toEqual({
      concurrency: 4,
      expireInSeconds: 20,
      retryLimit: 10,
      retryDelaySeconds: 2,
    });
    await worker.onModuleDestroy();
  });
});
