import { PlacementRate } from '../../src/modules/calling/application/ports/placement-rate.js';
import {
  SimulatedCall,
  SimulatedCallStore,
} from '../../src/modules/calling/application/ports/simulated-call.store.js';
import { UnitOfWork } from '../../src/common/persistence/unit-of-work.js';

export interface CallingStoresHarness {
  simulated: SimulatedCallStore;
  rate: PlacementRate;
  uow: UnitOfWork;
  close(): Promise<void>;
}

const call = (id: string, callLogId: number, dueAt: string): SimulatedCall => ({
  id,
  callLogId,
  dueAt: new Date(dueAt),
  request: {
    outcome: 'GOOD',
    endedReason: 'assistant-ended-call',
    durationSeconds: 5,
    attempt: 1,
    inputData: { a: 1 },
    startedAt: '2026-01-05T15:00:00.000Z',
  },
});

/** The calling engine's own stores: the simulator's running calls and the per-second budget. */
export function callingStoresContract(
  name: string,
  setup: () => Promise<CallingStoresHarness>,
): void {
  describe(`calling stores contract: ${name}`, () => {
    let h: CallingStoresHarness;
    beforeAll(async () => {
      h = await setup();
    });
    afterAll(() => h.close());

    it('keeps simulated calls until removed, hands out the due ones earliest first, once per lease', async () => {
      const prefix = `c-${Date.now()}-`;
      await h.simulated.record([
        call(`${prefix}b`, 9_000_002, '2026-01-05T15:00:02.000Z'),
        call(`${prefix}a`, 9_000_001, '2026-01-05T15:00:01.000Z'),
        call(`${prefix}c`, 9_000_003, '2026-01-05T16:00:00.000Z'),
      ]);
      expect(await h.simulated.nextDue()).toEqual(new Date('2026-01-05T15:00:01.000Z'));
      expect(await h.simulated.find({ providerCallId: null, callLogId: 9_000_002 })).toEqual(
        call(`${prefix}b`, 9_000_002, '2026-01-05T15:00:02.000Z'),
      );
      expect(await h.simulated.find({ providerCallId: `${prefix}c`, callLogId: 1 })).toMatchObject({
        id: `${prefix}c`,
      });

      const now = new Date('2026-01-05T15:00:05.000Z');
      const retake = new Date('2026-01-05T15:00:35.000Z');
      // The earliest due first; each taken once until its lease runs out.
      const first = await h.simulated.takeDue(now, retake, 1);
      expect(first.map((c) => c.id)).toEqual([`${prefix}a`]);
      expect(first[0].request).toEqual(call('x', 1, now.toISOString()).request);
      const rest = await h.simulated.takeDue(now, retake, 10);
      expect(rest.map((c) => c.id)).toEqual([`${prefix}b`]);
      expect(await h.simulated.takeDue(now, retake, 10)).toEqual([]);
      expect(await h.simulated.nextDue()).toEqual(retake);
      const taken = [...first, ...rest];

      await h.simulated.remove(taken.map((c) => c.id));
      expect(await h.simulated.find({ providerCallId: `${prefix}a`, callLogId: 0 })).toBeNull();
      expect(await h.simulated.nextDue()).toEqual(new Date('2026-01-05T16:00:00.000Z'));
      await h.simulated.remove([`${prefix}c`]);
      expect(await h.simulated.nextDue()).toBeNull();
    });

    it('grants placements up to the limit per provider and second', async () => {
      const provider = `p-${Date.now()}`;
      const at = new Date('2026-01-05T15:00:00.200Z');
      const take = (wanted: number, when: Date, who = provider) =>
        h.uow.run((tx) => h.rate.take(tx, who, wanted, 5, when));
      expect(await take(3, at)).toBe(3);
      expect(await take(3, new Date('2026-01-05T15:00:00.900Z'))).toBe(2);
      expect(await take(1, at)).toBe(0);
      expect(await take(4, at, `${provider}-other`)).toBe(4);
      expect(await take(9, new Date('2026-01-05T15:00:01.000Z'))).toBe(5);
    });
  });
}
