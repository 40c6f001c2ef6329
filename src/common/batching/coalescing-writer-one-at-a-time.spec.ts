import { CoalescingWriter } from './coalescing-writer.js';

describe('CoalescingWriter, one write at a time (group commit)', () => {
  it('writes one batch at a time; what arrives meanwhile goes out together next', async () => {
    const batches: number[][] = [];
    let inFlight = 0;
    let maxInFlight = 0;
    let release!: () => void;
    const firstWrite = new Promise<void>((r) => (release = r));
    const writer = new CoalescingWriter<number>(
      async (items) => {
        inFlight++;
        maxInFlight = Math.max(maxInFlight, inFlight);
        batches.push(items);
        if (batches.length === 1) await firstWrite;
        inFlight--;
      },
      1000,
      'one-at-a-time',
    );
    const first = writer.add(1);
    // Queued while the first write is held open.
    await new Promise((r) => setImmediate(r));
    const later = [writer.add(2), writer.add(3), writer.add(4)];
    release();
    await Promise.all([first, ...later]);
    expect(batches).toEqual([[1], [2, 3, 4]]);
    expect(maxInFlight).toBe(1);
  });

  it('rejects every item of a failed write; the next one is written', async () => {
    let fail = true;
    const writer = new CoalescingWriter<number>(
      async () => {
        if (fail) throw new Error('down');
      },
      1000,
      'one-at-a-time',
    );
    const results = await Promise.allSettled([writer.add(1), writer.add(2)]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    fail = false;
    await expect(writer.add(3)).resolves.toBeUndefined();
  });

  it('splits more than maxBatch items into several writes', async () => {
    const sizes: number[] = [];
    const writer = new CoalescingWriter<number>(
      async (items) => {
        sizes.push(items.length);
      },
      2,
      'one-at-a-time',
    );
    await Promise.all([1, 2, 3, 4, 5].map((i) => writer.add(i)));
    expect(sizes).toEqual([2, 2, 1]);
  });
});
