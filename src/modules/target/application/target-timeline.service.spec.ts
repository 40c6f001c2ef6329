import { NotFoundError } from '../../../common/errors/domain-errors.js';
import { FakeClock } from '../../../testing/fake-clock.js';
import { InMemoryCampaignReader } from '../../../testing/in-memory-campaign-reader.js';
import { InMemoryTargetEventLog } from '../../../testing/in-memory-target-event-log.js';
import { InMemoryTargetRepository } from '../../../testing/in-memory-target.repository.js';
import { InMemoryTargetTransitions } from '../../../testing/in-memory-target-transitions.js';
import { InMemoryUnitOfWork } from '../../../testing/in-memory-unit-of-work.js';
import { InMemoryWebhookDeliveryRepository } from '../../../testing/in-memory-webhook-delivery.repository.js';
import { aCampaign } from '../../../testing/test-data.js';
import { apiKeyActor } from './ports/target-event-log.js';
import { TargetTimelineService } from './target-timeline.service.js';
import { TargetService } from './target.service.js';

const ORG = '00000000-0000-4000-8000-00000000a001';
const OTHER_ORG = '00000000-0000-4000-8000-00000000a002';
const CAMPAIGN = '00000000-0000-4000-8000-00000000c001';
const NOW = '2026-01-05T15:00:00.000Z';

function setup() {
  const clock = new FakeClock(NOW);
  const campaigns = new InMemoryCampaignReader();
  campaigns.put(
    aCampaign({ id: CAMPAIGN, organizationId: ORG, webhookUrl: 'https://hooks.example' }),
  );
  const events = new InMemoryTargetEventLog();
  const repository = new InMemoryTargetRepository(events);
  const notifications = new InMemoryWebhookDeliveryRepository(campaigns);
  const transitions = new InMemoryTargetTransitions(() => repository.table());
  const targets = new TargetService(
    repository,
    campaigns,
    new InMemoryUnitOfWork(repository),
    clock,
    transitions,
    events,
  );
  const timeline = new TargetTimelineService(
    repository,
    transitions,
    campaigns,
    events,
    notifications,
    clock,
  );
  return { clock, targets, timeline, notifications };
}

describe('TargetTimelineService', () => {
  it('merges the notifications about the target with its own events, newest first, and pages', async () => {
    const { clock, targets, timeline, notifications } = setup();
    const key = apiKeyActor('key-1');
    const { targetIds } = await targets.addTargets(
      ORG,
      CAMPAIGN,
      { targets: [{ phoneNumber: '+15550100001' }], launch: false, allowDuplicates: true },
      key,
    );
    const [id] = targetIds;
    clock.advance(1000);
    await notifications.recordEvents({} as never, [
      {
        id: '00000000-0000-4000-8000-0000000e0001',
        organizationId: ORG,
        campaignId: CAMPAIGN,
        targetId: id,
        type: 'target.call_finished',
        payload: {},
        createdAt: clock.now(),
      },
    ]);
    clock.advance(1000);
    await targets.updateInputData(ORG, id, { a: 1 }, true, key);

    const page = await timeline.timeline(ORG, id, null, 50);
    expect(page.next).toBeNull();
    expect(
      page.entries.map(({ event }) => [
        event.at.toISOString(),
        event.kind,
        event.actor,
        event.reason,
        event.data,
      ]),
    ).toEqual([
      ['2026-01-05T15:00:02.000Z', 'input_edited', key, 'input data edited', { keys: ['a'] }],
      [
        '2026-01-05T15:00:01.000Z',
        'notification',
        { type: 'system', id: null },
        'target.call_finished notification pending',
        {
          event_id: '00000000-0000-4000-8000-0000000e0001',
          event_type: 'target.call_finished',
          delivery_status: 'pending',
          delivery_attempts: 0,
        },
      ],
      [
        '2026-01-05T15:00:00.000Z',
        'added',
        key,
        'added, not launched: trigger calls or add with launch=true',
        {},
      ],
    ]);

    const first = await timeline.timeline(ORG, id, null, 2);
    const rest = await timeline.timeline(ORG, id, first.next, 2);
    expect(rest.next).toBeNull();
    expect([...first.entries, ...rest.entries]).toEqual(page.entries);
  });

  it("is not found for another organization's target or an unknown id", async () => {
    const { targets, timeline } = setup();
    const { targetIds } = await targets.addTargets(ORG, CAMPAIGN, {
      targets: [{ phoneNumber: '+15550100001' }],
      launch: false,
      allowDuplicates: true,
    });
    await expect(timeline.timeline(OTHER_ORG, targetIds[0], null, 50)).rejects.toThrow(
      new NotFoundError(`Target ${targetIds[0]} not found`),
    );
    await expect(timeline.timeline(ORG, 'nope', null, 50)).rejects.toThrow(NotFoundError);
  });

  it('reads the waiting reason live from the campaign', async () => {
    const { targets, timeline } = setup();
    const { targetIds } = await targets.addTargets(ORG, CAMPAIGN, {
      targets: [{ phoneNumber: '+15550100001' }],
      launch: true,
      allowDuplicates: true,
    });
    const target = await targets.get(ORG, targetIds[0]);
    expect(await timeline.waitingReason(target)).toBe('due: the next dispatcher round calls it');
    expect(await timeline.waitingReason({ ...target, status: 'Finished' })).toBeNull();
  });
});
