import { Tx, UnitOfWork } from '../../src/common/persistence/unit-of-work';
import {
  AttemptResult,
  DispatchRepository,
} from '../../src/modules/calling/application/ports/dispatch.repository';
import { Target } from '../../src/modules/target/domain/target';
import { aTarget } from '../../src/testing/test-data';

export interface DispatchContractContext {
  repository: DispatchRepository;
  uow: UnitOfWork;
  /** A fresh organization and campaign; `seed` stores targets for it (their ids and fields as given). */
  newCampaign(): Promise<{
    organizationId: string;
    campaignId: string;
    seed(targets: Target[]): Promise<void>;
  }>;
}

const T0 = new Date('2026-01-05T15:00:00.000Z');
const at = (seconds: number) => new Date(T0.getTime() + seconds * 1000);

/** The conditional transitions every DispatchRepository (SQL adapter, in-memory fake) must make. */
export function dispatchRepositoryContract(
  name: string,
  context: () => DispatchContractContext,
): void {
  describe(`DispatchRepository contract: ${name}`, () => {
    let c: DispatchContractContext;
    beforeAll(() => {
      c = context();
    });
    const run = <T>(work: (tx: Tx) => Promise<T>) => c.uow.run(work);
    const start = (campaignId: string, id: string, cap: number) =>
      run(async (tx) => {
        await c.repository.lockCampaignSlots(tx, campaignId);
        return c.repository.startCall(tx, { id, campaignId }, cap, T0);
      });

    async function campaignWith(...overrides: Partial<Target>[]) {
      const campaign = await c.newCampaign();
      const targets = overrides.map((o, i) =>
        aTarget({
          id: randomId(),
          organizationId: campaign.organizationId,
          campaignId: campaign.campaignId,
          createdAt: at(i),
          updatedAt: at(i),
          ...o,
        }),
      );
      await campaign.seed(targets);
      return { ...campaign, targets, ids: targets.map((t) => t.id) };
    }

    it('trigger by ids: schedules the Pending ones, reports unknown and not pending', async () => {
      const { campaignId, ids } = await campaignWith({}, { status: 'Finished' }, {});
      const foreign = await campaignWith({});
      const unknown = randomId();
      const claim = await run((tx) =>
        c.repository.claimForTrigger(
          tx,
          campaignId,
          { targetIds: [ids[0], ids[1], unknown, foreign.ids[0], ids[2]] },
          T0,
        ),
      );
      expect(claim.scheduled.sort()).toEqual([ids[0], ids[2]].sort());
      expect(claim.notPending).toEqual([ids[1]]);
      expect(claim.notFound.sort()).toEqual([unknown, foreign.ids[0]].sort());
      expect(await c.repository.findTarget(ids[0])).toMatchObject({
        status: 'Scheduled',
        scheduledTime: T0,
      });
      const again = await run((tx) =>
        c.repository.claimForTrigger(tx, campaignId, { targetIds: [ids[0]] }, T0),
      );
      expect(again).toEqual({ scheduled: [], notFound: [], notPending: [ids[0]] });
    });

    it('trigger by count: oldest first takes the earliest Pending targets, never more than asked', async () => {
      const { campaignId, ids } = await campaignWith({}, { status: 'Failed' }, {}, {}, {});
      const oldest = await run((tx) =>
        c.repository.claimForTrigger(tx, campaignId, { count: 2, oldestFirst: true }, T0),
      );
      expect(oldest.scheduled).toEqual([ids[0], ids[2]]);
      const random = await run((tx) =>
        c.repository.claimForTrigger(tx, campaignId, { count: 5, oldestFirst: false }, T0),
      );
      expect(random.scheduled.sort()).toEqual([ids[3], ids[4]].sort());
    });

    it('starts a due call under the concurrency cap; reports busy at the cap and gone when not due', async () => {
      const due = { status: 'Scheduled' as const, scheduledTime: T0 };
      const { campaignId, ids } = await campaignWith(due, due, {
        status: 'Scheduled',
        scheduledTime: at(3600),
      });
      const first = await start(campaignId, ids[0], 1);
      expect(first).toMatchObject({
        kind: 'started',
        target: {
          status: 'In Progress',
          attempts: 1,
          retries: 0,
          callStartedAt: T0,
          lastCallDate: T0,
        },
      });
      await expect(start(campaignId, ids[1], 1)).resolves.toEqual({
        kind: 'busy',
      });
      await expect(start(campaignId, ids[2], 5)).resolves.toEqual({
        kind: 'gone',
      });
      await expect(start(campaignId, ids[0], 5)).resolves.toEqual({
        kind: 'gone',
      });
    });

    it('applies an attempt once, only for the current call; merges output and sums durations', async () => {
      const { campaignId, ids } = await campaignWith({
        status: 'Scheduled',
        scheduledTime: T0,
        outputData: { kept: 1 },
        executionSeconds: 10,
      });
      await start(campaignId, ids[0], 5);
      await run((tx) => c.repository.attachCallLog(tx, ids[0], 41));
      await expect(
        run((tx) => c.repository.markPostProcessing(tx, ids[0], 40, at(5))),
      ).resolves.toBe(false);
      await expect(
        run((tx) => c.repository.markPostProcessing(tx, ids[0], 41, at(5))),
      ).resolves.toBe(true);
      const result: AttemptResult = {
        callLogId: 41,
        status: 'Scheduled',
        resolution: null,
        category: 'NO_RESPONSE',
        subcategory: null,
        outcome: 'No answer',
        retryAt: at(3600),
        durationSeconds: 5,
        outputData: { added: 2 },
        categorization: { category: 'NO_RESPONSE', outcome: 'NO_RESPONSE' },
        now: at(6),
      };
      const updated = await run((tx) => c.repository.finishAttempt(tx, ids[0], result));
      expect(updated).toMatchObject({
        status: 'Scheduled',
        category: 'NO_RESPONSE',
        outcome: 'No answer',
        scheduledTime: at(3600),
        outputData: { kept: 1, added: 2 },
        executionSeconds: 15,
        callLogIds: [41],
        callStartedAt: null,
        categorization: { category: 'NO_RESPONSE', outcome: 'NO_RESPONSE' },
        statistics: {
          attempts: 1,
          execution_seconds: 15,
          last_call_outcome: 'NO_RESPONSE',
          last_call_log_id: 41,
        },
      });
      await expect(run((tx) => c.repository.finishAttempt(tx, ids[0], result))).resolves.toBeNull();
    });

    it('ends a target without a call, and defers, only while it is Scheduled', async () => {
      const { ids } = await campaignWith(
        { status: 'Scheduled', scheduledTime: T0 },
        { status: 'Pending' },
      );
      await expect(run((tx) => c.repository.defer(tx, ids[0], at(60)))).resolves.toBe(true);
      await expect(run((tx) => c.repository.defer(tx, ids[1], at(60)))).resolves.toBe(false);
      const decision = {
        status: 'Finished' as const,
        resolution: 'unsuccessful',
        category: 'BLACKLISTED_PHONE',
        subcategory: null,
        outcome: 'Phone number is blacklisted',
        retryAt: null,
      };
      const ended = await run((tx) => c.repository.finishWithoutCall(tx, ids[0], decision, at(61)));
      expect(ended).toMatchObject({
        status: 'Finished',
        category: 'BLACKLISTED_PHONE',
        scheduledTime: at(60),
        callLogIds: null,
      });
      await expect(
        run((tx) => c.repository.finishWithoutCall(tx, ids[0], decision, at(62))),
      ).resolves.toBeNull();
      await expect(
        run((tx) => c.repository.finishWithoutCall(tx, ids[1], decision, at(62))),
      ).resolves.toBeNull();
    });

    it('waitlist: first come first woken, a target keeps its place, ended targets are skipped and pruned', async () => {
      const due = { status: 'Scheduled' as const, scheduledTime: T0 };
      const { campaignId, ids } = await campaignWith(due, due, due);
      const wait = (id: string, now: Date) =>
        run((tx) => c.repository.waitForSlot(tx, { id, campaignId }, now, at(600)));
      await expect(wait(ids[2], at(1))).resolves.toBe(true);
      await expect(wait(ids[0], at(2))).resolves.toBe(true);
      await expect(wait(ids[1], at(3))).resolves.toBe(true);
      await expect(wait(ids[0], at(4))).resolves.toBe(true); // keeps its place
      expect(await c.repository.findTarget(ids[0])).toMatchObject({
        status: 'Scheduled',
        scheduledTime: at(600),
      });
      const ended = {
        status: 'Finished' as const,
        resolution: null,
        category: null,
        subcategory: null,
        outcome: 'x',
        retryAt: null,
      };
      await run((tx) => c.repository.finishWithoutCall(tx, ids[2], ended, at(5)));

      const wake = () => run((tx) => c.repository.wakeNextWaiting(tx, campaignId, at(10)));
      await expect(wake()).resolves.toEqual([{ id: ids[0], campaignId }]);
      expect(await c.repository.findTarget(ids[0])).toMatchObject({ scheduledTime: at(10) });
      await expect(wake()).resolves.toEqual([{ id: ids[1], campaignId }]);
      await expect(wake()).resolves.toEqual([]);
      await expect(c.repository.pruneWaitlist()).resolves.toBeGreaterThanOrEqual(1);
      await expect(c.repository.pruneWaitlist()).resolves.toBe(0);
    });

    it('a started call leaves the waitlist', async () => {
      const due = { status: 'Scheduled' as const, scheduledTime: T0 };
      const { campaignId, ids } = await campaignWith(due);
      await run((tx) => c.repository.waitForSlot(tx, { id: ids[0], campaignId }, T0, T0));
      await expect(start(campaignId, ids[0], 5)).resolves.toMatchObject({ kind: 'started' });
      await expect(
        run((tx) => c.repository.wakeNextWaiting(tx, campaignId, at(10))),
      ).resolves.toEqual([]);
    });

    it('rescues a Scheduled target overdue past the grace period once per period', async () => {
      const { ids } = await campaignWith({ status: 'Scheduled', scheduledTime: at(-10_000_000) });
      const mine = (rows: { id: string }[]) => rows.filter((r) => r.id === ids[0]).length;
      expect(
        mine(await run((tx) => c.repository.rescueOverdue(tx, at(-9_000_000), T0, 10_000))),
      ).toBe(1);
      expect(
        mine(await run((tx) => c.repository.rescueOverdue(tx, at(-9_000_000), T0, 10_000))),
      ).toBe(0);
      expect(await c.repository.findTarget(ids[0])).toMatchObject({ scheduledTime: T0 });
    });
  });
}

function randomId(): string {
  const hex = [...Array(32)].map(() => Math.floor(Math.random() * 16).toString(16)).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-8${hex.slice(17, 20)}-${hex.slice(20)}`;
}
