import fc from 'fast-check';
import { aTarget } from '../../../testing/test-data.js';
import type { CampaignStep } from '../../campaign/domain/campaign.js';
import {
  appendEhrEventId,
  isWaitingAt,
  mergeInOrder,
  moveOn,
  receiveData,
} from '../../../testing/step-rules.js';
import { ehrEventKey } from '../../target/domain/target.js';
import { statusAfterReceive } from './step.js';

const NOW = new Date('2026-03-01T10:00:00.000Z');
const merge: CampaignStep = { friendly_id: 'labs', type: 'webhook', on_receive: 'merge' };
const schedule: CampaignStep = {
  friendly_id: 'labs',
  type: 'webhook',
  on_receive: 'merge_and_schedule',
};
const ID = '6f1c1f7e-2b1a-4c55-9a57-0d3b7f0a1e11';

describe('step rules', () => {
  describe('merge', () => {
    it('sets the keys sent, keeps the others, and replaces nested objects whole', () => {
      const target = aTarget({
        id: ID,
        inputData: { a: 1, keep: 'x', nested: { x: 1, y: 2 } },
      });
      const after = receiveData(target, { a: 2, nested: { z: 3 }, added: null }, NOW);
      expect(after.inputData).toEqual({ a: 2, keep: 'x', nested: { z: 3 }, added: null });
      expect(after.updatedAt).toEqual(NOW);
      expect(target.inputData).toEqual({ a: 1, keep: 'x', nested: { x: 1, y: 2 } });
    });

    it('folds several payloads in order, later keys winning', () => {
      expect(mergeInOrder([{ a: 1, b: 1 }, { b: 2, c: { d: 1 } }, { c: { e: 2 } }])).toEqual({
        a: 1,
        b: 2,
        c: { e: 2 },
      });
      expect(mergeInOrder([])).toEqual({});
    });

    it('merging in order equals posting one after the other (property)', () => {
      // The merge is shallow (a key's value replaced whole): values nested deeper prove nothing more.
      const obj = fc.dictionary(fc.constantFrom('a', 'b', 'c', 'd'), fc.jsonValue({ maxDepth: 1 }));
      fc.assert(
        fc.property(obj, fc.array(obj, { maxLength: 5 }), (start, patches) => {
          const target = aTarget({ id: ID, inputData: start });
          const oneByOne = patches.reduce((t, p) => receiveData(t, p, NOW), target);
          expect(receiveData(target, mergeInOrder(patches), NOW).inputData).toEqual(
            oneByOne.inputData,
          );
        }),
      );
    });
  });

  describe('moving on', () => {
    it('maps on_receive to the next status', () => {
      expect(statusAfterReceive(merge)).toBe('Pending');
      expect(statusAfterReceive(schedule)).toBe('Scheduled');
    });

    it('moves only a target Waiting at that very step', () => {
      expect(isWaitingAt({ status: 'Waiting', currentStep: 'labs' }, 'labs')).toBe(true);
      expect(isWaitingAt({ status: 'Waiting', currentStep: 'other' }, 'labs')).toBe(false);
      expect(isWaitingAt({ status: 'Pending', currentStep: null }, 'labs')).toBe(false);
      expect(isWaitingAt({ status: 'In Progress', currentStep: 'labs' }, 'labs')).toBe(false);
    });

    it('merge: Waiting -> Pending, leaves the step, no scheduled time', () => {
      const target = aTarget({ id: ID, status: 'Waiting', currentStep: 'labs' });
      expect(moveOn(target, merge, NOW)).toEqual({
        ...target,
        status: 'Pending',
        currentStep: null,
        scheduledTime: null,
        updatedAt: NOW,
      });
    });

    it('merge_and_schedule: Waiting -> Scheduled now', () => {
      const target = aTarget({ id: ID, status: 'Waiting', currentStep: 'labs' });
      expect(moveOn(target, schedule, NOW)).toEqual({
        ...target,
        status: 'Scheduled',
        currentStep: null,
        scheduledTime: NOW,
        updatedAt: NOW,
      });
    });

    it('leaves any other target as it is', () => {
      for (const target of [
        aTarget({ id: ID, status: 'Pending' }),
        aTarget({ id: ID, status: 'Waiting', currentStep: 'consent' }),
        aTarget({ id: ID, status: 'Finished' }),
      ]) {
        expect(moveOn(target, schedule, NOW)).toBe(target);
      }
    });
  });

  describe('EHR event ids', () => {
    it('appends the id under the event type, or under "unknown" without one', () => {
      let ids = appendEhrEventId(null, 'appointment_created', 'e1');
      ids = appendEhrEventId(ids, 'appointment_created', 'e2');
      ids = appendEhrEventId(ids, null, 'e3');
      expect(ids).toEqual({ appointment_created: ['e1', 'e2'], unknown: ['e3'] });
      expect(ehrEventKey(undefined)).toBe('unknown');
    });
  });
});
