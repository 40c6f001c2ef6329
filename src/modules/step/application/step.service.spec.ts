import { InvalidInputError, NotFoundError } from '../../../common/errors/domain-errors.js';
import { InMemoryTargetStepData } from '../../../testing/in-memory-target-step-data.js';
import { InMemoryTargetEventLog } from '../../../testing/in-memory-target-event-log.js';
import { InMemoryTargetTransitions } from '../../../testing/in-memory-target-transitions.js';
import { InMemoryCampaignReader } from '../../../testing/in-memory-campaign-reader.js';
import { StepService } from './step.service.js';
import { FakeClock } from '../../../testing/fake-clock.js';
import { InMemoryUnitOfWork } from '../../../testing/in-memory-unit-of-work.js';
import { aCampaign, aTarget } from '../../../testing/test-data.js';

const ORG = '00000000-0000-4000-8000-00000000a001';
const OTHER_ORG = '00000000-0000-4000-8000-00000000a002';
const CAMPAIGN = '00000000-0000-4000-8000-00000000c001';
const KEY = '00000000-0000-4000-8000-0000000000e1';
const T1 = '00000000-0000-4000-8000-000000000001';
const T2 = '00000000-0000-4000-8000-000000000002';
const T3 = '00000000-0000-4000-8000-000000000003';
const NOW = new Date('2026-03-01T10:00:00.000Z');
const caller = { organizationId: ORG, apiKeyId: KEY };

function setup() {
  const campaigns = new InMemoryCampaignReader();
  campaigns.put(
    aCampaign({
      id: CAMPAIGN,
      organizationId: ORG,
      steps: [
        { friendly_id: 'labs', type: 'webhook', on_receive: 'merge' },
        { friendly_id: 'consent', type: 'webhook', on_receive: 'merge_and_schedule' },
        { friendly_id: 'ehr', type: 'ehr_event', on_receive: 'merge_and_schedule' },
      ],
      entryStep: 'labs',
    }),
  );
  const events = new InMemoryTargetEventLog();
  const repository = new InMemoryTargetStepData(events);
  // One table: the transitions fake works on the step fake's targets (and records their moves).
  const transitions = new InMemoryTargetTransitions(() => repository.targets, events);
  const clock = new FakeClock(NOW);
  const service = new StepService(
    campaigns,
    repository,
    new InMemoryUnitOfWork(repository),
    transitions,
    clock,
    events,
  );
  return { service, repository, transitions, events };
}

