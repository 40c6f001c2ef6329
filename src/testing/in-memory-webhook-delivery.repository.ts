import { randomUUID } from 'crypto';
import { Tx } from '../common/persistence/unit-of-work.js';
import type { Campaign } from '../modules/campaign/domain/campaign.js';
import {
  AttemptRecord,
  AttemptResult,
  ClaimedDelivery,
  NewWebhookEvent,
  WebhookDeliveryRepository,
} from '../modules/webhook/application/ports/webhook-delivery.repository.js';
import {
  DeliveryAttempt,
  DeliveryStatus,
  DeliveryWithAttempts,
  WebhookDelivery,
} from '../modules/webhook/domain/webhook-delivery.js';
import {
  TargetNotification,
  TargetNotifications,
} from '../modules/webhook/application/ports/target-notifications.js';
import { byCreatedThenId, clone, isOlder, newestFirst, pageOf } from './in-memory-rows.js';

/** Where the fake reads a campaign's current endpoint, as the adapter reads the campaigns table. */
export interface WebhookCampaignSource {
  findById(campaignId: string): Promise<Pick<Campaign, 'webhookUrl' | 'webhookSecret'> | null>;
}

const positionOf = (n: TargetNotification) => ({ atMicros: n.createdMicros, key: n.sortKey });

interface Stored {
  delivery: WebhookDelivery;
  runAttempts: number;
  leaseToken: string | null;
  leaseUntil: Date | null;
  attempts: DeliveryAttempt[];
}

/**
 * WebhookDeliveryRepository in memory, with the adapter's rules: claims are conditional on status,
 * due time and lease; completing needs the lease; reruns take only `failed` ones in the window.
 */
