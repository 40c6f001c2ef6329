import { NotFoundError } from '../../../common/errors/domain-errors.js';
import { InMemoryCampaignReader } from '../../../testing/in-memory-campaign-reader.js';
import { FakeClock } from '../../../testing/fake-clock.js';
import { InMemoryTargetEventLog } from '../../../testing/in-memory-target-event-log.js';
import { InMemoryTargetTransitions } from '../../../testing/in-memory-target-transitions.js';
import { TriggerService } from './trigger.service.js';
import { InMemoryUnitOfWork } from '../../../testing/in-memory-unit-of-work.js';
import { aCampaign, aTarget, TEST_ORG } from '../../../testing/test-data.js';

function setup() {
  const clock = new FakeClock('2026-01-05T15:00:00.000Z');
  const campaigns = new InMemoryCampaignReader();
  const campaign = aCampaign();
  campaigns.put(campaign);
  const events = new InMemoryTargetEventLog();
  const targets = new InMemoryTargetTransitions(undefined, events);
  const service = new TriggerService(
    campaigns,
    targets,
    new InMemoryUnitOfWork(targets),
    clock,
    events,
  );
  return { clock, campaign, targets, service, events };
}

describe('TriggerService', () => {
  it('schedules Pending targets by id, due now, and reports the others in request order', async () => {
    const s = setup();
    const [a, b, done] = [aTarget(), aTarget(), aTarget({ status: 'Finished' })];
    s.targets.put(a, b, done);
    const upper = b.id.toUpperCase();
    const result = await s.service.trigger(TEST_ORG, s.campaign.id, {
      targetIds: ['nope', a.id, done.id, upper, a.id],
    });
    expect(result).toEqual({
      scheduled: [a.id, b.id],
      skipped: [
        { id: 'nope', reason: 'not_found' },
        { id: done.id, reason: 'not_pending' },
      ],
    });
    expect(await s.targets.findById(null, TEST_ORG, a.id)).toMatchObject({
      status: 'Scheduled',
      scheduledTime: s.clock.now(),
    });
    // Due now: the dispatchers are notified once, when the claim commits.
    expect(s.targets.notifications).toBe(1);
  });

  it('count takes the oldest Pending targets first with prioritize_oldest', async () => {
    const s = setup();
    const ts = [aTarget(), aTarget({ status: 'Scheduled' }), aTarget(), aTarget()];
    s.targets.put(...ts);
    const result = await s.service.trigger(TEST_ORG, s.campaign.id, {
      count: 2,
      prioritizeOldest: true,
    });
    expect(result).toEqual({ scheduled: [ts[0].id, ts[2].id], skipped: [] });
  });

  it('count picks at random among the Pending targets', async () => {
    const s = setup();
    const ts = Array.from({ length: 30 }, () => aTarget());
    s.targets.put(...ts);
    const first = await s.service.trigger(TEST_ORG, s.campaign.id, {
      count: 10,
      prioritizeOldest: false,
    });
    expect(first.scheduled).toHaveLength(10);
    // A random pick of 10 out of 30 is almost never exactly the 10 oldest.
    expect(first.scheduled).not.toEqual(ts.slice(0, 10).map((t) => t.id));
  });

  it('404 for another organization’s campaign', async () => {
    const s = setup();
    await expect(
      s.service.trigger('00000000-0000-4000-8000-0000000000ff', s.campaign.id, {
        count: 1,
        prioritizeOldest: false,
      }),
    ).rejects.toBeInstanceOf(NotFoundError);
  });
});