describe('StepService', () => {
  describe('one target', () => {
    it('merges the data and moves a target waiting at the step to Pending', async () => {
      const { service, repository, transitions } = setup();
      repository.put(
        aTarget({
          id: T1,
          status: 'Waiting',
          currentStep: 'labs',
          inputData: { a: 1, n: { x: 1 } },
        }),
      );
      const target = await service.receiveWebhookStep(caller, CAMPAIGN, T1, 'labs', {
        n: { y: 2 },
        b: 2,
      });
      expect(target).toMatchObject({
        status: 'Pending',
        currentStep: null,
        scheduledTime: null,
        inputData: { a: 1, n: { y: 2 }, b: 2 },
        updatedAt: NOW,
      });
      expect(transitions.notifications).toBe(0);
      expect(await repository.history(ORG, T1)).toEqual([
        expect.objectContaining({
          kind: 'webhook',
          friendlyId: 'labs',
          eventType: null,
          data: { n: { y: 2 }, b: 2 },
          apiKeyId: KEY,
          receivedAt: NOW,
          campaignId: CAMPAIGN,
        }),
      ]);
    });

    it('merge_and_schedule: Scheduled now, with its dispatch', async () => {
      const { service, repository, transitions } = setup();
      repository.put(aTarget({ id: T1, status: 'Waiting', currentStep: 'consent' }));
      const target = await service.receiveWebhookStep(
        caller,
        CAMPAIGN,
        T1.toUpperCase(),
        'consent',
        { ok: true },
      );
      expect(target).toMatchObject({
        status: 'Scheduled',
        scheduledTime: NOW,
        inputData: { ok: true },
      });
      expect(transitions.notifications).toBe(1);
      expect(repository.find(T1)).toMatchObject({ status: 'Scheduled', scheduledTime: NOW });
    });

    it('only merges into a target that waits elsewhere or does not wait', async () => {
      const { service, repository, transitions } = setup();
      repository.put(
        aTarget({ id: T1, status: 'Waiting', currentStep: 'labs' }),
        aTarget({ id: T2, status: 'Finished' }),
      );
      expect(
        await service.receiveWebhookStep(caller, CAMPAIGN, T1, 'consent', { a: 1 }),
      ).toMatchObject({
        status: 'Waiting',
        currentStep: 'labs',
        inputData: { a: 1 },
      });
      expect(
        await service.receiveWebhookStep(caller, CAMPAIGN, T2, 'consent', { a: 1 }),
      ).toMatchObject({
        status: 'Finished',
        inputData: { a: 1 },
      });
      expect(transitions.notifications).toBe(0);
    });

    it('404 for an unknown campaign, step or target, and for another organization', async () => {
      const { service, repository } = setup();
      repository.put(aTarget({ id: T1 }));
      await expect(service.receiveWebhookStep(caller, 'nope', T1, 'labs', {})).rejects.toThrow(
        NotFoundError,
      );
      await expect(service.receiveWebhookStep(caller, CAMPAIGN, T1, 'nope', {})).rejects.toThrow(
        "Step 'nope' not found in campaign",
      );
      await expect(service.receiveWebhookStep(caller, CAMPAIGN, T2, 'labs', {})).rejects.toThrow(
        'Target not found',
      );
      await expect(
        service.receiveWebhookStep(caller, CAMPAIGN, 'not-a-uuid', 'labs', {}),
      ).rejects.toThrow('Target not found');
      await expect(
        service.receiveWebhookStep(
          { organizationId: OTHER_ORG, apiKeyId: null },
          CAMPAIGN,
          T1,
          'labs',
          {},
        ),
      ).rejects.toThrow(NotFoundError);
      expect(repository.events).toEqual([]);
    });

    it('422 on friendly_id when the step is an ehr_event step', async () => {
      const { service, repository } = setup();
      repository.put(aTarget({ id: T1 }));
      const error = await service
        .receiveWebhookStep(caller, CAMPAIGN, T1, 'ehr', {})
        .catch((e) => e);
      expect(error).toBeInstanceOf(InvalidInputError);
      expect(error).toMatchObject({ field: ['friendly_id'], input: 'ehr' });
      expect(error.message).toBe(
        "step 'ehr' is a ehr_event step, not a webhook step: post its events to /api/v1/campaigns/{campaign_id}/ehr-event/ehr",
      );
    });
  });

  describe('batch', () => {
    it('applies ids and external ids, reports the rest by index, moves and schedules the waiting ones', async () => {
      const { service, repository, transitions } = setup();
      repository.put(
        aTarget({ id: T1, status: 'Waiting', currentStep: 'consent' }),
        aTarget({ id: T2, externalId: 'ext-2', status: 'Waiting', currentStep: 'consent' }),
        aTarget({ id: T3, externalId: 'ext-3', status: 'Pending', inputData: { keep: 1 } }),
      );
      const result = await service.receiveWebhookStepBatch(caller, CAMPAIGN, 'consent', [
        { target_id: T1, input_data: { a: 1 } },
        { external_id: 'ext-2', input_data: { b: 2 } },
        { target_id: 'bad', input_data: {} },
        { external_id: 'missing', input_data: {} },
        { target_id: T3, external_id: 'ext-2', input_data: {} },
        { target_id: T3, external_id: 'ext-3', input_data: { c: 3 } },
      ]);
      expect(result).toEqual({
        updated: 3,
        not_found: [
          { index: 2, target_id: 'bad', external_id: null },
          { index: 3, target_id: null, external_id: 'missing' },
          { index: 4, target_id: T3, external_id: 'ext-2' },
        ],
      });
      expect(repository.find(T1)).toMatchObject({
        status: 'Scheduled',
        inputData: { a: 1 },
      });
      expect(repository.find(T2)).toMatchObject({
        status: 'Scheduled',
        inputData: { b: 2 },
      });
      expect(repository.find(T3)).toMatchObject({
        status: 'Pending',
        inputData: { keep: 1, c: 3 },
      });
      expect(transitions.notifications).toBe(1);
      expect(repository.events.map((e) => e.targetId)).toEqual([T1, T2, T3]);
    });

    it('merges several updates of one target in request order and moves it once', async () => {
      const { service, repository, transitions } = setup();
      repository.put(
        aTarget({ id: T1, externalId: 'e1', status: 'Waiting', currentStep: 'consent' }),
      );
      const result = await service.receiveWebhookStepBatch(caller, CAMPAIGN, 'consent', [
        { target_id: T1, input_data: { a: 1, b: 1 } },
        { external_id: 'e1', input_data: { b: 2 } },
      ]);
      expect(result).toEqual({ updated: 2, not_found: [] });
      expect(repository.find(T1)!.inputData).toEqual({ a: 1, b: 2 });
      expect(transitions.notifications).toBe(1);
      expect((await repository.history(ORG, T1)).map((e) => e.data)).toEqual([
        { a: 1, b: 1 },
        { b: 2 },
      ]);
    });

    it('is all or nothing: a failure after the merge leaves every target and the history as they were', async () => {
      const { service, repository, transitions } = setup();
      repository.put(
        aTarget({ id: T1, status: 'Waiting', currentStep: 'consent', inputData: { a: 0 } }),
      );
      transitions.moveWaiting = async () => {
        throw new Error('queue down');
      };
      await expect(
        service.receiveWebhookStepBatch(caller, CAMPAIGN, 'consent', [
          { target_id: T1, input_data: { a: 1 } },
        ]),
      ).rejects.toThrow('queue down');
      expect(repository.find(T1)).toMatchObject({ status: 'Waiting', inputData: { a: 0 } });
      expect(repository.events).toEqual([]);
    });

    it('refuses an update with neither id (422 on the element)', async () => {
      const { service } = setup();
      await expect(
        service.receiveWebhookStepBatch(caller, CAMPAIGN, 'labs', [
          { target_id: T1, input_data: {} },
          { input_data: {} },
        ]),
      ).rejects.toMatchObject({
        field: ['updates', 1],
        message: 'target_id or external_id is required',
      });
    });
  });

  describe('EHR event', () => {
    it('stores the event, merges, lists its id by type and moves the target on', async () => {
      const { service, repository, transitions } = setup();
      repository.put(
        aTarget({ id: T1, externalId: 'mrn-1', status: 'Waiting', currentStep: 'ehr' }),
      );
      const first = await service.receiveEhrEvent(caller, CAMPAIGN, 'ehr', {
        external_id: 'mrn-1',
        event_type: 'appointment_created',
        event_data: { appointment: { at: '2026-04-02' } },
      });
      const second = await service.receiveEhrEvent(caller, CAMPAIGN, 'ehr', { target_id: T1 });
      expect(second.target).toMatchObject({
        status: 'Scheduled',
        inputData: { appointment: { at: '2026-04-02' } },
        preCallEhrIds: { appointment_created: [first.eventId], unknown: [second.eventId] },
      });
      expect(transitions.notifications).toBe(1);
      expect(repository.find(T1)).toMatchObject({ status: 'Scheduled', scheduledTime: NOW });
      expect((await repository.history(ORG, T1)).map((e) => [e.id, e.kind, e.eventType])).toEqual([
        [first.eventId, 'ehr_event', 'appointment_created'],
        [second.eventId, 'ehr_event', null],
      ]);
    });

    it('needs a target reference (422 on the body), finds only its own targets (404)', async () => {
      const { service, repository } = setup();
      repository.put(aTarget({ id: T1, externalId: 'mrn-1' }));
      await expect(
        service.receiveEhrEvent(caller, CAMPAIGN, 'ehr', { event_data: {} }),
      ).rejects.toMatchObject({
        field: [],
      });
      await expect(
        service.receiveEhrEvent(caller, CAMPAIGN, 'ehr', { external_id: 'mrn-2' }),
      ).rejects.toThrow('Target not found');
      await expect(
        service.receiveEhrEvent(caller, CAMPAIGN, 'ehr', { target_id: 'x' }),
      ).rejects.toThrow('Target not found');
      await expect(
        service.receiveEhrEvent(caller, CAMPAIGN, 'labs', { target_id: T1 }),
      ).rejects.toMatchObject({
        field: ['friendly_id'],
      });
      expect(repository.events).toEqual([]);
    });
  });
});
