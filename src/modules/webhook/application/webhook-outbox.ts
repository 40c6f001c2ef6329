import { Injectable } from '@nestjs/common';
import { randomUUID } from 'crypto';
import { CallFinishedEvent, CallFinishedOutbox } from './ports/call-finished-outbox.js';
import { JobQueue } from '../../../common/jobs/job-queue.js';
import { Tx, UnitOfWork } from '../../../common/persistence/unit-of-work.js';
import { Clock } from '../../../common/clock/clock.js';
import {
  CALL_FINISHED,
  callFinishedPayload,
  IMPORT_FINISHED,
  CAMPAIGN_PAUSED,
  campaignPausedPayload,
  importFinishedPayload,
  messagePayload,
} from '../domain/webhook-delivery.js';
import { MessageEvent, MessageEventOutbox } from './ports/message-event-outbox.js';
import { ImportFinishedEvent, ImportFinishedOutbox } from './ports/import-finished-outbox.js';
import { CampaignPausedEvent, CampaignPausedOutbox } from './ports/campaign-paused-outbox.js';
import { WebhookDeliveryRepository } from './ports/webhook-delivery.repository.js';
import { OutboxListeners } from './ports/outbox-listeners.js';

export const DELIVERY_QUEUE = 'webhook-delivery';

export interface DeliveryJob {
  deliveryId: string;
}

/**
 * The transactional outbox: the event row, its delivery and the delivery job are written in the
 * caller's transaction, so a state change and its notification commit (or roll back) together.
 * Nothing is sent from here; a worker picks the job up after the commit, and the in-process listeners
 * are told once the transaction has committed.
 */
@Injectable()
export class WebhookOutbox extends CallFinishedOutbox {
  constructor(
    private readonly deliveries: WebhookDeliveryRepository,
    private readonly jobs: JobQueue,
    private readonly clock: Clock,
    private readonly unitOfWork: UnitOfWork,
    private readonly listeners: OutboxListeners,
  ) {
    super();
  }

  async recordAll(tx: Tx, events: CallFinishedEvent[]): Promise<void> {
    if (this.listeners.any && events.length > 0) {
      this.unitOfWork.afterCommit(tx, () => this.listeners.callFinished(events));
    }
    await recordEvents(
      this.deliveries,
      this.jobs,
      this.clock,
      tx,
      events.map((event) => ({
        organizationId: event.organizationId,
        campaignId: event.campaignId,
        targetId: event.targetId,
        type: CALL_FINISHED,
        payload: { ...callFinishedPayload(event) },
      })),
    );
  }
}

/** The same outbox for `import.finished` (a second port: the target module is its only writer). */
@Injectable()
export class ImportOutbox extends ImportFinishedOutbox {
  constructor(
    private readonly deliveries: WebhookDeliveryRepository,
    private readonly jobs: JobQueue,
    private readonly clock: Clock,
  ) {
    super();
  }

  record(tx: Tx, event: ImportFinishedEvent): Promise<void> {
    return recordCampaignEvent(this.deliveries, this.jobs, this.clock, tx, event, {
      type: IMPORT_FINISHED,
      payload: { ...importFinishedPayload(event) },
    });
  }
}

/** The same outbox for `campaign.paused` (the calling module's circuit breaker writes it). */
@Injectable()
export class PausedOutbox extends CampaignPausedOutbox {
  constructor(
    private readonly deliveries: WebhookDeliveryRepository,
    private readonly jobs: JobQueue,
    private readonly clock: Clock,
  ) {
    super();
  }

  record(tx: Tx, event: CampaignPausedEvent): Promise<void> {
    return recordCampaignEvent(this.deliveries, this.jobs, this.clock, tx, event, {
      type: CAMPAIGN_PAUSED,
      payload: { ...campaignPausedPayload(event) },
    });
  }
}

/** The same outbox for `message.status` and `message.received` (the messaging module writes them). */
@Injectable()
export class MessageOutbox extends MessageEventOutbox {
  constructor(
    private readonly deliveries: WebhookDeliveryRepository,
    private readonly jobs: JobQueue,
    private readonly clock: Clock,
    private readonly unitOfWork: UnitOfWork,
    private readonly listeners: OutboxListeners,
  ) {
    super();
  }

  async recordAll(tx: Tx, events: MessageEvent[]): Promise<void> {
    if (this.listeners.any && events.length > 0) {
      this.unitOfWork.afterCommit(tx, () => this.listeners.messageEvents(events));
    }
    await recordEvents(
      this.deliveries,
      this.jobs,
      this.clock,
      tx,
      events.map((event) => ({
        organizationId: event.organizationId,
        campaignId: event.campaignId,
        targetId: event.targetId,
        type: event.type,
        payload: { ...messagePayload(event) },
      })),
    );
  }
}

/** One event of a campaign with no target (`import.finished`, `campaign.paused`), and its delivery job. */
function recordCampaignEvent(
  deliveries: WebhookDeliveryRepository,
  jobs: JobQueue,
  clock: Clock,
  tx: Tx,
  campaign: { organizationId: string; campaignId: string },
  event: { type: string; payload: Record<string, unknown> },
): Promise<void> {
  return recordEvents(deliveries, jobs, clock, tx, [
    {
      organizationId: campaign.organizationId,
      campaignId: campaign.campaignId,
      targetId: null,
      ...event,
    },
  ]);
}

/** Events, their deliveries and the delivery jobs, in `tx`, whatever their number (a few statements). */
async function recordEvents(
  deliveries: WebhookDeliveryRepository,
  jobs: JobQueue,
  clock: Clock,
  tx: Tx,
  events: {
    organizationId: string;
    campaignId: string;
    targetId: string | null;
    type: string;
    payload: Record<string, unknown>;
  }[],
): Promise<void> {
  if (events.length === 0) return;
  const createdAt = clock.now();
  const deliveryIds = await deliveries.recordEvents(
    tx,
    events.map((event) => ({ id: randomUUID(), ...event, createdAt })),
  );
  await enqueueDeliveries(jobs, tx, deliveryIds, createdAt);
}

export function enqueueDeliveries(
  jobs: JobQueue,
  tx: Tx,
  deliveryIds: string[],
  startAfter?: Date,
): Promise<void> {
  return jobs.enqueue(
    tx,
    deliveryIds.map((deliveryId) => ({
      queue: DELIVERY_QUEUE,
      data: { deliveryId } satisfies DeliveryJob,
      startAfter,
    })),
  );
}