export class InMemoryWebhookDeliveryRepository
  extends WebhookDeliveryRepository
  implements TargetNotifications
{
  readonly events: NewWebhookEvent[] = [];
  private readonly rows = new Map<string, Stored>();
  private attemptSeq = 0;

  constructor(private readonly campaigns: WebhookCampaignSource) {
    super();
  }

  async listForTarget(
    organizationId: string,
    targetId: string,
    before: { atMicros: number; key: string } | null,
    limit: number,
  ): Promise<TargetNotification[]> {
    const deliveries = [...this.rows.values()].map((r) => r.delivery);
    return this.events
      .filter((e) => e.targetId === targetId && e.organizationId === organizationId)
      .map((e): TargetNotification => {
        const delivery = deliveries.find((d) => d.eventId === e.id);
        return {
          eventId: e.id,
          type: e.type,
          createdAt: new Date(e.createdAt),
          createdMicros: e.createdAt.getTime() * 1000,
          sortKey: `n:${e.id}`,
          deliveryStatus: delivery?.status ?? null,
          deliveryAttempts: delivery?.attempts ?? 0,
        };
      })
      .filter((n) => isOlder(positionOf(n), before))
      .sort((a, b) => newestFirst(positionOf(a), positionOf(b)))
      .slice(0, limit);
  }

  async recordEvents(_tx: Tx, events: NewWebhookEvent[]): Promise<string[]> {
    const ids: string[] = [];
    for (const event of events) {
      this.events.push(clone(event));
      const campaign = await this.campaigns.findById(event.campaignId);
      if (!campaign?.webhookUrl) continue;
      const id = randomUUID();
      ids.push(id);
      this.rows.set(id, {
        delivery: {
          id,
          eventId: event.id,
          organizationId: event.organizationId,
          campaignId: event.campaignId,
          targetId: event.targetId,
          eventType: event.type,
          payload: clone(event.payload),
          status: 'pending',
          attempts: 0,
          nextAttemptAt: event.createdAt,
          lastStatusCode: null,
          lastError: null,
          lastAttemptAt: null,
          deliveredAt: null,
          eventCreatedAt: event.createdAt,
          createdAt: event.createdAt,
          updatedAt: event.createdAt,
        },
        runAttempts: 0,
        leaseToken: null,
        leaseUntil: null,
        attempts: [],
      });
    }
    return ids;
  }

  async claim(
    deliveryId: string,
    now: Date,
    leaseUntil: Date,
    leaseToken: string,
  ): Promise<ClaimedDelivery | null> {
    const row = this.rows.get(deliveryId);
    if (!row) return null;
    const campaign = await this.campaigns.findById(row.delivery.campaignId);
    if (!campaign) return null;
    // From here on synchronous, like the adapter's single conditional UPDATE: concurrent claims
    // cannot interleave between the check and the change.
    const { delivery } = row;
    const due =
      (delivery.status === 'pending' &&
        delivery.nextAttemptAt!.getTime() <= now.getTime() + 1000) ||
      (delivery.status === 'sending' && row.leaseUntil!.getTime() < now.getTime());
    if (!due) return null;
    Object.assign(delivery, { status: 'sending', nextAttemptAt: leaseUntil, updatedAt: now });
    delivery.attempts += 1;
    Object.assign(row, { runAttempts: row.runAttempts + 1, leaseToken, leaseUntil });
    return {
      id: delivery.id,
      eventId: delivery.eventId,
      leaseToken,
      runAttempts: row.runAttempts,
      body: JSON.stringify(delivery.payload),
      url: campaign.webhookUrl || null,
      secret: campaign.webhookSecret,
    };
  }

  async completeAttempt(
    _tx: Tx | null,
    deliveryId: string,
    leaseToken: string,
    attempt: AttemptRecord,
    result: AttemptResult,
  ): Promise<boolean> {
    const row = this.rows.get(deliveryId);
    if (!row) return false;
    row.attempts.push({ id: ++this.attemptSeq, ...clone(attempt) });
    if (row.delivery.status !== 'sending' || row.leaseToken !== leaseToken) return false;
    const finishedAt = new Date(attempt.attemptedAt.getTime() + attempt.durationMs);
    Object.assign(row.delivery, {
      status: result.status,
      nextAttemptAt: result.status === 'pending' ? result.nextAttemptAt : null,
      lastStatusCode: attempt.statusCode,
      lastError: attempt.error,
      lastAttemptAt: attempt.attemptedAt,
      deliveredAt: result.status === 'delivered' ? finishedAt : row.delivery.deliveredAt,
      updatedAt: finishedAt,
    });
    Object.assign(row, { leaseToken: null, leaseUntil: null });
    return true;
  }

  async requeueFailed(
    _tx: Tx,
    organizationId: string,
    campaignId: string,
    from: Date,
    to: Date,
    now: Date,
  ): Promise<string[]> {
    const ids: string[] = [];
    for (const row of this.rows.values()) {
      const d = row.delivery;
      const at = d.eventCreatedAt.getTime();
      if (
        d.organizationId === organizationId &&
        d.campaignId === campaignId &&
        d.status === 'failed' &&
        at >= from.getTime() &&
        at <= to.getTime()
      ) {
        Object.assign(d, { status: 'pending', nextAttemptAt: now, updatedAt: now });
        row.runAttempts = 0;
        ids.push(d.id);
      }
    }
    return ids;
  }

  async reviveOverdue(_tx: Tx, before: Date, now: Date, limit: number): Promise<string[]> {
    const overdue = [...this.rows.values()]
      .filter(
        (r) =>
          ['pending', 'sending'].includes(r.delivery.status) && r.delivery.nextAttemptAt! < before,
      )
      .sort((a, b) => a.delivery.nextAttemptAt!.getTime() - b.delivery.nextAttemptAt!.getTime())
      .slice(0, limit);
    for (const row of overdue) row.delivery.nextAttemptAt = now;
    return overdue.map((r) => r.delivery.id);
  }

  async list(
    organizationId: string,
    campaignId: string,
    status: DeliveryStatus | null,
    page: { offset: number; limit: number },
  ): Promise<{ items: WebhookDelivery[]; total: number }> {
    const all = [...this.rows.values()]
      .map((r) => r.delivery)
      .filter((d) => d.organizationId === organizationId && d.campaignId === campaignId)
      .filter((d) => status === null || d.status === status)
      .sort(byCreatedThenId);
    return pageOf(all, page.offset, page.limit);
  }

  /** The live attempt records of the targets' deliveries, for the retention fake that blanks them. */
  storedAttempts(organizationId: string, targetIds: string[]): DeliveryAttempt[] {
    return [...this.rows.values()]
      .filter(
        (r) =>
          r.delivery.organizationId === organizationId &&
          r.delivery.targetId !== null &&
          targetIds.includes(r.delivery.targetId),
      )
      .flatMap((r) => r.attempts);
  }

  async findById(organizationId: string, deliveryId: string): Promise<DeliveryWithAttempts | null> {
    const row = this.rows.get(deliveryId);
    if (!row || row.delivery.organizationId !== organizationId) return null;
    return { ...clone(row.delivery), attemptLog: clone(row.attempts) };
  }
}
