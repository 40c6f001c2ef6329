import { randomUUID } from 'crypto';
import { UnitOfWork } from '../../src/common/persistence/unit-of-work.js';
import { DoNotCallRepository } from '../../src/modules/compliance/application/ports/do-not-call.repository.js';
import type { NewDoNotCallEntry } from '../../src/modules/compliance/domain/do-not-call.js';

export interface DoNotCallRepositorySubject {
  repository: DoNotCallRepository;
  unitOfWork: UnitOfWork;
  organizationId(): Promise<string>;
}

const T0 = new Date('2026-11-02T15:00:00.000Z');
const at = (minutes: number) => new Date(T0.getTime() + minutes * 60_000);
const KEY = randomUUID();

const byApi = (
  organizationId: string,
  phoneNumber: string,
  reason = 'letter',
  createdAt = T0,
): NewDoNotCallEntry => ({
  organizationId,
  phoneNumber,
  reason,
  source: { type: 'api', addedBy: { type: 'api_key', id: KEY, name: 'EHR integration' } },
  createdAt,
});

const listed = (entry: NewDoNotCallEntry) => ({ ...entry, removal: null });

/** The DoNotCallRepository port, against the in-memory fake and the SQL adapter: the same answers. */
export function doNotCallRepositoryContract(
  name: string,
  subject: () => DoNotCallRepositorySubject,
) {
  describe(`DoNotCallRepository contract: ${name}`, () => {
    let s: DoNotCallRepositorySubject;
    beforeEach(() => {
      s = subject();
    });
    const add = (entries: NewDoNotCallEntry[]) =>
      s.unitOfWork.run((tx) => s.repository.add(tx, entries));
    const page = (organizationId: string, more: object = {}) =>
      s.repository.list(organizationId, {
        skip: 0,
        limit: 100,
        digits: null,
        includeRemoved: false,
        ...more,
      });

    it('adds in batch order; the first entry of a number wins; a listed number is left as it is', async () => {
      const org = await s.organizationId();
      const callLogId = 9_007_199_254;
      const fromCall: NewDoNotCallEntry = {
        organizationId: org,
        phoneNumber: '+15550100003',
        reason: 'Asked not to be called again during a call',
        source: { type: 'call', campaignId: randomUUID(), targetId: randomUUID(), callLogId },
        createdAt: T0,
      };
      expect(
        await add([
          byApi(org, '+15550100002', 'email'),
          byApi(org, '+15550100001', 'letter'),
          byApi(org, '+15550100002', 'a second reason'),
          fromCall,
        ]),
      ).toEqual({
        added: [
          listed(byApi(org, '+15550100002', 'email')),
          listed(byApi(org, '+15550100001', 'letter')),
          listed(fromCall),
        ],
        alreadyListed: [],
      });
      expect(
        await add([
          byApi(org, '+15550100009', 'new', at(1)),
          byApi(org, '+15550100001', 'again', at(1)),
        ]),
      ).toEqual({
        added: [listed(byApi(org, '+15550100009', 'new', at(1)))],
        alreadyListed: [listed(byApi(org, '+15550100001', 'letter'))],
      });
      expect(await page(org)).toEqual({
        items: [
          listed(byApi(org, '+15550100002', 'email')),
          listed(byApi(org, '+15550100001', 'letter')),
          listed(fromCall),
          listed(byApi(org, '+15550100009', 'new', at(1))),
        ],
        total: 4,
      });
      expect(await add([])).toEqual({ added: [], alreadyListed: [] });
    });

    it('answers which numbers are listed now, since when, per organization', async () => {
      const org = await s.organizationId();
      const other = await s.organizationId();
      await add([byApi(org, '+15550100001'), byApi(org, '+15550100002', 'r', at(3))]);
      await add([byApi(other, '+15550100003')]);
      expect(
        await s.repository.listedAmong(null, org, ['+15550100001', '+15550100002', '+15550100003']),
      ).toEqual(
        new Map([
          ['+15550100001', T0],
          ['+15550100002', at(3)],
        ]),
      );
      expect(
        await s.unitOfWork.run((tx) => s.repository.listedAmong(tx, other, ['+15550100001'])),
      ).toEqual(new Map());
      expect(await s.repository.listedAmong(null, org, [])).toEqual(new Map());
    });

    it('removes listed numbers with the removal kept; listing again makes a new entry', async () => {
      const org = await s.organizationId();
      const other = await s.organizationId();
      await add([byApi(org, '+15550100001'), byApi(org, '+15550100002')]);
      await add([byApi(other, '+15550100001')]);
      const removal = {
        at: at(10),
        reason: 'consent given again',
        removedBy: { type: 'user' as const, id: randomUUID(), name: 'Dana Reyes' },
      };
      const removed = await s.unitOfWork.run((tx) =>
        s.repository.remove(tx, org, ['+15550100001', '+15550109999'], removal),
      );
      expect(removed).toEqual([{ ...byApi(org, '+15550100001'), removal }]);
      expect(
        await s.unitOfWork.run((tx) =>
          s.repository.remove(tx, org, ['+15550100001'], { ...removal, reason: 'twice' }),
        ),
      ).toEqual([]);
      expect(await s.repository.listedAmong(null, org, ['+15550100001'])).toEqual(new Map());
      expect(await s.repository.listedAmong(null, other, ['+15550100001'])).toEqual(
        new Map([['+15550100001', T0]]),
      );

      await add([byApi(org, '+15550100001', 'asked again', at(20))]);
      expect(await page(org)).toEqual({
        items: [
          listed(byApi(org, '+15550100002')),
          listed(byApi(org, '+15550100001', 'asked again', at(20))),
        ],
        total: 2,
      });
      expect(await page(org, { includeRemoved: true })).toEqual({
        items: [
          { ...byApi(org, '+15550100001'), removal },
          listed(byApi(org, '+15550100002')),
          listed(byApi(org, '+15550100001', 'asked again', at(20))),
        ],
        total: 3,
      });
    });

    it('pages oldest first with the total, and filters by the digits a number contains', async () => {
      const org = await s.organizationId();
      await add([byApi(org, '+15550200001', 'r', at(2))]);
      await add([byApi(org, '+15550100001', 'r', at(1)), byApi(org, '+442079460000', 'r', at(1))]);
      const numbers = async (more: object) =>
        (await page(org, more)).items.map((e) => e.phoneNumber);
      expect(await numbers({})).toEqual(['+15550100001', '+442079460000', '+15550200001']);
      expect(await page(org, { skip: 1, limit: 1 })).toEqual({
        items: [listed(byApi(org, '+442079460000', 'r', at(1)))],
        total: 3,
      });
      expect(await page(org, { skip: 3 })).toEqual({ items: [], total: 3 });
      expect(await numbers({ digits: '5550' })).toEqual(['+15550100001', '+15550200001']);
      expect(await page(org, { digits: '44207' })).toMatchObject({ total: 1 });
      expect(await page(org, { digits: '999' })).toEqual({ items: [], total: 0 });
    });

    it('a listing rolled back with its transaction is not kept', async () => {
      const org = await s.organizationId();
      await expect(
        s.unitOfWork.run(async (tx) => {
          await s.repository.add(tx, [byApi(org, '+15550100001')]);
          throw new Error('rolled back');
        }),
      ).rejects.toThrow('rolled back');
      expect(await page(org)).toEqual({ items: [], total: 0 });
    });
  });
}
