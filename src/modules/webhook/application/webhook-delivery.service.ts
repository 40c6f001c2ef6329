import { Injectable, Logger } from '@nestjs/common';
import { randomUUID } from 'crypto';
import { Clock } from '../../../common/clock/clock.js';
import { InvalidInputError, NotFoundError } from '../../../common/errors/domain-errors.js';
import { lowerBound, upperBound } from '../../../common/dates/date-bounds.js';
import { offsetOf, PageRequest } from '../../../common/paging/paging.js';
import { JobQueue } from '../../../common/jobs/job-queue.js';
import { Metrics, WebhookAttemptOutcome } from '../../../common/metrics/metrics.js';
import { Tx, UnitOfWork } from '../../../common/persistence/unit-of-work.js';
import { isUuid } from '../../../common/ids/canonical-uuid.js';
import { CampaignService } from '../../campaign/application/campaign.service.js';
import {
  AttemptOutcome,
  DeliveryStatus,
  DeliveryWithAttempts,
  isGoneStatus,
  isSuccessStatus,
  outcomeOf,
  WebhookDelivery,
} from '../domain/webhook-delivery.js';
import {
  AttemptResult,
  ClaimedDelivery,
  WebhookDeliveryRepository,
} from './ports/webhook-delivery.repository.js';
import { WebhookResponse, WebhookSender } from './ports/webhook-sender.js';
import { enqueueDeliveries } from './webhook-outbox.js';
import { WebhookSettings } from './webhook-settings.js';

export type DeliverOutcome = 'skipped' | WebhookAttemptOutcome;

/** What a 410 attempt records: the receiver asked for no more deliveries, so none follows. */
export const GONE_ERROR = 'HTTP 410 Gone: the receiver asked for no more deliveries; not retried';

/**
 * Sends deliveries (one attempt per job), re-runs failed ones and shows them. The delivery row is the
 * truth: a job only names a delivery, and a delivery is sent only by the worker that claimed it.
 */
@Injectable()
export class WebhookDeliveryService {
  private readonly logger = new Logger('WebhookDelivery');

  constructor(
    private readonly deliveries: WebhookDeliveryRepository,
    private readonly sender: WebhookSender,
    private readonly unitOfWork: UnitOfWork,
    private readonly jobs: JobQueue,
    private readonly clock: Clock,
    private readonly settings: WebhookSettings,
    private readonly campaigns: CampaignService,
    private readonly metrics: Metrics,
  ) {}

  /**
   * One attempt at a delivery. Safe to run twice or late: a delivery that is not due, already
   * claimed by a live worker, or finished is left alone.
   */
  async deliver(deliveryId: string): Promise<DeliverOutcome> {
    const now = this.clock.now();
    const leaseToken = randomUUID();
    const claimed = await this.deliveries.claim(
      deliveryId,
      now,
      new Date(now.getTime() + this.settings.leaseMs),
      leaseToken,
    );
    if (!claimed) return 'skipped';

    const attemptedAt = this.clock.now();
    const response = await this.send(claimed, attemptedAt);
    const success = isSuccessStatus(response.statusCode);
    const gone = isGoneStatus(response.statusCode);
    const outcome: AttemptOutcome = gone
      ? { kind: 'failed' }
      : outcomeOf(success, claimed.runAttempts, this.settings.retryScheduleMs, this.clock.now());
    const result: AttemptResult =
      outcome.kind === 'delivered'
        ? { status: 'delivered' }
        : outcome.kind === 'retry'
          ? { status: 'pending', nextAttemptAt: outcome.nextAttemptAt }
          : { status: 'failed' };
    const attempt = {
      attemptedAt,
      url: claimed.url,
      statusCode: response.statusCode,
      durationMs: response.durationMs,
      success,
      error: response.error ?? (success ? null : gone ? GONE_ERROR : `HTTP ${response.statusCode}`),
      responseExcerpt: response.responseExcerpt,
    };
    const complete = (tx: Tx | null) =>
      this.deliveries.completeAttempt(tx, claimed.id, leaseToken, attempt, result);
    // Delivered or failed is one atomic statement; a retry also enqueues its job in the same commit.
    const ours =
      outcome.kind === 'retry'
        ? await this.unitOfWork.run(async (tx) => {
            const kept = await complete(tx);
            if (kept) await enqueueDeliveries(this.jobs, tx, [claimed.id], outcome.nextAttemptAt);
            return kept;
          })
        : await complete(null);
    const reported: DeliverOutcome = !ours ? 'lease_lost' : gone ? 'gone' : outcome.kind;
    this.metrics.webhookAttempt(reported, response.durationMs);
    this.logger.log(
      {
        ...describeEndpoint(claimed),
        deliveryId,
        eventId: claimed.eventId,
        attempt: claimed.runAttempts,
        status: response.statusCode,
        durationMs: response.durationMs,
        outcome: reported,
        ...(response.error && { error: response.error }),
      },
      'webhook delivery attempt',
    );
    if (!ours) {
      this.logger.warn(
        { deliveryId },
        'delivery lease expired during the attempt; another worker took it over',
      );
    }
    return reported;
  }

