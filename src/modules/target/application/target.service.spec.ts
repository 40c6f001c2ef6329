import {
  ConflictError,
  InvalidInputError,
  NotFoundError,
} from '../../../common/errors/domain-errors.js';
import { InMemoryTargetRepository } from '../../../testing/in-memory-target.repository.js';
import { TargetService } from './target.service.js';
import { InMemoryCampaignReader } from '../../../testing/in-memory-campaign-reader.js';
import { FakeClock } from '../../../testing/fake-clock.js';
import { InMemoryUnitOfWork } from '../../../testing/in-memory-unit-of-work.js';
import { InMemoryTargetTransitions } from '../../../testing/in-memory-target-transitions.js';
import { InMemoryTargetEventLog } from '../../../testing/in-memory-target-event-log.js';
import { aCampaign } from '../../../testing/test-data.js';

const ORG = '00000000-0000-4000-8000-00000000a001';
const OTHER_ORG = '00000000-0000-4000-8000-00000000a002';
const CAMPAIGN = '00000000-0000-4000-8000-00000000c001';
const WAITING_CAMPAIGN = '00000000-0000-4000-8000-00000000c002';
const FOREIGN_CAMPAIGN = '00000000-0000-4000-8000-00000000c003';
const NOW = new Date('2026-01-05T15:00:00.000Z');

function setup() {
  const events = new InMemoryTargetEventLog();
  const repository = new InMemoryTargetRepository(events);
  const campaigns = new InMemoryCampaignReader();
  campaigns.put(
    aCampaign({ id: CAMPAIGN, organizationId: ORG }),
    aCampaign({
      id: WAITING_CAMPAIGN,
      organizationId: ORG,
      steps: [{ friendly_id: 'intake', type: 'webhook', on_receive: 'merge_and_schedule' }],
      entryStep: 'intake',
    }),
    aCampaign({ id: FOREIGN_CAMPAIGN, organizationId: OTHER_ORG }),
  );
  const clock = new FakeClock(NOW);
  const transitions = new InMemoryTargetTransitions(() => repository.table());
  const service = new TargetService(
    repository,
    campaigns,
    new InMemoryUnitOfWork(repository),
    clock,
    transitions,
    events,
  );
  return { repository, campaigns, clock, service, transitions, events };
}

const add = (
  service: TargetService,
  targets: any[],
  options: { launch?: boolean; allowDuplicates?: boolean } = {},
  campaignId = CAMPAIGN,
) =>
  service.addTargets(ORG, campaignId, {
    targets,
    launch: options.launch ?? false,
    allowDuplicates: options.allowDuplicates ?? true,
  });

