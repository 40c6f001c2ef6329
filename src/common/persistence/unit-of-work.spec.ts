import { InMemoryUnitOfWork } from '../../testing/in-memory-unit-of-work.js';

describe('UnitOfWork hooks', () => {
  it('runs beforeCommit hooks in order after the work, then afterCommit hooks', async () => {
    const unitOfWork = new InMemoryUnitOfWork();
    const seen: string[] = [];
    const result = await unitOfWork.run(async (tx) => {
      unitOfWork.beforeCommit(tx, async () => {
        seen.push('before 1');
        // A hook may add another; it runs in the same transaction, before the commit.
        unitOfWork.beforeCommit(tx, async () => {
          seen.push('before 3');
        });
        unitOfWork.afterCommit(tx, () => seen.push('after 2'));
      });
      unitOfWork.beforeCommit(tx, async () => {
        seen.push('before 2');
      });
      unitOfWork.afterCommit(tx, () => seen.push('after 1'));
      seen.push('work');
      return 42;
    });
    expect(result).toBe(42);
    expect(seen).toEqual(['work', 'before 1', 'before 2', 'before 3', 'after 1', 'after 2']);
  });

  it('rolls back when a beforeCommit hook throws: no afterCommit hook runs', async () => {
    const unitOfWork = new InMemoryUnitOfWork();
    const seen: string[] = [];
    await expect(
      unitOfWork.run(async (tx) => {
        unitOfWork.afterCommit(tx, () => seen.push('after'));
        unitOfWork.beforeCommit(tx, async () => {
          throw new Error('the read before the commit failed');
        });
      }),
    ).rejects.toThrow('the read before the commit failed');
    expect(seen).toEqual([]);
  });

  it('refuses a beforeCommit hook for a transaction it has not open', async () => {
    const unitOfWork = new InMemoryUnitOfWork();
    let closed: unknown;
    await unitOfWork.run(async (tx) => {
      closed = tx;
    });
    expect(() => unitOfWork.beforeCommit(closed as never, async () => undefined)).toThrow(
      'beforeCommit: the transaction is not open in this unit of work',
    );
  });
});
