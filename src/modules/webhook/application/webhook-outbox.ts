import { Injectable } from '@nestjs/common';
import { randomUUID } from 'crypto';
import { Outbox, OutboxEvent } from './ports/outbox.js';
import { JobQueue } from '../../../common/jobs/job-queue.js';
import { Tx, UnitOfWork } from '../../../common/persistence/unit-of-work.js';
import { Clock } from '../../../common/clock/clock.js';
import {
  callFinishedPayload,
  campaignPausedPayload,
  importFinishedPayload,
  messagePayload,
} from '../domain/webhook-delivery.js';
import { WebhookDeliveryRepository } from './ports/webhook-delivery.repository.js';
import { OutboxListeners } from './ports/outbox-listeners.js';

export const DELIVERY_QUEUE = 'webhook-delivery';

export interface DeliveryJob {
  deliveryId: string;
}

/**
 * The transactional outbox: the event rows, their deliveries and the delivery jobs are written in the
 * caller's transaction, so a state change and its notification commit (or roll back) together.
 * Nothing is sent from here; a worker picks the job up after the commit, and the in-process listeners
 * are told of call and message events once the transaction has committed.
 */
@Injectable()
export class WebhookOutbox extends Outbox {
  constructor(
    private readonly deliveries: WebhookDeliveryRepository,
    private readonly jobs: JobQueue,
    private readonly clock: Clock,
    private readonly unitOfWork: UnitOfWork,
    private readonly listeners: OutboxListeners,
  ) {
    super();
  }

  async record(tx: Tx, events: readonly OutboxEvent[]): Promise<void> {
    if (events.length === 0) return;
    if (this.listeners.any) {
      const calls = events.flatMap((e) => (e.kind === 'call_finished' ? [e.event] : []));
      const messages = events.flatMap((e) => (e.kind === 'message' ? [e.event] : []));
      if (calls.length > 0)
        this.unitOfWork.afterCommit(tx, () => this.listeners.callFinished(calls));
      if (messages.length > 0)
        this.unitOfWork.afterCommit(tx, () => this.listeners.messageEvents(messages));
    }
    const createdAt = this.clock.now();
    const deliveryIds = await this.deliveries.recordEvents(
      tx,
      events.map((e) => ({ id: randomUUID(), ...webhookEventOf(e), createdAt })),
    );
    await enqueueDeliveries(this.jobs, tx, deliveryIds, createdAt);
  }
}

/** An event as the webhook row records it: its type, its target (if any) and its payload. */
function webhookEventOf(e: OutboxEvent) {
  const payload = payloadOf(e);
  const { organizationId, campaignId } = e.event;
  const targetId = e.kind === 'call_finished' || e.kind === 'message' ? e.event.targetId : null;
  return { organizationId, campaignId, targetId, type: payload.type, payload };
}

function payloadOf(e: OutboxEvent): Record<string, unknown> & { type: string } {
  switch (e.kind) {
    case 'call_finished':
      return callFinishedPayload(e.event);
    case 'message':
      return messagePayload(e.event);
    case 'import_finished':
      return importFinishedPayload(e.event);
    case 'campaign_paused':
      return campaignPausedPayload(e.event);
  }
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