describe('TargetService', () => {
  describe('addTargets', () => {
    it('stores normalised targets in request order, Pending, without scheduling calls', async () => {
      const { service, repository } = setup();
      const result = await add(service, [
        {
          phoneNumber: '+1 (555) 010-0001',
          externalId: 'E1',
          inputData: { a: 1 },
          preCallData: { p: true },
        },
        {
          phoneNumber: {
            value: '+1.555.010.0002',
            operatingHours: { monday: [{ start: '09:00', end: '17:00' }] },
          },
          fallbackPhoneNumber: '+15550100003',
          patient: { first_name: 'Ada', external_id: 'PAT-7' },
        },
        { phoneNumber: '+15550100004' },
      ]);

      expect(result.created).toBe(3);
      expect(result.ignored).toEqual([]);
      const stored = repository.all();
      expect(stored.map((t) => t.id)).toEqual(result.targetIds);
      expect(stored.map((t) => [t.phoneNumber, t.externalId, t.status, t.scheduledTime])).toEqual([
        ['+15550100001', 'E1', 'Pending', null],
        ['+15550100002', 'PAT-7', 'Pending', null],
        ['+15550100004', null, 'Pending', null],
      ]);
      expect(stored[0]).toMatchObject({
        inputData: { a: 1 },
        preCallData: { p: true },
        organizationId: ORG,
        campaignId: CAMPAIGN,
      });
      expect(stored[1]).toMatchObject({
        phoneOperatingHours: { monday: [{ start: '09:00', end: '17:00' }], tz: 'US/Eastern' },
        fallbackPhoneNumber: '+15550100003',
        fallbackOperatingHours: null,
        patient: { first_name: 'Ada', external_id: 'PAT-7' },
        inputData: {},
      });
      expect(stored[2]).toMatchObject({
        attempts: 0,
        callLogIds: null,
        createdAt: NOW,
        updatedAt: NOW,
      });
    });

    it('with launch schedules the new targets now, in the same unit of work', async () => {
      const { service, repository } = setup();
      const result = await add(
        service,
        [{ phoneNumber: '+15550100001' }, { phoneNumber: '+15550100002' }],
        {
          launch: true,
        },
      );
      expect(repository.all().map((t) => [t.status, t.scheduledTime])).toEqual([
        ['Scheduled', NOW],
        ['Scheduled', NOW],
      ]);
      expect(repository.all().map((t) => t.id)).toEqual(result.targetIds);
    });

    it('parks targets at the entry step, even with launch', async () => {
      const { service, repository } = setup();
      await add(service, [{ phoneNumber: '+15550100001' }], { launch: true }, WAITING_CAMPAIGN);
      expect(repository.all().map((t) => [t.status, t.currentStep, t.scheduledTime])).toEqual([
        ['Waiting', 'intake', null],
      ]);
    });

    it('ignores duplicates of the campaign and of earlier items with allow_duplicates', async () => {
      const { service, repository, clock } = setup();
      await add(service, [{ phoneNumber: '+15550100001', externalId: 'A' }]);
      clock.set(new Date(NOW.getTime() + 1000));
      const result = await add(service, [
        { phoneNumber: '+15550100002', externalId: 'A' },
        { phoneNumber: '+15550100003', externalId: 'B' },
        { phoneNumber: '+15550100004', patient: { external_id: 'B' } },
        { phoneNumber: '+15550100005' },
        { phoneNumber: '+15550100006' },
      ]);
      expect(result.created).toBe(3);
      expect(result.ignored).toEqual([
        { index: 0, externalId: 'A' },
        { index: 2, externalId: 'B' },
      ]);
      expect(repository.all().map((t) => t.phoneNumber)).toEqual([
        '+15550100001',
        '+15550100003',
        '+15550100005',
        '+15550100006',
      ]);
    });

    it('the same external id in another campaign is not a duplicate', async () => {
      const { service } = setup();
      await add(service, [{ phoneNumber: '+15550100001', externalId: 'A' }], {}, WAITING_CAMPAIGN);
      const result = await add(service, [{ phoneNumber: '+15550100001', externalId: 'A' }]);
      expect(result.created).toBe(1);
    });

    it('refuses duplicates without allow_duplicates, naming them, and adds nothing', async () => {
      const { service, repository } = setup();
      await add(service, [{ phoneNumber: '+15550100001', externalId: 'A' }]);
      await expect(
        add(
          service,
          [
            { phoneNumber: '+15550100002', externalId: 'A' },
            { phoneNumber: '+15550100003', externalId: 'B' },
            { phoneNumber: '+15550100004', externalId: 'B' },
            { phoneNumber: '+15550100005', externalId: 'C' },
          ],
          { allowDuplicates: false },
        ),
      ).rejects.toEqual(
        new ConflictError(
          'Duplicate external ids (already in the campaign or repeated in the request): A, B',
        ),
      );
      expect(repository.all()).toHaveLength(1);
    });

    it('keeps caller ids (canonical form) and refuses one that exists or repeats', async () => {
      const { service, repository } = setup();
      const id = 'A1B2C3D4-0000-4000-8000-000000000001';
      const result = await add(service, [{ id, phoneNumber: '+15550100001' }]);
      expect(result.targetIds).toEqual([id.toLowerCase()]);

      await expect(
        add(service, [
          { phoneNumber: '+15550100002' },
          { id: id.toLowerCase(), phoneNumber: '+15550100003' },
        ]),
      ).rejects.toEqual(new ConflictError(`Target ids already exist: ${id.toLowerCase()}`));
      const other = '00000000-0000-4000-8000-0000000000ff';
      await expect(
        add(service, [
          { id: other, phoneNumber: '+15550100002' },
          { id: other, phoneNumber: '+15550100003' },
        ]),
      ).rejects.toEqual(new ConflictError(`Target ids repeated in the request: ${other}`));
      expect(repository.all()).toHaveLength(1);
    });

    it('refuses a bad phone number at its location', async () => {
      const { service } = setup();
      const error = await add(service, [
        { phoneNumber: '+15550100001' },
        { phoneNumber: { value: '555-0100' } },
      ]).catch((e) => e);
      expect(error).toBeInstanceOf(InvalidInputError);
      expect(error.field).toEqual(['targets', 1, 'phone_number', 'value']);
      expect(error.input).toBe('555-0100');
    });

    it("answers NotFound for another organization's campaign", async () => {
      const { service, repository } = setup();
      await expect(
        add(service, [{ phoneNumber: '+15550100001' }], {}, FOREIGN_CAMPAIGN),
      ).rejects.toBeInstanceOf(NotFoundError);
      expect(repository.all()).toEqual([]);
    });
  });

  describe('deleteTargets', () => {
    it('deletes, reports unknown ids and keeps targets in flight', async () => {
      const { service, repository } = setup();
      const { targetIds: ids } = await add(service, [
        { phoneNumber: '+15550100001' },
        { phoneNumber: '+15550100002' },
        { phoneNumber: '+15550100003' },
      ]);
      const { targetIds: elsewhere } = await add(
        service,
        [{ phoneNumber: '+15550100004' }],
        {},
        WAITING_CAMPAIGN,
      );
      repository.setState(ids[1], { status: 'In Progress', attempts: 1 });
      repository.setState(ids[2], { status: 'Post-processing', attempts: 1 });

      const unknown = '00000000-0000-4000-8000-0000000000ee';
      const result = await service.deleteTargets(ORG, CAMPAIGN, [
        ids[0],
        ids[1],
        'nope',
        ids[0],
        unknown,
        elsewhere[0],
        ids[2],
      ]);
      expect(result).toEqual({
        deleted: [ids[0]],
        notFound: ['nope', unknown, elsewhere[0]],
        skipped: [
          { id: ids[1], reason: 'in_progress' },
          { id: ids[2], reason: 'in_progress' },
        ],
      });
      expect(
        repository
          .all()
          .map((t) => t.id)
          .sort(),
      ).toEqual([ids[1], ids[2], elsewhere[0]].sort());
    });

    it("answers NotFound for another organization's campaign", async () => {
      const { service } = setup();
      await expect(service.deleteTargets(ORG, FOREIGN_CAMPAIGN, [])).rejects.toBeInstanceOf(
        NotFoundError,
      );
    });
  });

  describe('get', () => {
    it('reads a target of the organization only', async () => {
      const { service } = setup();
      const { targetIds } = await add(service, [{ phoneNumber: '+15550100001' }]);
      await expect(service.get(ORG, targetIds[0])).resolves.toMatchObject({
        id: targetIds[0],
        status: 'Pending',
      });
      await expect(service.get(ORG, targetIds[0].toUpperCase())).resolves.toMatchObject({
        id: targetIds[0],
      });
      await expect(service.get(OTHER_ORG, targetIds[0])).rejects.toBeInstanceOf(NotFoundError);
      await expect(service.get(ORG, 'not-a-uuid')).rejects.toBeInstanceOf(NotFoundError);
    });
  });

  describe('review', () => {
    const toReview = async () => {
      const fixture = setup();
      const { targetIds } = await add(fixture.service, [{ phoneNumber: '+15550100001' }]);
      fixture.repository.setState(targetIds[0], {
        status: 'To review',
        attempts: 3,
        category: 'HUMAN_ONLY',
        outcome: 'Asked for a person',
      });
      return { ...fixture, id: targetIds[0] };
    };

    it('done: Finished with its outcome kept and the review recorded', async () => {
      const { service, id, transitions, events } = await toReview();
      await expect(
        service.review(ORG, id, 'done', { type: 'api_key', id: 'key-1' }),
      ).resolves.toMatchObject({
        status: 'Finished',
        category: 'HUMAN_ONLY',
        outcome: 'Asked for a person',
        statistics: { review: { action: 'done', at: NOW.toISOString() } },
      });
      expect(transitions.notifications).toBe(0);
      const [latest] = await events.list(ORG, id, null, 1);
      expect(latest.event).toMatchObject({
        kind: 'status_changed',
        status: 'Finished',
        actor: { type: 'api_key', id: 'key-1' },
        reason: 'reviewed: marked done',
      });
    });

    it('requeue: Scheduled due now past max attempts, and the dispatchers are woken', async () => {
      const { service, id, transitions } = await toReview();
      await expect(service.review(ORG, id, 'requeue')).resolves.toMatchObject({
        status: 'Scheduled',
        scheduledTime: NOW,
        attempts: 3,
      });
      expect(transitions.notifications).toBe(1);
    });

    it('only from To review: the second decision is a conflict naming the status', async () => {
      const { service, id } = await toReview();
      await service.review(ORG, id, 'done');
      await expect(service.review(ORG, id, 'requeue')).rejects.toThrow(
        new ConflictError(
          `Target ${id} is Finished, not To review; only a target To review can be marked done or re-queued`,
        ),
      );
    });

    it('another organization, an unknown or malformed id: not found', async () => {
      const { service, id } = await toReview();
      await expect(service.review(OTHER_ORG, id, 'done')).rejects.toBeInstanceOf(NotFoundError);
      await expect(service.review(ORG, 'not-a-uuid', 'done')).rejects.toBeInstanceOf(NotFoundError);
      await expect(service.get(ORG, id)).resolves.toMatchObject({ status: 'To review' });
    });

    it('a requeue in a cancelled campaign is refused and changes nothing', async () => {
      const { service, id, campaigns } = await toReview();
      campaigns.put(aCampaign({ id: CAMPAIGN, organizationId: ORG, state: 'cancelled' }));
      await expect(service.review(ORG, id, 'requeue')).rejects.toBeInstanceOf(ConflictError);
      await expect(service.get(ORG, id)).resolves.toMatchObject({ status: 'To review' });
    });
  });

  describe('updateInputData', () => {
    it('merges one level deep and stamps updated_at', async () => {
      const { service, clock } = setup();
      const { targetIds } = await add(service, [
        { phoneNumber: '+15550100001', inputData: { a: 1, nested: { x: 1, y: 2 } } },
      ]);
      const later = new Date('2026-01-05T16:00:00.000Z');
      clock.set(later);
      const updated = await service.updateInputData(
        ORG,
        targetIds[0],
        { b: 2, nested: { x: 3 } },
        true,
      );
      expect(updated.inputData).toEqual({ a: 1, b: 2, nested: { x: 3 } });
      expect(updated.updatedAt).toEqual(later);
    });

    it('a Scheduled target without calls is still editable', async () => {
      const { service } = setup();
      const { targetIds } = await add(service, [{ phoneNumber: '+15550100001' }], { launch: true });
      await expect(
        service.updateInputData(ORG, targetIds[0], { a: 1 }, true),
      ).resolves.toMatchObject({
        inputData: { a: 1 },
      });
    });

    it.each([
      ['a call was placed', { status: 'Scheduled' as const, attempts: 1 }],
      ['it has a call log', { status: 'Pending' as const, callLogIds: [7] }],
      ['it left Pending/Scheduled', { status: 'Waiting' as const }],
      ['it finished', { status: 'Finished' as const, attempts: 1 }],
    ])(
      'refuses with Conflict when %s, unless only_if_not_started is false',
      async (_why, state) => {
        const { service, repository } = setup();
        const { targetIds } = await add(service, [
          { phoneNumber: '+15550100001', inputData: { a: 1 } },
        ]);
        repository.setState(targetIds[0], state);
        await expect(
          service.updateInputData(ORG, targetIds[0], { a: 2 }, true),
        ).rejects.toBeInstanceOf(ConflictError);
        expect((await service.get(ORG, targetIds[0])).inputData).toEqual({ a: 1 });
        await expect(
          service.updateInputData(ORG, targetIds[0], { a: 2 }, false),
        ).resolves.toMatchObject({
          inputData: { a: 2 },
        });
      },
    );

    it('answers NotFound for unknown, malformed and foreign ids', async () => {
      const { service } = setup();
      const { targetIds } = await add(service, [{ phoneNumber: '+15550100001' }]);
      await expect(
        service.updateInputData(OTHER_ORG, targetIds[0], {}, true),
      ).rejects.toBeInstanceOf(NotFoundError);
      await expect(
        service.updateInputData(ORG, '00000000-0000-4000-8000-000000000000', {}, false),
      ).rejects.toBeInstanceOf(NotFoundError);
      await expect(service.updateInputData(ORG, "1' OR 1=1", {}, true)).rejects.toBeInstanceOf(
        NotFoundError,
      );
    });
  });

  describe('list', () => {
    it('pages in creation order and filters by status and dates, inclusively', async () => {
      const { service, repository, clock } = setup();
      const day1 = await add(service, [
        { phoneNumber: '+15550100001' },
        { phoneNumber: '+15550100002' },
      ]);
      clock.set(new Date('2026-01-06T10:00:00.000Z'));
      const day2 = await add(service, [{ phoneNumber: '+15550100003' }]);
      repository.setState(day1.targetIds[1], {
        status: 'To review',
        lastCallDate: new Date('2026-01-06T12:00:00.000Z'),
      });

      const all = await service.list(ORG, CAMPAIGN, {}, { page: 0, limit: 2 });
      expect(all.total).toBe(3);
      expect(all.targets.map((t) => t.id)).toEqual(day1.targetIds);
      const second = await service.list(ORG, CAMPAIGN, {}, { page: 1, limit: 2 });
      expect(second.targets.map((t) => t.id)).toEqual(day2.targetIds);

      const review = await service.list(
        ORG,
        CAMPAIGN,
        { status: 'To review' },
        { page: 0, limit: 10 },
      );
      expect(review.targets.map((t) => t.id)).toEqual([day1.targetIds[1]]);
      const created = await service.list(
        ORG,
        CAMPAIGN,
        {
          createdFrom: new Date('2026-01-06T10:00:00.000Z'),
          createdTo: new Date('2026-01-06T10:00:00.000Z'),
        },
        { page: 0, limit: 10 },
      );
      expect(created.targets.map((t) => t.id)).toEqual(day2.targetIds);
      const called = await service.list(
        ORG,
        CAMPAIGN,
        {
          lastCallFrom: new Date('2026-01-06T12:00:00.000Z'),
          lastCallTo: new Date('2026-01-06T12:00:00.000Z'),
        },
        { page: 0, limit: 10 },
      );
      expect(called.total).toBe(1);
    });

    it("answers NotFound for another organization's campaign", async () => {
      const { service } = setup();
      await expect(
        service.list(ORG, FOREIGN_CAMPAIGN, {}, { page: 0, limit: 10 }),
      ).rejects.toBeInstanceOf(NotFoundError);
    });
  });
});
