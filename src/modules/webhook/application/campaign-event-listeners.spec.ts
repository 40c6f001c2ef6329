import { FakeClock } from '../../../testing/fake-clock.js';
import { InMemoryCampaignRepository } from '../../../testing/in-memory-campaign.repository.js';
import { InMemoryUnitOfWork } from '../../../testing/in-memory-unit-of-work.js';
import { InMemoryWebhookDeliveryRepository } from '../../../testing/in-memory-webhook-delivery.repository.js';
import { RecordingJobQueue } from '../../../testing/recording-job-queue.js';
import {
  CampaignEventListener,
  CampaignEventListeners,
} from '../../target/application/ports/campaign-event-listener.js';
import { MessageEvent } from './ports/outbox.js';
import { WebhookOutbox } from './webhook-outbox.js';

class TextAudit extends CampaignEventListener {
  readonly told: MessageEvent[] = [];
  override onMessageEvent(event: MessageEvent): void {
    this.told.push(event);
  }
}

const event = (messageId: string): MessageEvent => ({
  type: 'message.status',
  organizationId: '00000000-0000-4000-8000-00000000000a',
  campaignId: '00000000-0000-4000-8000-0000000000c1',
  targetId: '00000000-0000-4000-8000-0000000000d1',
  messageId,
  direction: 'outbound',
  status: 'delivered',
  errorCode: null,
  at: new Date('2026-01-05T15:00:00.000Z'),
});

describe('message events reach the listeners once their unit of work commits', () => {
  const audit = new TextAudit();
  const listeners = new CampaignEventListeners([audit]);
  const uow = new InMemoryUnitOfWork();
  const outbox = new WebhookOutbox(
    new InMemoryWebhookDeliveryRepository(new InMemoryCampaignRepository()),
    new RecordingJobQueue(),
    new FakeClock('2026-01-05T15:00:00.000Z'),
    uow,
    listeners,
  );

  it('tells nothing inside the transaction, the event after it, and nothing of one rolled back', async () => {
    await uow.run(async (tx) => {
      await outbox.record(tx, [{ kind: 'message', event: event('m-1') }]);
      await listeners.idle();
      expect(audit.told).toEqual([]);
    });
    await expect(
      uow.run(async (tx) => {
        await outbox.record(tx, [{ kind: 'message', event: event('m-2') }]);
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    await listeners.idle();
    expect(audit.told).toEqual([event('m-1')]);
  });
});