  private async send(claimed: ClaimedDelivery, attemptedAt: Date): Promise<WebhookResponse> {
    if (!claimed.url) return unsent('the campaign has no webhook_url');
    try {
      return await this.sender.send({
        url: claimed.url,
        body: claimed.body,
        messageId: claimed.eventId,
        sentAt: attemptedAt,
        secret: claimed.secret,
      });
    } catch (err) {
      return unsent((err as Error).message ?? String(err));
    }
  }

  /**
   * Queues again the unfinished deliveries whose job was lost (a worker died and its job ran out of
   * retries, or a job was never fetched). Duplicate jobs are harmless: the claim decides.
   */
  async recoverOverdue(limit = 500): Promise<number> {
    const now = this.clock.now();
    const before = new Date(now.getTime() - this.settings.recoveryMs);
    return this.unitOfWork.run(async (tx) => {
      const ids = await this.deliveries.reviveOverdue(tx, before, now, limit);
      await enqueueDeliveries(this.jobs, tx, ids);
      return ids.length;
    });
  }

  /**
   * Re-queues the campaign's failed deliveries whose event was created in [from, to] with a fresh
   * retry schedule and the same webhook-id. A delivery already re-queued is no longer `failed`, so a
   * second rerun does not send it twice.
   */
  async rerunFailed(
    organizationId: string,
    campaignId: string,
    fromDate: string,
    toDate: string,
  ): Promise<number> {
    const campaign = await this.campaigns.get(organizationId, campaignId);
    const from = lowerBound(fromDate);
    const to = upperBound(toDate);
    if (!from || !to || Number.isNaN(from.getTime()) || Number.isNaN(to.getTime())) {
      throw new InvalidInputError('from_date and to_date must be dates or date-times', [], {
        from_date: fromDate,
        to_date: toDate,
      });
    }
    if (from > to) {
      throw new InvalidInputError(
        'from_date must be before or equal to to_date',
        ['to_date'],
        toDate,
      );
    }
    return this.unitOfWork.run(async (tx) => {
      const ids = await this.deliveries.requeueFailed(
        tx,
        organizationId,
        campaign.id,
        from,
        to,
        this.clock.now(),
      );
      await enqueueDeliveries(this.jobs, tx, ids);
      return ids.length;
    });
  }

  async list(
    organizationId: string,
    campaignId: string,
    status: DeliveryStatus | null,
    page: PageRequest,
  ): Promise<{ items: WebhookDelivery[]; total: number }> {
    const campaign = await this.campaigns.get(organizationId, campaignId);
    return this.deliveries.list(organizationId, campaign.id, status, {
      offset: offsetOf(page),
      limit: page.limit,
    });
  }

  async get(organizationId: string, deliveryId: string): Promise<DeliveryWithAttempts> {
    const delivery = isUuid(deliveryId)
      ? await this.deliveries.findById(organizationId, deliveryId)
      : null;
    if (!delivery) throw new NotFoundError(`Webhook delivery ${deliveryId} not found`);
    return delivery;
  }

  async rotateSecret(organizationId: string, campaignId: string): Promise<string> {
    const campaign = await this.campaigns.rotateWebhookSecret(organizationId, campaignId);
    return campaign.webhookSecret;
  }
}

/** An attempt that never reached a receiver: no status and no answer. */
const unsent = (error: string): WebhookResponse => ({
  statusCode: null,
  error,
  responseExcerpt: null,
  durationMs: 0,
});

/**
 * Which endpoint an attempt went to, for the log: the campaign (a campaign has one endpoint), the
 * event type, and the URL's origin only (paths and queries may carry the receiver's tokens).
 */
function describeEndpoint(claimed: ClaimedDelivery): Record<string, unknown> {
  let event: { type?: unknown; campaign_id?: unknown } = {};
  try {
    event = JSON.parse(claimed.body);
  } catch {
    // the body is the stored event JSON; an unreadable one still gets its attempt logged
  }
  const origin = claimed.url && URL.canParse(claimed.url) ? new URL(claimed.url).origin : null;
  return { campaignId: event.campaign_id, event: event.type, endpoint: origin };
}
