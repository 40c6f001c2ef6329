import { Module, Provider } from '@nestjs/common';
import { CampaignModule } from '../campaign/campaign.module.js';
import { OrganizationModule } from '../organization/organization.module.js';
import { ComplianceModule } from '../compliance/compliance.module.js';
import { ProviderConnectionModule } from '../provider-connection/provider-connection.module.js';
import { TargetModule } from '../target/target.module.js';
import { WebhookModule } from '../webhook/webhook.module.js';
import { RetentionModule } from '../retention/retention.module.js';
import { MessageController } from './api/message.controller.js';
import { TelephonyMessagesController } from './api/telephony-messages.controller.js';
import { MessagingService, MessagingSettings } from './application/messaging.service.js';
import { TextPermission } from './application/text-permission.js';
import { TextReceipts } from './application/text-receipts.js';
import { TextSending } from './application/text-sending.js';
import { TextSettlement } from './application/text-settlement.js';
import { AppConfig } from '../../config/app-config.js';
import { ProviderTextClients } from '../provider-connection/application/ports/provider-text-clients.js';
import { MessagingWorker } from './infrastructure/messaging.worker.js';
import { FollowUpTexts } from './application/ports/follow-up-texts.js';
import { MessageRepository } from './application/ports/message.repository.js';
import { TextSenders } from './application/ports/text-senders.js';
import { ConnectionTextSenders } from './infrastructure/connection-text-senders.js';
import { SqlMessageRepository } from './infrastructure/message-repository.sql.js';
import { MessageData } from '../retention/application/ports/patient-data-holders.js';
import { SqlMessageData } from './infrastructure/message-data.sql.js';

/** The messaging module's port bindings, which the root module binds (or replaces from its options). */
export const MESSAGING_ADAPTERS: Provider[] = [
  { provide: MessageData, useClass: SqlMessageData },
  { provide: MessageRepository, useClass: SqlMessageRepository },
];

/**
 * Texts (docs/calling.md, Texts): owns `messages`; queues the follow-up texts the calling engine asks
 * for (`MessagingService.queueFollowUps`, in the call's completion transaction), sends them under the
 * calling rules through the connection's provider, and moves their targets on through the target
 * module's `TargetTransitions`. It must not import the calling module (the calling module imports it).
 */
@Module({
  imports: [
    CampaignModule,
    ComplianceModule,
    OrganizationModule,
    ProviderConnectionModule,
    TargetModule,
    WebhookModule,
    RetentionModule,
  ],
  controllers: [MessageController, TelephonyMessagesController],
  providers: [
    TextPermission,
    TextSettlement,
    TextReceipts,
    TextSending,
    MessagingService,
    { provide: FollowUpTexts, useExisting: MessagingService },
    MessagingWorker,
    {
      provide: TextSenders,
      inject: [ProviderTextClients],
      useFactory: (clients: ProviderTextClients) => new ConnectionTextSenders(clients),
    },
    {
      provide: MessagingSettings,
      inject: [AppConfig],
      useFactory: (config: AppConfig) =>
        new MessagingSettings(config.get('PUBLIC_BASE_URL'), config.get('WORKER_CONCURRENCY')),
    },
  ],
  exports: [MessagingService, FollowUpTexts],
})
export class MessagingModule {}
