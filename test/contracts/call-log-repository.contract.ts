import { Tx, UnitOfWork } from '../../src/common/persistence/unit-of-work.js';
import { CallLogRepository } from '../../src/modules/call-log/application/ports/call-log.repository.js';
import { CallLogCompletion, NewCallLog } from '../../src/modules/call-log/domain/call-log.js';

export interface CallLogContractContext {
  repository: CallLogRepository;
  uow: UnitOfWork;
  /** An organization (and campaign) the logs may belong to; a fresh one per call. */
  newOwner(): Promise<{ organizationId: string; campaignId: string }>;
}

const T0 = new Date('2026-01-05T15:00:00.000Z');
const at = (seconds: number) => new Date(T0.getTime() + seconds * 1000);

/** The rules every CallLogRepository (the SQL adapter and the in-memory fake) must follow. */
export function callLogRepositoryContract(
  name: string,
  context: () => CallLogContractContext,
): void {
  describe(`CallLogRepository contract: ${name}`, () => {
    let c: CallLogContractContext;
    beforeAll(() => {
      c = context();
    });

    const run = <T>(work: (tx: Tx) => Promise<T>) => c.uow.run(work);

    async function newLog(
      owner: { organizationId: string; campaignId: string },
      overrides: Partial<NewCallLog> = {},
    ) {
      const [id] = await run((tx) =>
        c.repository.createMany(tx, [
          {
            ...owner,
            targetId: '00000000-0000-4000-8000-00000000f001',
            attempt: 1,
            to: '+15550101234',
            from: 'DeprecatedLocalTest',
            provider: 'simulated',
            startedAt: T0,
            deadlineAt: at(30),
            ...overrides,
          },
        ]),
      );
      return id;
    }

    const completion: CallLogCompletion = {
      outcome: 'GOOD',
      endedReason: 'assistant-ended-call',
      providerCallId: 'p-1',
      callCategorization: { category: 'GOOD' },
      agentData: { a: 1 },
      postCallData: { summary: 's' },
      qa: { passed: true },
      transcripts: [{ role: 'user', message: 'hi' }],
      recordingUrls: ['https://r/1.wav'],
      outputData: { call_summary: 'confirmed', nested: { a: [1, 2] } },
      subcategory: 'DELIVERED',
      endedAt: at(65),
      durationSeconds: 65,
    };

    it("recentOutcomeShare: counts the campaign's last `window` ended calls by end time, and those with the outcome", async () => {
      const owner = await c.newOwner();
      const other = await c.newOwner();
      const end = async (
        who: { organizationId: string; campaignId: string },
        outcome: string,
        endedAtSecond: number,
      ) => {
        const id = await newLog(who);
        await run((tx) =>
          c.repository.complete(tx, id, { ...completion, outcome, endedAt: at(endedAtSecond) }),
        );
      };
      await newLog(owner); // still open: never counted
      // Ended out of insertion order: the window follows the end time, not the id.
      await end(owner, 'TECHNICAL_FAILURE', 40);
      await end(owner, 'GOOD', 10);
      await end(owner, 'TECHNICAL_FAILURE', 30);
      await end(owner, 'NO_RESPONSE', 20);
      await end(other, 'TECHNICAL_FAILURE', 50); // another campaign's
      const share = (window: number, endedAfter: Date | null = null) =>
        c.repository.recentOutcomeShare(owner.campaignId, window, 'TECHNICAL_FAILURE', endedAfter);

      expect(await share(2)).toEqual({ ended: 2, matching: 2 });
      expect(await share(3)).toEqual({ ended: 3, matching: 2 });
      expect(await share(10)).toEqual({ ended: 4, matching: 2 });
      // Only calls that ended strictly after `endedAfter`.
      expect(await share(10, at(30))).toEqual({ ended: 1, matching: 1 });
      expect(await share(10, at(40))).toEqual({ ended: 0, matching: 0 });
      expect(await c.repository.recentOutcomeShare(owner.campaignId, 10, 'GOOD', null)).toEqual({
        ended: 4,
        matching: 1,
      });
    });

    it('findLatest: an open call first, else the latest started; by id, number or targets, in the organization', async () => {
      const owner = await c.newOwner();
      const other = await c.newOwner();
      const targetA = '00000000-0000-4000-8000-00000000a001';
      const targetB = '00000000-0000-4000-8000-00000000b001';
      const endedEarly = await newLog(owner, { targetId: targetA, startedAt: at(0) });
      const endedLate = await newLog(owner, { targetId: targetA, startedAt: at(60) });
      const open = await newLog(owner, { targetId: targetB, startedAt: at(30) });
      const foreign = await newLog(other, { targetId: targetA, startedAt: at(90) });
      await run((tx) =>
        c.repository.completeMany(tx, [
          { id: endedEarly, completion: { ...completion, endedAt: at(10) } },
          { id: endedLate, completion: { ...completion, endedAt: at(70) } },
        ]),
      );
      const latest = async (lookup: Parameters<CallLogRepository['findLatest']>[1]) =>
        (await c.repository.findLatest(owner.organizationId, lookup))?.id ?? null;

      expect(await latest({ to: '+15550101234' })).toBe(open);
      expect(await latest({ targetIds: [targetA] })).toBe(endedLate);
      expect(await latest({ targetIds: [targetA, targetB] })).toBe(open);
      expect(await latest({ id: endedEarly })).toBe(endedEarly);
      expect(await latest({ id: foreign })).toBeNull();
      expect(await latest({ to: '+15550109999' })).toBeNull();
      expect(await latest({ targetIds: [] })).toBeNull();
      const found = await c.repository.findLatest(owner.organizationId, { id: open });
      expect(found).toEqual(await c.repository.findById(open));
      // Limited to campaigns: only their calls match (null: every campaign).
      const within = async (
        campaignIds: string[] | null,
        lookup: { id: number } | { to: string },
      ) => (await c.repository.findLatest(owner.organizationId, lookup, campaignIds))?.id ?? null;
      expect(await within([owner.campaignId], { to: '+15550101234' })).toBe(open);
      expect(await within(null, { id: endedEarly })).toBe(endedEarly);
      expect(await within([other.campaignId], { to: '+15550101234' })).toBeNull();
      expect(await within([other.campaignId, owner.campaignId], { id: endedLate })).toBe(endedLate);
      expect(await within([other.campaignId], { id: endedLate })).toBeNull();
    });

    it('creates increasing ids and reads a log back as written', async () => {
      const owner = await c.newOwner();
      const a = await newLog(owner);
      const b = await newLog(owner, { attempt: 2, to: '+15550105555' });
      expect(b).toBeGreaterThan(a);
      expect(await c.repository.findById(b)).toEqual({
        id: b,
        ...owner,
        targetId: '00000000-0000-4000-8000-00000000f001',
        attempt: 2,
        to: '+15550105555',
        from: 'DeprecatedLocalTest',
        provider: 'simulated',
        providerCallId: null,
        outcome: null,
        endedReason: null,
        callCategorization: null,
        agentData: {},
        postCallData: null,
        qa: null,
        transcripts: [],
        recordingUrls: [],
        outputData: null,
        subcategory: null,
        startedAt: T0,
        endedAt: null,
        durationSeconds: null,
        deadlineAt: at(30),
        createdAt: T0,
      });
      expect(await c.repository.findById(987654321)).toBeNull();
    });

    it('completes a log once; a second completion is refused', async () => {
      const owner = await c.newOwner();
      const id = await newLog(owner);
      await expect(run((tx) => c.repository.complete(tx, id, completion))).resolves.toBe(true);
      await expect(
        run((tx) => c.repository.complete(tx, id, { ...completion, outcome: 'NO_RESPONSE' })),
      ).resolves.toBe(false);
      expect(await c.repository.findById(id)).toMatchObject({
        outputData: { call_summary: 'confirmed', nested: { a: [1, 2] } },
        subcategory: 'DELIVERED',
        outcome: 'GOOD',
        endedReason: 'assistant-ended-call',
        providerCallId: 'p-1',
        callCategorization: { category: 'GOOD' },
        agentData: { a: 1 },
        postCallData: { summary: 's' },
        qa: { passed: true },
        transcripts: [{ role: 'user', message: 'hi' }],
        recordingUrls: ['https://r/1.wav'],
        endedAt: at(65),
        durationSeconds: 65,
      });
    });

    it('completes many logs in one call: open ones by their first entry, ended ones untouched', async () => {
      const owner = await c.newOwner();
      const [a, b, ended] = [await newLog(owner), await newLog(owner), await newLog(owner)];
      await run((tx) => c.repository.complete(tx, ended, completion));
      const silent = {
        ...completion,
        outcome: 'NO_RESPONSE',
        endedReason: 'customer-did-not-answer',
        providerCallId: null,
        callCategorization: null,
        postCallData: null,
        qa: null,
        transcripts: [],
        recordingUrls: [],
        outputData: null,
        subcategory: null,
        durationSeconds: 0,
      };
      const closed = await run((tx) =>
        c.repository.completeMany(tx, [
          { id: a, completion },
          { id: b, completion: silent },
          { id: a, completion: { ...completion, outcome: 'VOICEMAIL' } },
          { id: ended, completion: silent },
          { id: 987654321, completion },
        ]),
      );
      expect([...closed].sort((x, y) => x - y)).toEqual([a, b]);
      expect(await c.repository.findById(a)).toMatchObject({
        outcome: 'GOOD',
        providerCallId: 'p-1',
        transcripts: [{ role: 'user', message: 'hi' }],
        recordingUrls: ['https://r/1.wav'],
        outputData: { call_summary: 'confirmed', nested: { a: [1, 2] } },
        endedAt: at(65),
        deadlineAt: null,
      });
      expect(await c.repository.findById(b)).toMatchObject({
        outcome: 'NO_RESPONSE',
        endedReason: 'customer-did-not-answer',
        providerCallId: null,
        callCategorization: null,
        postCallData: null,
        qa: null,
        transcripts: [],
        recordingUrls: [],
        outputData: null,
        subcategory: null,
        durationSeconds: 0,
        deadlineAt: null,
      });
      expect(await c.repository.findById(ended)).toMatchObject({ outcome: 'GOOD' });
      expect(await run((tx) => c.repository.completeMany(tx, []))).toEqual([]);
    });

    it('creates a batch in order, one log per target', async () => {
      const owner = await c.newOwner();
      const base = {
        ...owner,
        attempt: 1,
        to: '+15550101234',
        from: 'x',
        provider: 'simulated',
        startedAt: T0,
        deadlineAt: at(30),
      };
      const targets = [
        '00000000-0000-4000-8000-00000000f0a1',
        '00000000-0000-4000-8000-00000000f0a2',
      ];
      const ids = await run((tx) =>
        c.repository.createMany(
          tx,
          targets.map((targetId) => ({ ...base, targetId })),
        ),
      );
      expect((await c.repository.findByIds(ids)).map((l) => [l.id, l.targetId]).sort()).toEqual(
        ids.map((id, i) => [id, targets[i]]).sort(),
      );
    });

    it('records the provider call id once, only while open, and finds the log by it', async () => {
      const owner = await c.newOwner();
      const id = await newLog(owner, { provider: 'contract' });
      const pid = `p-${id}-${Date.now()}`;
      await expect(c.repository.recordProviderCallId(null, id, pid, at(1800))).resolves.toBe(true);
      await expect(c.repository.recordProviderCallId(null, id, 'other', at(1))).resolves.toBe(
        false,
      );
      expect(await c.repository.findById(id)).toMatchObject({
        providerCallId: pid,
        deadlineAt: at(1800),
      });
      expect(
        (await c.repository.findByProviderCallIds('contract', [pid])).map((l) => l.id),
      ).toEqual([id]);
      expect(await c.repository.findByProviderCallIds('elsewhere', [pid])).toEqual([]);
      await run((tx) =>
        c.repository.complete(tx, id, { ...completion, providerCallId: 'ignored' }),
      );
      expect(await c.repository.findById(id)).toMatchObject({
        providerCallId: pid,
        deadlineAt: null,
      });
      const ended = await newLog(owner);
      await run((tx) => c.repository.complete(tx, ended, completion));
      await expect(c.repository.recordProviderCallId(null, ended, 'late', at(1))).resolves.toBe(
        false,
      );
    });

    it('claims open calls past their deadline once, moving the deadline on', async () => {
      const owner = await c.newOwner();
      const overdue = await newLog(owner, { deadlineAt: at(10) });
      const later = await newLog(owner, { deadlineAt: at(100) });
      const ended = await newLog(owner, { deadlineAt: at(10) });
      await run((tx) => c.repository.complete(tx, ended, completion));
      const mine = (logs: { id: number }[]) =>
        logs.map((l) => l.id).filter((id) => [overdue, later, ended].includes(id));
      expect(mine(await c.repository.claimOverdue(at(20), at(80), 1000))).toEqual([overdue]);
      expect(mine(await c.repository.claimOverdue(at(20), at(80), 1000))).toEqual([]);
      expect(await c.repository.findById(overdue)).toMatchObject({ deadlineAt: at(80) });
      expect(mine(await c.repository.claimOverdue(at(90), at(200), 1000))).toEqual([overdue]);
    });

    it('lists an organization’s logs in id order, filtered by campaign and created_at, with the total', async () => {
      const owner = await c.newOwner();
      const other = await c.newOwner();
      const ids = [
        await newLog(owner, { startedAt: at(0) }),
        await newLog(owner, { startedAt: at(3600) }),
        await newLog({ ...owner, campaignId: other.campaignId }, { startedAt: at(7200) }),
      ];
      await newLog(other);
      const page = await c.repository.list({ organizationId: owner.organizationId }, 0, 2);
      expect(page.total).toBe(3);
      expect(page.items.map((l) => l.id)).toEqual(ids.slice(0, 2));
      const rest = await c.repository.list({ organizationId: owner.organizationId }, 2, 2);
      expect(rest.items.map((l) => l.id)).toEqual([ids[2]]);
      const campaign = await c.repository.list(
        { organizationId: owner.organizationId, campaignId: owner.campaignId },
        0,
        10,
      );
      expect(campaign.items.map((l) => l.id)).toEqual(ids.slice(0, 2));
      const window = await c.repository.list(
        { organizationId: owner.organizationId, from: at(3600), to: at(7200) },
        0,
        10,
      );
      expect(window).toMatchObject({ total: 2 });
      expect(window.items.map((l) => l.id)).toEqual(ids.slice(1));
    });
    it('countCampaign: calls, open, ended, connected, their mean length and recent starts', async () => {
      const owner = await c.newOwner();
      const other = await c.newOwner();
      const good = await newLog(owner);
      const human = await newLog(owner, { startedAt: at(-3600) });
      const silent = await newLog(owner);
      await newLog(owner); // still open
      await newLog(other);
      await run((tx) => c.repository.complete(tx, good, { ...completion, durationSeconds: 60 }));
      await run((tx) =>
        c.repository.complete(tx, human, {
          ...completion,
          outcome: 'HUMAN_ONLY',
          durationSeconds: 31,
        }),
      );
      await run((tx) =>
        c.repository.complete(tx, silent, {
          ...completion,
          outcome: 'NO_RESPONSE',
          durationSeconds: 0,
        }),
      );
      expect(
        await c.repository.countCampaign(owner.campaignId, ['GOOD', 'HUMAN_ONLY'], at(-60)),
      ).toEqual({
        calls: 4,
        open: 1,
        ended: 3,
        connected: 2,
        averageConnectedSeconds: 45.5,
        startedSince: 3,
      });
    });
  });
}
