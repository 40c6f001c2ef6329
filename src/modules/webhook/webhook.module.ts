import { Module, Provider } from '@nestjs/common';
import { Outbox } from './application/ports/outbox.js';
import { AppConfig } from '../../config/app-config.js';
import { CampaignModule } from '../campaign/campaign.module.js';
import { WebhookController } from './api/webhook.controller.js';
import { WebhookDeliveryRepository } from './application/ports/webhook-delivery.repository.js';
import { WebhookSender } from './application/ports/webhook-sender.js';
import { TargetNotifications } from './application/ports/target-notifications.js';
import { WebhookDeliveryService } from './application/webhook-delivery.service.js';
import { WebhookOutbox } from './application/webhook-outbox.js';
import { WebhookSettings } from './application/webhook-settings.js';
import { WebhookWorker } from './infrastructure/webhook.worker.js';
import { parseRetrySchedule } from './domain/webhook-delivery.js';
import { HttpWebhookSender } from './infrastructure/http-webhook-sender.js';
import { SqlWebhookDeliveryRepository } from './infrastructure/webhook-delivery-repository.sql.js';
import { WebhookData } from '../retention/application/ports/patient-data-holders.js';
import { SqlWebhookData } from './infrastructure/webhook-data.sql.js';

/** Margin of a claim's lease over the send timeout, for the database writes around the send. */
const LEASE_MARGIN_MS = 5000;

export const WEBHOOK_ADAPTERS: Provider[] = [
  { provide: WebhookData, useClass: SqlWebhookData },
  { provide: WebhookDeliveryRepository, useClass: SqlWebhookDeliveryRepository },
  // The same adapter answers the target timeline's per-target read (it owns webhook_events).
  { provide: TargetNotifications, useExisting: WebhookDeliveryRepository },
  {
    provide: WebhookSender,
    inject: [AppConfig],
    useFactory: (config: AppConfig) =>
      new HttpWebhookSender({
        timeoutMs: config.get('WEBHOOK_TIMEOUT_MS'),
        allowPrivate: config.get('WEBHOOK_ALLOW_PRIVATE'),
      }),
  },
];

/**
 * Outbound notifications. Exports the `Outbox` port the calling, messaging and target modules record
 * their events in; it imports none of them (they import this one: docs/architecture.md, module layers).
 */
@Module({
  imports: [CampaignModule],
  controllers: [WebhookController],
  providers: [
    {
      provide: WebhookSettings,
      inject: [AppConfig],
      useFactory: (config: AppConfig) =>
        new WebhookSettings({
          retryScheduleMs: parseRetrySchedule(config.get('WEBHOOK_RETRY_SCHEDULE')),
          leaseMs: config.get('WEBHOOK_TIMEOUT_MS') + LEASE_MARGIN_MS,
          recoveryMs: config.get('WEBHOOK_RECOVERY_SECONDS') * 1000,
          runRecovery: config.get('ROLE') !== 'api',
          concurrency: config.get('WORKER_CONCURRENCY'),
        }),
    },
    { provide: Outbox, useClass: WebhookOutbox },
    WebhookDeliveryService,
    WebhookWorker,
  ],
  exports: [Outbox, WebhookDeliveryService],
})
export class WebhookModule {}
