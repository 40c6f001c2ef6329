import { Tx, UnitOfWork } from '../../src/common/persistence/unit-of-work.js';
import {
  FinishedAttempt,
  TargetTransitions,
  WaitingScope,
} from '../../src/modules/target/application/ports/target-transitions.js';
import type { Target } from '../../src/modules/target/domain/target.js';
import {
  allows,
  LIFECYCLE_STATUSES,
  TARGET_EVENTS,
  TARGET_LIFECYCLE,
  TargetEvent,
} from '../../src/modules/target/domain/target-lifecycle.js';

export type SeedTarget = Partial<Target> & Pick<Target, 'id'>;

export interface TargetTransitionsFixture {
  transitions: TargetTransitions;
  uow: UnitOfWork;
  /** A fresh campaign of an organization, and another organization's. */
  scope(): Promise<{ mine: WaitingScope; foreign: WaitingScope }>;
  /** Stores targets (defaults: Pending) in the scope. */
  seed(scope: WaitingScope, targets: SeedTarget[]): Promise<void>;
}

let counter = 0;
const nextId = () =>
  `00000000-0000-4000-8000-${(0xabc000000 + ++counter).toString(16).padStart(12, '0')}`;
const T0 = new Date('2026-03-01T10:00:00.000Z');
const at = (s: number) => new Date(T0.getTime() + s * 1000);

const outcome = (callLogId: number, over: Partial<FinishedAttempt> = {}): FinishedAttempt => ({
  status: 'Finished',
  resolution: 'successful',
  category: 'GOOD',
  subcategory: null,
  outcome: 'Call completed',
  retryAt: null,
  callLogId,
  durationSeconds: 65,
  outputData: { confirmed: true },
  categorization: { outcome: 'GOOD', call_log_id: callLogId },
  now: at(100),
  ...over,
});

/** A decision to end a target without calling it: its number is blacklisted. */
const blacklisted = (status: 'Finished' | 'Failed') => ({
  status,
  resolution: 'unsuccessful',
  category: 'BLACKLISTED_PHONE',
  subcategory: null,
  outcome: 'Phone number is blacklisted',
  retryAt: null,
});

