import { CoalescingWriter } from './coalescing-writer.js';

describe('CoalescingWriter', () => {
  it('writes items added together in one batch, and later ones in the next', async () => {
    const batches: number[][] = [];
    const writer = new CoalescingWriter<number>(async (items) => {
      batches.push(items);
    });
    await Promise.all([writer.add(1), writer.add(2), writer.add(3)]);
    await writer.add(4);
    expect(batches).toEqual([[1, 2, 3], [4]]);
  });

  it('rejects every item of a failed batch; the next batch is written', async () => {
    let fail = true;
    const writer = new CoalescingWriter<number>(async () => {
      if (fail) throw new Error('down');
    });
    const results = await Promise.allSettled([writer.add(1), writer.add(2)]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    fail = false;
    await expect(writer.add(3)).resolves.toBeUndefined();
  });

  it('splits more than maxBatch items into several batches', async () => {
    const sizes: number[] = [];
    const writer = new CoalescingWriter<number>(async (items) => {
      sizes.push(items.length);
    }, 2);
    await Promise.all([1, 2, 3, 4, 5].map((i) => writer.add(i)));
    expect(sizes).toEqual([2, 2, 1]);
  });
});
