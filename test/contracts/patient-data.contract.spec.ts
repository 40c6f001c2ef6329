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
import { WebhookDeliveryRepository } from '../../src/modules/webhook/application/ports/webhook-delivery.repository.js';
import { InMemoryCallLogRepository } from '../../src/testing/in-memory-call-log.repository.js';
import { InMemoryDecisionLog } from '../../src/testing/in-memory-compliance.js';
import { InMemoryDoNotCallRepository } from '../../src/testing/in-memory-do-not-call.repository.js';
import { InMemoryMessageRepository } from '../../src/testing/in-memory-message.repository.js';
import {
  InMemoryCallLogData,
  InMemoryComplianceData,
  InMemoryMessageData,
  InMemoryWebhookData,
} from '../../src/testing/in-memory-patient-data.js';
import { InMemoryUnitOfWork } from '../../src/testing/in-memory-unit-of-work.js';
import { InMemoryWebhookDeliveryRepository } from '../../src/testing/in-memory-webhook-delivery.repository.js';
import { createTestApp } from '../support/test-app.js';
import { patientDataContract } from './patient-data.contract.js';

const WEBHOOK_URL = 'https://hooks.invalid/campaign';

patientDataContract('in memory', async () => {
  const callLogs = new InMemoryCallLogRepository();
  const messages = new InMemoryMessageRepository();
  // Every campaign of the fake has an endpoint, as the SQL side's campaigns are created with one.
  const webhooks = new InMemoryWebhookDeliveryRepository({
    findById: async () => ({ webhookUrl: WEBHOOK_URL, webhookSecret: 'secret' }),
  });
  const doNotCall = new InMemoryDoNotCallRepository();
  const decisions = new InMemoryDecisionLog();
  return {
    callLogData: new InMemoryCallLogData(callLogs),
    messageData: new InMemoryMessageData(messages),
    webhookData: new InMemoryWebhookData(webhooks),
    complianceData: new InMemoryComplianceData(doNotCall, decisions),
    callLogs,
    messages,
    webhooks,
    doNotCall,
    decisions,
    uow: new InMemoryUnitOfWork(callLogs, messages, doNotCall, decisions),
    people: async (n) => ({
      organizationId: randomUUID(),
      campaignId: randomUUID(),
      targetIds: Array.from({ length: n }, () => randomUUID()),
    }),
    async close() {},
  };
});

patientDataContract('SQL', async () => {
  const t = await createTestApp({ env: { ROLE: 'api' } });
  return {
    callLogData: t.app.get(CallLogData),
    messageData: t.app.get(MessageData),
    webhookData: t.app.get(WebhookData),
    complianceData: t.app.get(ComplianceData),
    callLogs: t.app.get(CallLogRepository),
    messages: t.app.get(MessageRepository),
    webhooks: t.app.get(WebhookDeliveryRepository),
    doNotCall: t.app.get(DoNotCallRepository),
    decisions: t.app.get(DecisionLog),
    uow: t.app.get(UnitOfWork),
    async people(n) {
      const { organizationId, apiKey } = await t.createOrganization();
      const campaign = await t.createCampaign(apiKey, { webhook_url: WEBHOOK_URL });
      const targetIds =
        n === 0
          ? []
          : await t.addTargets(apiKey, campaign.id, {
              targets: Array.from({ length: n }, (_, i) => ({
                phone_number: `+1555020${String(i).padStart(4, '0')}`,
              })),
            });
      return { organizationId, campaignId: campaign.id, targetIds };
    },
    close: () => t.close(),
  };
});