/** The rules of every TargetTransitions (the SQL adapter and the in-memory fake). */
export function targetTransitionsContract(name: string, fixture: () => TargetTransitionsFixture) {
  describe(`TargetTransitions contract: ${name}`, () => {
    let f: TargetTransitionsFixture;
    beforeAll(() => {
      f = fixture();
    });
    const run = <T>(work: (tx: Tx) => Promise<T>) => f.uow.run(work);
    // A target id is unique within its organization only: the suite remembers whose each one is.
    const owners = new Map<string, string>();
    const seed = (scope: WaitingScope, targets: SeedTarget[]) => {
      for (const t of targets) owners.set(t.id, scope.organizationId);
      return f.seed(scope, targets);
    };
    const find = (id: string) => f.transitions.findById(null, owners.get(id)!, id);

    it('trigger by ids: Pending → Scheduled once; others reported', async () => {
      const { mine, foreign } = await f.scope();
      const [a, done, other] = [nextId(), nextId(), nextId()];
      await seed(mine, [{ id: a }, { id: done, status: 'Finished' }]);
      await seed(foreign, [{ id: other }]);
      const unknown = nextId();
      const claim = await run((tx) =>
        f.transitions.claimForTrigger(
          tx,
          mine.campaignId,
          { targetIds: [a, done, other, unknown] },
          T0,
        ),
      );
      expect(claim.scheduled).toEqual([a]);
      expect(claim.notPending).toEqual([done]);
      expect([...claim.notFound].sort()).toEqual([other, unknown].sort());
      expect(await find(a)).toMatchObject({ status: 'Scheduled', scheduledTime: T0 });
      const again = await run((tx) =>
        f.transitions.claimForTrigger(tx, mine.campaignId, { targetIds: [a] }, T0),
      );
      expect(again).toEqual({ scheduled: [], notFound: [], notPending: [a] });
    });

    it('moveWaiting moves only targets Waiting at that step, in scope, once', async () => {
      const { mine, foreign } = await f.scope();
      const [waiting, elsewhere, pending, theirs] = [nextId(), nextId(), nextId(), nextId()];
      await seed(mine, [
        { id: waiting, status: 'Waiting', currentStep: 'labs' },
        { id: elsewhere, status: 'Waiting', currentStep: 'consent' },
        { id: pending },
      ]);
      await seed(foreign, [{ id: theirs, status: 'Waiting', currentStep: 'labs' }]);
      const ids = [waiting, elsewhere, pending, theirs];
      const moved = await run((tx) =>
        f.transitions.moveWaiting(tx, mine, ids, 'labs', 'Scheduled', T0),
      );
      expect(moved).toEqual([waiting]);
      expect(await find(waiting)).toMatchObject({
        status: 'Scheduled',
        currentStep: null,
        scheduledTime: T0,
      });
      expect(await find(elsewhere)).toMatchObject({ status: 'Waiting', currentStep: 'consent' });
      expect(await find(theirs)).toMatchObject({ status: 'Waiting' });
      expect(
        await run((tx) => f.transitions.moveWaiting(tx, mine, ids, 'labs', 'Scheduled', T0)),
      ).toEqual([]);
      const [toPending] = [nextId()];
      await seed(mine, [{ id: toPending, status: 'Waiting', currentStep: 'labs' }]);
      await run((tx) => f.transitions.moveWaiting(tx, mine, [toPending], 'labs', 'Pending', T0));
      expect(await find(toPending)).toMatchObject({ status: 'Pending', scheduledTime: null });
    });

    it('due campaigns: earliest due first, none that is excluded (a paused backlog takes no place)', async () => {
      const { mine, foreign } = await f.scope();
      await seed(
        mine,
        Array.from({ length: 40 }, (_, i) => ({
          id: nextId(),
          status: 'Scheduled' as const,
          scheduledTime: at(-3600 - i),
        })),
      );
      await seed(foreign, [
        { id: nextId(), status: 'Scheduled', scheduledTime: at(-5) },
        { id: nextId(), status: 'Scheduled', scheduledTime: at(5) },
      ]);
      const all = await f.transitions.dueCampaigns(T0, 10_000, []);
      expect(all.indexOf(mine.campaignId)).toBeGreaterThanOrEqual(0);
      expect(all.indexOf(foreign.campaignId)).toBeGreaterThan(all.indexOf(mine.campaignId));
      const withoutMine = await f.transitions.dueCampaigns(T0, 10_000, [mine.campaignId]);
      expect(withoutMine).toContain(foreign.campaignId);
      expect(withoutMine).not.toContain(mine.campaignId);
      // Not yet due: left out.
      expect(await f.transitions.dueCampaigns(at(-10), 10_000, [])).not.toContain(
        foreign.campaignId,
      );
    });

    it('due targets: by campaign, earliest first; the next due time after now', async () => {
      const { mine } = await f.scope();
      const [late, early, future, pending] = [nextId(), nextId(), nextId(), nextId()];
      await seed(mine, [
        { id: late, status: 'Scheduled', scheduledTime: at(-10) },
        { id: early, status: 'Scheduled', scheduledTime: at(-20) },
        { id: future, status: 'Scheduled', scheduledTime: at(30) },
        { id: pending },
      ]);
      expect(await f.transitions.dueCampaigns(T0, 10_000, [])).toContain(mine.campaignId);
      expect((await f.transitions.peekDue(mine.campaignId, T0, 10)).map((t) => t.id)).toEqual([
        early,
        late,
      ]);
      expect((await f.transitions.peekDue(mine.campaignId, T0, 1)).map((t) => t.id)).toEqual([
        early,
      ]);
      const next = await f.transitions.nextDueAfter(T0);
      expect(next!.getTime()).toBeLessThanOrEqual(at(30).getTime());
    });

    it('claim: lock due targets, defer one, start one with its call log, count it in flight', async () => {
      const { mine } = await f.scope();
      const org = mine.organizationId;
      const [a, b, notDue] = [nextId(), nextId(), nextId()];
      await seed(mine, [
        { id: a, status: 'Scheduled', scheduledTime: at(-1) },
        { id: b, status: 'Scheduled', scheduledTime: at(-1) },
        { id: notDue, status: 'Scheduled', scheduledTime: at(60) },
      ]);
      const started = await run(async (tx) => {
        await f.transitions.lockCampaigns(tx, [mine.campaignId]);
        const locked = await f.transitions.lockDue(tx, org, [a, b, notDue], T0);
        expect(locked.map((t) => t.id).sort()).toEqual([a, b].sort());
        expect(
          await f.transitions.defer(tx, org, [{ targetId: b, until: at(3600), hold: null }], T0),
        ).toEqual([b]);
        return f.transitions.startCalls(tx, org, [{ targetId: a, callLogId: 41 }], T0);
      });
      expect(started).toMatchObject([
        {
          id: a,
          status: 'In Progress',
          attempts: 1,
          retries: 0,
          callLogIds: [41],
          callStartedAt: T0,
        },
      ]);
      expect(await find(b)).toMatchObject({ status: 'Scheduled', scheduledTime: at(3600) });
      expect(await f.transitions.countInFlight(null, mine.campaignId)).toBe(1);
      // Not Scheduled any more: not started twice.
      expect(
        await run((tx) => f.transitions.startCalls(tx, org, [{ targetId: a, callLogId: 42 }], T0)),
      ).toEqual([]);
    });

    it('finishAttempt applies once, only for the latest call; a retry is Scheduled at retryAt', async () => {
      const { mine } = await f.scope();
      const org = mine.organizationId;
      const [a, b] = [nextId(), nextId()];
      await seed(mine, [
        { id: a, status: 'In Progress', attempts: 1, callLogIds: [7] },
        { id: b, status: 'In Progress', attempts: 1, callLogIds: [8], executionSeconds: 10 },
      ]);
      expect(await run((tx) => f.transitions.finishAttempt(tx, org, a, outcome(6)))).toBeNull();
      const done = await run((tx) => f.transitions.finishAttempt(tx, org, a, outcome(7)));
      expect(done).toMatchObject({
        status: 'Finished',
        category: 'GOOD',
        executionSeconds: 65,
        outputData: { confirmed: true },
        callStartedAt: null,
      });
      expect(await run((tx) => f.transitions.finishAttempt(tx, org, a, outcome(7)))).toBeNull();
      const retry = await run((tx) =>
        f.transitions.finishAttempt(
          tx,
          org,
          b,
          outcome(8, { status: 'Scheduled', retryAt: at(600), durationSeconds: 5 }),
        ),
      );
      expect(retry).toMatchObject({
        status: 'Scheduled',
        scheduledTime: at(600),
        executionSeconds: 15,
      });
    });

    it("continueAfterTexts: SMS Scheduled → the call's decision, once; no other status moves", async () => {
      const { mine } = await f.scope();
      const org = mine.organizationId;
      const [a, b, c] = [nextId(), nextId(), nextId()];
      await seed(mine, [
        { id: a, status: 'In Progress', attempts: 1, callLogIds: [11] },
        { id: b, status: 'In Progress', attempts: 1, callLogIds: [12] },
        { id: c, status: 'Scheduled', scheduledTime: T0 },
      ]);
      const texting = { status: 'SMS Scheduled' as const, category: 'NO_RESPONSE' };
      await run((tx) =>
        f.transitions.finishAttempt(tx, org, a, outcome(11, { ...texting, retryAt: at(600) })),
      );
      await run((tx) => f.transitions.finishAttempt(tx, org, b, outcome(12, texting)));
      expect(await find(a)).toMatchObject({ status: 'SMS Scheduled', scheduledTime: at(600) });
      const next = (targetId: string, status: 'Scheduled' | 'Finished', retryAt: Date | null) => ({
        organizationId: org,
        targetId,
        status,
        resolution: status === 'Finished' ? 'unsuccessful' : null,
        category: 'NO_RESPONSE',
        subcategory: null,
        outcome: 'No answer',
        retryAt,
        now: at(200),
      });
      const moved = await run((tx) =>
        f.transitions.continueAfterTexts(tx, [
          next(a, 'Scheduled', at(600)),
          next(b, 'Finished', null),
          next(c, 'Finished', null),
        ]),
      );
      expect(moved.map((t) => [t.id, t.status]).sort()).toEqual(
        [
          [a, 'Scheduled'],
          [b, 'Finished'],
        ].sort(),
      );
      expect(await find(a)).toMatchObject({ status: 'Scheduled', scheduledTime: at(600) });
      expect(await find(b)).toMatchObject({ status: 'Finished', resolution: 'unsuccessful' });
      expect(await find(c)).toMatchObject({ status: 'Scheduled' });
      expect(
        await run((tx) => f.transitions.continueAfterTexts(tx, [next(b, 'Scheduled', null)])),
      ).toEqual([]);
    });

    it('finishAttempts: a batch in one call, each applied once, only for its latest call', async () => {
      const { mine } = await f.scope();
      const org = mine.organizationId;
      const [a, b, c, d] = [nextId(), nextId(), nextId(), nextId()];
      await seed(mine, [
        { id: a, status: 'In Progress', attempts: 1, callLogIds: [21] },
        {
          id: b,
          status: 'Post-processing',
          attempts: 2,
          callLogIds: [22, 23],
          executionSeconds: 4,
        },
        { id: c, status: 'In Progress', attempts: 2, callLogIds: [24, 25] },
        { id: d, status: 'Finished', attempts: 1, callLogIds: [26] },
      ]);
      const finished = await run((tx) =>
        f.transitions.finishAttempts(tx, [
          { ...outcome(21), organizationId: org, targetId: a },
          {
            ...outcome(23, { status: 'Scheduled', retryAt: at(900), durationSeconds: 6 }),
            organizationId: org,
            targetId: b,
          },
          { ...outcome(21, { status: 'Failed' }), organizationId: org, targetId: a },
          { ...outcome(24), organizationId: org, targetId: c },
          { ...outcome(26), organizationId: org, targetId: d },
        ]),
      );
      expect(finished.map((t) => [t.id, t.status]).sort()).toEqual(
        [
          [a, 'Finished'],
          [b, 'Scheduled'],
        ].sort(),
      );
      expect(await find(a)).toMatchObject({
        status: 'Finished',
        executionSeconds: 65,
        statistics: { attempts: 1, last_call_log_id: 21, last_call_outcome: 'GOOD' },
      });
      expect(await find(b)).toMatchObject({
        status: 'Scheduled',
        scheduledTime: at(900),
        executionSeconds: 10,
        callStartedAt: null,
      });
      expect(await find(c)).toMatchObject({ status: 'In Progress' });
      expect(await find(d)).toMatchObject({ status: 'Finished' });
      expect(await run((tx) => f.transitions.finishAttempts(tx, []))).toEqual([]);
    });

    it('finishWithoutCall only from Scheduled', async () => {
      const { mine } = await f.scope();
      const org = mine.organizationId;
      const [a, b] = [nextId(), nextId()];
      await seed(mine, [
        { id: a, status: 'Scheduled', scheduledTime: T0 },
        { id: b, status: 'In Progress', callLogIds: [1], attempts: 1 },
      ]);
      const decision = blacklisted('Finished');
      expect(
        await run((tx) => f.transitions.finishWithoutCall(tx, org, a, decision, T0)),
      ).toMatchObject({
        status: 'Finished',
        category: 'BLACKLISTED_PHONE',
      });
      expect(
        await run((tx) => f.transitions.finishWithoutCall(tx, org, b, decision, T0)),
      ).toBeNull();
      expect(
        await run((tx) => f.transitions.finishWithoutCall(tx, org, a, decision, T0)),
      ).toBeNull();
    });
    it('review: only To review, of the organization, once; done keeps the outcome, requeue is due now', async () => {
      const { mine, foreign } = await f.scope();
      const org = mine.organizationId;
      const [done, requeued, calling, theirs] = [nextId(), nextId(), nextId(), nextId()];
      const reviewed = { status: 'To review' as const, attempts: 3, callLogIds: [7, 8, 9] };
      const decided = {
        category: 'HUMAN_ONLY',
        resolution: 'unsuccessful',
        outcome: 'Asked for a person',
      };
      await seed(mine, [
        { id: done, ...reviewed, ...decided, scheduledTime: at(-60) },
        { id: requeued, ...reviewed, ...decided },
        { id: calling, status: 'In Progress', callLogIds: [1], attempts: 1 },
      ]);
      await seed(foreign, [{ id: theirs, ...reviewed }]);
      const review = (
        targetId: string,
        action: 'done' | 'requeue',
        organizationId = mine.organizationId,
      ) => run((tx) => f.transitions.review(tx, { organizationId, targetId, action, now: at(50) }));

      expect(await review(done, 'done')).toMatchObject({
        status: 'Finished',
        ...decided,
        attempts: 3,
        scheduledTime: at(-60),
        statistics: { review: { action: 'done', at: at(50).toISOString() } },
        updatedAt: at(50),
      });
      expect(await review(done, 'requeue')).toBeNull();
      expect(await review(calling, 'done')).toBeNull();
      expect(await review(theirs, 'done')).toBeNull();
      expect(await review(theirs, 'done', foreign.organizationId)).toMatchObject({
        status: 'Finished',
      });

      expect(await review(requeued, 'requeue')).toMatchObject({
        status: 'Scheduled',
        scheduledTime: at(50),
        attempts: 3,
        statistics: { review: { action: 'requeue', at: at(50).toISOString() } },
      });
      expect(await find(calling)).toMatchObject({ status: 'In Progress' });
      expect(await f.transitions.dueCampaigns(at(50), 1000, [])).toContain(mine.campaignId);
      // The extra attempt's outcome keeps the record of the review.
      await run((tx) =>
        f.transitions.startCalls(tx, org, [{ targetId: requeued, callLogId: 10 }], at(60)),
      );
      const after = await run((tx) => f.transitions.finishAttempt(tx, org, requeued, outcome(10)));
      expect(after?.statistics).toMatchObject({
        attempts: 4,
        last_call_log_id: 10,
        review: { action: 'requeue', at: at(50).toISOString() },
      });
    });

    it('one id in two organizations: each method changes the named organization’s target only', async () => {
      const { mine, foreign } = await f.scope();
      const x = nextId();
      const due = { id: x, status: 'Scheduled' as const, scheduledTime: at(-1) };
      await f.seed(mine, [due]);
      await f.seed(foreign, [due]);
      const get = (scope: WaitingScope) => f.transitions.findById(null, scope.organizationId, x);
      await run(async (tx) => {
        const locked = await f.transitions.lockDue(tx, mine.organizationId, [x], T0);
        expect(locked.map((t) => [t.id, t.organizationId])).toEqual([[x, mine.organizationId]]);
        expect(
          await f.transitions.defer(
            tx,
            mine.organizationId,
            [{ targetId: x, until: at(60), hold: null }],
            T0,
          ),
        ).toEqual([x]);
        const started = await f.transitions.startCalls(
          tx,
          foreign.organizationId,
          [{ targetId: x, callLogId: 501 }],
          T0,
        );
        expect(started.map((t) => t.organizationId)).toEqual([foreign.organizationId]);
      });
      expect(await get(mine)).toMatchObject({ status: 'Scheduled', scheduledTime: at(60) });
      expect(await get(foreign)).toMatchObject({ status: 'In Progress', scheduledTime: at(-1) });

      // The other organization's id with this call log changes nothing; its own finishes.
      expect(
        await run((tx) =>
          f.transitions.finishAttempts(tx, [
            { ...outcome(501), organizationId: mine.organizationId, targetId: x },
          ]),
        ),
      ).toEqual([]);
      const finished = await run((tx) =>
        f.transitions.finishAttempt(tx, foreign.organizationId, x, outcome(501)),
      );
      expect(finished).toMatchObject({
        organizationId: foreign.organizationId,
        status: 'Finished',
      });
      const decision = blacklisted('Failed');
      expect(
        await run((tx) =>
          f.transitions.finishWithoutCall(tx, foreign.organizationId, x, decision, T0),
        ),
      ).toBeNull();
      expect(
        await run((tx) =>
          f.transitions.finishWithoutCall(tx, mine.organizationId, x, decision, T0),
        ),
      ).toMatchObject({ organizationId: mine.organizationId, status: 'Failed' });
      expect(await get(mine)).toMatchObject({ status: 'Failed', callLogIds: null });
      expect(await get(foreign)).toMatchObject({ status: 'Finished', callLogIds: [501] });
    });

    it('trigger by ids in one campaign leaves the other organization’s target of that id alone', async () => {
      const { mine, foreign } = await f.scope();
      const x = nextId();
      await f.seed(mine, [{ id: x }]);
      await f.seed(foreign, [{ id: x }]);
      const claim = await run((tx) =>
        f.transitions.claimForTrigger(tx, mine.campaignId, { targetIds: [x] }, T0),
      );
      expect(claim).toEqual({ scheduled: [x], notFound: [], notPending: [] });
      expect(await f.transitions.findById(null, mine.organizationId, x)).toMatchObject({
        status: 'Scheduled',
      });
      expect(await f.transitions.findById(null, foreign.organizationId, x)).toMatchObject({
        status: 'Pending',
      });
      const byCount = await run((tx) =>
        f.transitions.claimForTrigger(tx, foreign.campaignId, { count: 5, oldestFirst: true }, T0),
      );
      expect(byCount.scheduled).toEqual([x]);
      expect(await f.transitions.findById(null, foreign.organizationId, x)).toMatchObject({
        status: 'Scheduled',
      });
    });

    it('cancelOpen ends the campaign’s Pending, Scheduled and Waiting targets only', async () => {
      const { mine, foreign } = await f.scope();
      const [p, sc, w, busy, done, other] = [
        nextId(),
        nextId(),
        nextId(),
        nextId(),
        nextId(),
        nextId(),
      ];
      await seed(mine, [
        { id: p },
        { id: sc, status: 'Scheduled', scheduledTime: at(3600) },
        { id: w, status: 'Waiting', currentStep: 'labs' },
        { id: busy, status: 'In Progress', callLogIds: [1], attempts: 1 },
        { id: done, status: 'Finished', outcome: 'Call completed' },
      ]);
      await seed(foreign, [{ id: other }]);
      const decision = {
        status: 'Finished' as const,
        resolution: 'unsuccessful',
        category: null,
        subcategory: null,
        outcome: 'Campaign cancelled',
        retryAt: null,
      };
      const ended = await run((tx) => f.transitions.cancelOpen(tx, mine.campaignId, decision, T0));
      expect(ended.map((t) => t.id).sort()).toEqual([p, sc, w].sort());
      for (const id of [p, sc, w]) {
        expect(await find(id)).toMatchObject({
          status: 'Finished',
          resolution: 'unsuccessful',
          outcome: 'Campaign cancelled',
          currentStep: null,
        });
      }
      expect(await find(busy)).toMatchObject({ status: 'In Progress' });
      expect(await find(done)).toMatchObject({ outcome: 'Call completed' });
      expect(await find(other)).toMatchObject({ status: 'Pending' });
    });

    it('countCampaign: exact counts by status, category and resolution, due now and later', async () => {
      const { mine, foreign } = await f.scope();
      await seed(mine, [
        { id: nextId() },
        { id: nextId(), status: 'Scheduled', scheduledTime: at(-10) },
        { id: nextId(), status: 'Scheduled', scheduledTime: at(600), attempts: 1 },
        { id: nextId(), status: 'Scheduled', scheduledTime: at(60), attempts: 1 },
        // In the current minute, on either side of now (the SQL adapter reads these from the index).
        { id: nextId(), status: 'Scheduled', scheduledTime: T0 },
        { id: nextId(), status: 'Scheduled', scheduledTime: at(30) },
        { id: nextId(), status: 'In Progress', callLogIds: [1], attempts: 2 },
        {
          id: nextId(),
          status: 'Finished',
          category: 'GOOD',
          resolution: 'successful',
          attempts: 1,
        },
        {
          id: nextId(),
          status: 'Failed',
          category: 'GOOD',
          resolution: 'unsuccessful',
          attempts: 3,
        },
      ]);
      await seed(foreign, [{ id: nextId(), status: 'Scheduled', scheduledTime: at(-10) }]);
      expect(await f.transitions.countCampaign(mine.campaignId, T0)).toEqual({
        total: 9,
        byStatus: { Pending: 1, Scheduled: 5, 'In Progress': 1, Finished: 1, Failed: 1 },
        byCategory: { GOOD: 2 },
        byResolution: { successful: 1, unsuccessful: 1 },
        inFlight: 1,
        dueNow: 2,
        dueLater: 3,
        nextScheduledAt: at(30),
        heldByRule: {},
        heldUntil: [],
        lastScheduledAt: at(600),
      });
    });

    it('keeps the rule a deferral names until a call starts, and counts the targets each rule holds', async () => {
      const { mine } = await f.scope();
      const org = mine.organizationId;
      const [quiet, capped, window] = [nextId(), nextId(), nextId()];
      await seed(mine, [
        { id: quiet, status: 'Scheduled', scheduledTime: at(-1) },
        { id: capped, status: 'Scheduled', scheduledTime: at(-1) },
        { id: window, status: 'Scheduled', scheduledTime: at(-1) },
      ]);
      const hold = {
        rule: 'quiet_hours',
        reason: 'quiet hours: 06:12 in America/Chicago, calls from 08:00',
      };
      const deferredAt = at(7);
      await run((tx) =>
        f.transitions.defer(
          tx,
          org,
          [
            { targetId: quiet, until: at(3600), hold },
            {
              targetId: capped,
              until: at(61),
              hold: { rule: 'organization_limit', reason: 'cap' },
            },
            { targetId: window, until: at(60), hold: null },
          ],
          deferredAt,
        ),
      );
      expect(await find(quiet)).toMatchObject({
        hold,
        scheduledTime: at(3600),
        updatedAt: deferredAt,
      });
      expect(await find(window)).toMatchObject({ hold: null, updatedAt: deferredAt });
      const held = await f.transitions.countCampaign(mine.campaignId, T0);
      expect(held.heldByRule).toEqual({ organization_limit: 1, quiet_hours: 1 });
      // By the time each is held to, rounded up to the minute, earliest first.
      expect(held.heldUntil).toEqual([
        { rule: 'organization_limit', until: at(120), targets: 1 },
        { rule: 'quiet_hours', until: at(3600), targets: 1 },
      ]);
      expect(held.lastScheduledAt).toEqual(at(3600));
      // Due again: no rule holds it now, and a started call clears what held it.
      expect((await f.transitions.countCampaign(mine.campaignId, at(120))).heldByRule).toEqual({
        quiet_hours: 1,
      });
      await run(async (tx) => {
        await f.transitions.lockDue(tx, org, [capped], at(120));
        return f.transitions.startCalls(tx, org, [{ targetId: capped, callLogId: 77 }], at(120));
      });
      expect(await find(capped)).toMatchObject({ status: 'In Progress', hold: null });
    });

    // The lifecycle's declaration (src/modules/target/domain/target-lifecycle.ts) is the guard of
    // every implementation: each event, sent to a target of each status, moves it exactly when the
    // declaration allows it, and only to a status it declares. The SQL adapter and the fake both run
    // this, so they agree with each other on every (status, event) pair.
    it('every event moves a target of every status exactly as the lifecycle declares', async () => {
      const step = 'intake';
      const callLogId = 5;
      const send: Record<
        TargetEvent,
        (tx: Tx, scope: WaitingScope, id: string) => Promise<boolean>
      > = {
        trigger: async (tx, s, id) =>
          (
            await f.transitions.claimForTrigger(tx, s.campaignId, { targetIds: [id] }, at(10))
          ).scheduled.includes(id),
        moveWaiting: async (tx, s, id) =>
          (await f.transitions.moveWaiting(tx, s, [id], step, 'Scheduled', at(10))).includes(id),
        defer: async (tx, s, id) =>
          (
            await f.transitions.defer(
              tx,
              s.organizationId,
              [{ targetId: id, until: at(600), hold: null }],
              at(10),
            )
          ).includes(id),
        startCall: async (tx, s, id) =>
          (
            await f.transitions.startCalls(
              tx,
              s.organizationId,
              [{ targetId: id, callLogId: 6 }],
              at(10),
            )
          ).length === 1,
        finishAttempt: async (tx, s, id) =>
          (await f.transitions.finishAttempt(tx, s.organizationId, id, outcome(callLogId))) !==
          null,
        continueAfterText: async (tx, s, id) =>
          (
            await f.transitions.continueAfterTexts(tx, [
              {
                ...blacklisted('Failed'),
                organizationId: s.organizationId,
                targetId: id,
                now: at(10),
              },
            ])
          ).length === 1,
        finishWithoutCall: async (tx, s, id) =>
          (await f.transitions.finishWithoutCall(
            tx,
            s.organizationId,
            id,
            blacklisted('Failed'),
            at(10),
          )) !== null,
        cancel: async (tx, s, id) =>
          (await f.transitions.cancelOpen(tx, s.campaignId, blacklisted('Finished'), at(10))).some(
            (t) => t.id === id,
          ),
        review: async (tx, s, id) =>
          (await f.transitions.review(tx, {
            organizationId: s.organizationId,
            targetId: id,
            action: 'done',
            now: at(10),
          })) !== null,
      };
      const moved: Record<string, string> = {};
      const declared: Record<string, string> = {};
      for (const status of LIFECYCLE_STATUSES) {
        // A campaign per status, a target per event, each one the event's guard could take but for
        // its status: due, waiting at the step, its latest call the one finished.
        const { mine } = await f.scope();
        const ids = TARGET_EVENTS.map(() => nextId());
        await seed(
          mine,
          ids.map((id) => ({
            id,
            status,
            currentStep: step,
            scheduledTime: at(0),
            callLogIds: [callLogId],
          })),
        );
        // Cancel last: it ends every open target of the campaign.
        const order = [...TARGET_EVENTS.filter((e) => e !== 'cancel'), 'cancel' as const];
        for (const event of order) {
          const i = TARGET_EVENTS.indexOf(event);
          const took = await run((tx) => send[event](tx, mine, ids[i]));
          const after = (await find(ids[i]))!.status;
          const rule = TARGET_LIFECYCLE[event];
          moved[`${status} ${event}`] = took ? `→ ${after}` : `stays ${after}`;
          declared[`${status} ${event}`] = allows(event, status)
            ? `→ ${rule.to.includes(after) ? after : `one of ${rule.to.join(', ')}`}`
            : `stays ${status}`;
        }
      }
      expect(moved).toEqual(declared);
    });
  });
}
