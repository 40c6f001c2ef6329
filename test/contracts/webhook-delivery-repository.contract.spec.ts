import { randomUUID } from 'crypto';
import { UnitOfWork } from '../../src/common/persistence/unit-of-work.js';
import { TargetNotifications } from '../../src/modules/webhook/application/ports/target-notifications.js';
import { WebhookDeliveryRepository } from '../../src/modules/webhook/application/ports/webhook-delivery.repository.js';
import { InMemoryUnitOfWork } from '../../src/testing/in-memory-unit-of-work.js';
import { InMemoryWebhookDeliveryRepository } from '../../src/testing/in-memory-webhook-delivery.repository.js';
import { createTestApp, TestApp } from '../support/test-app.js';
import {
  WebhookContractCampaign,
  webhookDeliveryRepositoryContract,
} from './webhook-delivery-repository.contract.js';

const campaigns = new Map<string, WebhookContractCampaign>();
const memory = new InMemoryWebhookDeliveryRepository({
  findById: async (id) => {
    const c = campaigns.get(id);
    return c ? { webhookUrl: c.webhookUrl, webhookSecret: c.webhookSecret } : null;
  },
});

webhookDeliveryRepositoryContract('in memory', () => ({
  repository: memory,
  notifications: memory,
  uow: new InMemoryUnitOfWork(),
  newCampaign: async (webhookUrl) => {
    const c = {
      organizationId: randomUUID(),
      campaignId: randomUUID(),
      webhookUrl,
      webhookSecret: `whsec_${randomUUID()}`,
    };
    campaigns.set(c.campaignId, c);
    return c;
  },
}));

describe('TypeORM adapter', () => {
  let t: TestApp;
  const ctx: {
    repository?: WebhookDeliveryRepository;
    notifications?: TargetNotifications;
    uow?: UnitOfWork;
  } = {};

  beforeAll(async () => {
    t = await createTestApp({ env: { ROLE: 'api' } });
    ctx.repository = t.app.get(WebhookDeliveryRepository, { strict: false });
    ctx.notifications = t.app.get(TargetNotifications, { strict: false });
    ctx.uow = t.app.get(UnitOfWork, { strict: false });
  });
  afterAll(async () => {
    await t?.close();
  });

  webhookDeliveryRepositoryContract('TypeORM', () => ({
    repository: ctx.repository!,
    notifications: ctx.notifications!,
    uow: ctx.uow!,
    newCampaign: async (webhookUrl) => {
      const { organizationId, apiKey } = await t.createOrganization();
      const campaign = await t.createCampaign(
        apiKey,
        webhookUrl ? { webhook_url: webhookUrl } : {},
      );
      return {
        organizationId,
        campaignId: campaign.id,
        webhookUrl,
        webhookSecret: campaign.webhook_secret,
      };
    },
  }));
});
