import {
  CallEventStore,
  ReceivedCallEvent,
} from '../../src/modules/calling/application/ports/call-event.store.js';
import type { CallEvent } from '../../src/modules/telephony/application/ports/call-provider.js';
import { PlacementRate } from '../../src/modules/calling/application/ports/placement-rate.js';
import {
  SimulatedCall,
  SimulatedCallStore,
} from '../../src/modules/calling/application/ports/simulated-call.store.js';
import { UnitOfWork } from '../../src/common/persistence/unit-of-work.js';

export interface CallingStoresHarness {
  simulated: SimulatedCallStore;
  rate: PlacementRate;
  events: CallEventStore;
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

    it('stores each provider event once per connection and key, whatever repeats it', async () => {
      const connection = `conn-${Date.now()}`;
      const event = (key: string, kind: CallEvent['kind'], callLogId: number) => ({
        key,
        kind,
        providerCallId: `call-${key}`,
        callLogId,
        at: new Date('2026-01-05T15:00:00.000Z'),
      });
      const store = (conn: string, events: ReceivedCallEvent[]) =>
        h.uow.run((tx) => h.events.storeNew(tx, conn, events));
      expect(await store(connection, [])).toEqual(new Set());
      // A key twice in one batch is stored once.
      expect(
        await store(connection, [
          event('a', 'started', 1),
          event('b', 'ended', 1),
          event('a', 'ended', 1),
        ]),
      ).toEqual(new Set(['a', 'b']));
      // Redelivered with a new one: only the new one is stored.
      expect(await store(connection, [event('b', 'ended', 1), event('c', 'ended', 2)])).toEqual(
        new Set(['c']),
      );
      // Keys are the connection's own: another connection's same key is another event.
      expect(await store(`${connection}-other`, [event('a', 'started', 3)])).toEqual(
        new Set(['a']),
      );
      // Stored only when the transaction commits.
      await expect(
        h.uow.run(async (tx) => {
          await h.events.storeNew(tx, connection, [event('d', 'started', 4)]);
          throw new Error('rolled back');
        }),
      ).rejects.toThrow('rolled back');
      expect(await store(connection, [event('d', 'started', 4)])).toEqual(new Set(['d']));
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
