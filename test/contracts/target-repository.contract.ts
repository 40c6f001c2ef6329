import { randomUUID } from 'crypto';
import { ConflictError } from '../../src/common/errors/domain-errors.js';
import { UnitOfWork } from '../../src/common/persistence/unit-of-work.js';
import { CreationPosition } from '../../src/common/paging/paging.js';
import { TargetRepository } from '../../src/modules/target/application/ports/target.repository.js';
import { NewTarget } from '../../src/modules/target/domain/new-targets.js';
import { absentFields } from '../../src/modules/target/domain/target-fields.js';
import { Target } from '../../src/modules/target/domain/target.js';

export type TargetState = Partial<
  Pick<Target, 'status' | 'attempts' | 'callLogIds' | 'lastCallDate' | 'createdAt'>
>;

export interface TargetRepositoryHarness {
  repository: TargetRepository;
  unitOfWork: UnitOfWork;
  /** A fresh organization with two campaigns (rows the foreign keys need, for a database). */
  tenant(): Promise<{ organizationId: string; campaignId: string; otherCampaignId: string }>;
  /** What the calling engine would change. */
  setState(id: string, state: TargetState): Promise<void>;
}

const NOW = new Date('2026-02-03T10:00:00.000Z');

function newTarget(
  owner: { organizationId: string; campaignId: string },
  overrides: Partial<NewTarget> = {},
): NewTarget {
  return {
    id: randomUUID(),
    organizationId: owner.organizationId,
    campaignId: owner.campaignId,
    externalId: null,
    phoneNumber: '+15550100001',
    phoneOperatingHours: null,
    fallbackPhoneNumber: null,
    fallbackOperatingHours: null,
    patient: null,
    ...absentFields(),
    status: 'Pending',
    currentStep: null,
    scheduledTime: null,
    ...overrides,
  };
}

/** The fields a new target sets, as read back. */
const pick = (t: NewTarget | Target) => ({
  id: t.id,
  organizationId: t.organizationId,
  campaignId: t.campaignId,
  externalId: t.externalId,
  phoneNumber: t.phoneNumber,
  patient: t.patient,
  preCallData: t.preCallData,
  inputData: t.inputData,
  status: t.status,
  currentStep: t.currentStep,
});

/** One suite, run against the in-memory fake and the TypeORM adapter: they must agree. */
export function targetRepositoryContract(
  name: string,
  harness: () => TargetRepositoryHarness,
): void {
  describe(`TargetRepository contract: ${name}`, () => {
    let h: TargetRepositoryHarness;
    beforeAll(() => {
      h = harness();
    });

    const insert = (targets: NewTarget[], skipTakenExternalIds = true, now = NOW) =>
      h.unitOfWork.run((tx) => h.repository.insertMany(tx, targets, { now, skipTakenExternalIds }));

    it('finds the awaiting targets that lack each input or patient field, counted, the first ones by creation', async () => {
      const mine = await h.tenant();
      const data = [
        { patient: { first_name: 'Ada' }, day: 'Tue' },
        { patient: { first_name: null }, day: 3 },
        { patient: 'Ada', day: true },
        { day: { nested: 1 } },
        {},
      ];
      // The patient fields (a template's {{patient.<field>}}) of the first two only.
      const rows = data.map((inputData, i) =>
        newTarget(mine, { inputData, patient: i < 2 ? { first_name: `Patient ${i}` } : null }),
      );
      // One batch lists in request order.
      await insert(rows);
      const [a, b, c, d, e] = rows.map((r) => r.id);
      await h.setState(e, { status: 'Finished' });
      await insert([newTarget({ ...mine, campaignId: mine.otherCampaignId })]);

      const found = await h.repository.findLackingInput(
        mine.organizationId,
        mine.campaignId,
        [
          ['input_data', 'patient', 'first_name'],
          ['input_data', 'day'],
          ['input_data', 'never'],
          ['patient', 'first_name'],
        ],
        2,
      );
      expect(found).toEqual({
        awaiting: 4,
        gaps: [
          { lacking: 3, targetIds: [b, c] },
          { lacking: 1, targetIds: [d] },
          { lacking: 4, targetIds: [a, b] },
          { lacking: 2, targetIds: [c, d] },
        ],
      });
      expect(
        await h.repository.findLackingInput(mine.organizationId, mine.campaignId, [], 2),
      ).toEqual({ awaiting: 4, gaps: [] });
      const other = await h.tenant();
      expect(
        await h.repository.findLackingInput(
          other.organizationId,
          mine.campaignId,
          [['input_data', 'day']],
          2,
        ),
      ).toEqual({ awaiting: 0, gaps: [{ lacking: 0, targetIds: [] }] });
    });

    it('finds targets by an input value as text, the most recently called first', async () => {
      const mine = await h.tenant();
      const other = await h.tenant();
      const rows = [
        newTarget(mine, { inputData: { patient: { mrn: 'M-1' } } }),
        newTarget(mine, { inputData: { patient: { mrn: 'M-1' } } }),
        newTarget(
          { ...mine, campaignId: mine.otherCampaignId },
          { inputData: { patient: { mrn: 'M-1' } } },
        ),
        newTarget(mine, { inputData: { patient: { mrn: { v: 'M-1' } }, n: 42, ok: true } }),
        newTarget(other, { inputData: { patient: { mrn: 'M-1' } } }),
      ];
      await insert(rows.slice(0, 4));
      await insert([rows[4]]);
      const [never, older, called] = rows.map((r) => r.id);
      await h.setState(older, { lastCallDate: new Date('2026-02-01T00:00:00.000Z') });
      await h.setState(called, { lastCallDate: new Date('2026-02-02T00:00:00.000Z') });

      const byMrn = (limit: number) =>
        h.repository.findIdsByInputValue(mine.organizationId, ['patient', 'mrn'], 'M-1', limit);
      expect(await byMrn(10)).toEqual([called, older, never]);
      expect(await byMrn(1)).toEqual([called]);
      expect(await h.repository.findIdsByInputValue(mine.organizationId, ['n'], '42', 10)).toEqual([
        rows[3].id,
      ]);
      expect(
        await h.repository.findIdsByInputValue(mine.organizationId, ['ok'], 'true', 10),
      ).toEqual([rows[3].id]);
      expect(
        await h.repository.findIdsByInputValue(mine.organizationId, ['patient'], 'M-1', 10),
      ).toEqual([]);
      // Limited to campaigns: only their targets, the limit counting those alone.
      const within = (campaignIds: string[], limit = 10) =>
        h.repository.findIdsByInputValue(
          mine.organizationId,
          ['patient', 'mrn'],
          'M-1',
          limit,
          campaignIds,
        );
      expect(await within([mine.campaignId])).toEqual([older, never]);
      expect(await within([mine.campaignId], 1)).toEqual([older]);
      expect(await within([mine.otherCampaignId])).toEqual([called]);
      expect(await within([other.campaignId])).toEqual([]);
    });

    it('stores every field and reads it back, scoped by organization', async () => {
      const owner = await h.tenant();
      const row = newTarget(owner, {
        externalId: 'EXT-1',
        phoneNumber: '+15550100001',
        phoneOperatingHours: { monday: [{ start: '09:00', end: '17:00' }], tz: 'US/Eastern' },
        fallbackPhoneNumber: '+15550100002',
        fallbackOperatingHours: { tz: 'Europe/Paris' },
        patient: {
          first_name: 'Ada',
          last_name: 'Lovelace',
          date_of_birth: '1815-12-10',
          external_id: 'P-1',
          extra_data: { a: [1] },
        },
        preCallData: { note: 'hi' },
        inputData: { appointment: { date: '2026-04-01' }, n: 1.5, list: [true, null] },
        status: 'Scheduled',
        currentStep: null,
        scheduledTime: NOW,
      });
      expect(await insert([row])).toEqual([row.id]);
      const expected: Target = {
        ...row,
        purgedAt: null,
        purgedParts: [],
        hold: null,
        outputData: {},
        resolution: null,
        category: null,
        subcategory: null,
        outcome: null,
        callLogIds: null,
        lastCallDate: null,
        executionSeconds: null,
        faxLinks: null,
        payorApiData: null,
        preCallEhrIds: null,
        attempts: 0,
        retries: null,
        callStartedAt: null,
        categorization: null,
        statistics: null,
        createdAt: NOW,
        updatedAt: NOW,
      };
      expect(await h.repository.findById(owner.organizationId, row.id)).toEqual(expected);
      const stranger = await h.tenant();
      expect(await h.repository.findById(stranger.organizationId, row.id)).toBeNull();
      expect(await h.repository.findById(owner.organizationId, randomUUID())).toBeNull();
    });

    it('lists a batch in request order, and across batches by creation time', async () => {
      const owner = await h.tenant();
      const first = Array.from({ length: 5 }, (_, i) =>
        newTarget(owner, { phoneNumber: `+1555010000${i}` }),
      );
      await insert(first);
      const second = [newTarget(owner)];
      await insert(second, true, new Date(NOW.getTime() + 1));
      const page = await h.repository.list(
        owner.organizationId,
        owner.campaignId,
        {},
        { offset: 0, limit: 100 },
      );
      expect(page.targets.map((t) => t.id)).toEqual([...first, ...second].map((t) => t.id));
      expect(page.total).toBe(6);
    });

    it('puts each target of one batch in its own campaign, with its own fields', async () => {
      const owner = await h.tenant();
      const other = { organizationId: owner.organizationId, campaignId: owner.otherCampaignId };
      const batch = [
        newTarget(owner, { externalId: 'A-1', patient: { first_name: 'Ada' } }),
        newTarget(other, { externalId: 'B-1', currentStep: 'intake', status: 'Scheduled' }),
        newTarget(owner, { preCallData: { note: null }, inputData: { n: null } }),
      ];
      expect(await insert(batch)).toEqual(batch.map((t) => t.id));
      const read = await Promise.all(
        batch.map((t) => h.repository.findById(owner.organizationId, t.id)),
      );
      expect(read.map((t) => t && pick(t))).toEqual(batch.map(pick));
    });

    it('refuses an id that exists, and inserts nothing of that batch', async () => {
      const owner = await h.tenant();
      const existing = newTarget(owner);
      await insert([existing]);
      const fresh = newTarget(owner);
      await expect(insert([fresh, newTarget(owner, { id: existing.id })])).rejects.toBeInstanceOf(
        ConflictError,
      );
      expect(await h.repository.findById(owner.organizationId, fresh.id)).toBeNull();
      expect(
        await h.repository.findExistingIds(null, owner.organizationId, [existing.id, fresh.id]),
      ).toEqual(new Set([existing.id]));
    });

    it('ids are unique per organization: another organization may use one, and never sees it', async () => {
      const a = await h.tenant();
      const b = await h.tenant();
      const shared = newTarget(a, { inputData: { who: 'a' } });
      await insert([shared]);
      // Another organization's target of this id is not looked at, so it is not "existing" for b.
      expect(await h.repository.findExistingIds(null, b.organizationId, [shared.id])).toEqual(
        new Set(),
      );
      expect(
        await insert([
          newTarget(b, { id: shared.id, phoneNumber: '+15550100002', inputData: { who: 'b' } }),
        ]),
      ).toEqual([shared.id]);
      expect(await h.repository.findExistingIds(null, b.organizationId, [shared.id])).toEqual(
        new Set([shared.id]),
      );
      await expect(insert([newTarget(b, { id: shared.id })])).rejects.toBeInstanceOf(ConflictError);
      expect(await h.repository.findById(a.organizationId, shared.id)).toMatchObject({
        organizationId: a.organizationId,
        phoneNumber: '+15550100001',
        inputData: { who: 'a' },
      });
      expect(await h.repository.findById(b.organizationId, shared.id)).toMatchObject({
        organizationId: b.organizationId,
        phoneNumber: '+15550100002',
        inputData: { who: 'b' },
      });

      const merged = await h.repository.mergeInputData(
        b.organizationId,
        shared.id,
        { edited: true },
        { onlyIfNotStarted: false, now: NOW },
      );
      expect(merged?.inputData).toEqual({ who: 'b', edited: true });
      expect((await h.repository.findById(a.organizationId, shared.id))?.inputData).toEqual({
        who: 'a',
      });

      expect(
        await h.repository.deleteUnlessInFlight(a.organizationId, a.campaignId, [shared.id], NOW),
      ).toEqual({ deleted: [shared.id], inFlight: [] });
      expect(await h.repository.findById(a.organizationId, shared.id)).toBeNull();
      expect(await h.repository.findById(b.organizationId, shared.id)).toMatchObject({
        organizationId: b.organizationId,
      });
    });

    it('skips taken external ids when asked, else refuses the whole batch', async () => {
      const owner = await h.tenant();
      await insert([newTarget(owner, { externalId: 'A' })]);
      const b1 = newTarget(owner, { externalId: 'B' });
      const b2 = newTarget(owner, { externalId: 'B' });
      const a = newTarget(owner, { externalId: 'A' });
      const none1 = newTarget(owner);
      const none2 = newTarget(owner);
      expect(new Set(await insert([a, b1, b2, none1, none2], true))).toEqual(
        new Set([b1.id, none1.id, none2.id]),
      );

      const c = newTarget(owner, { externalId: 'C' });
      await expect(
        insert([c, newTarget(owner, { externalId: 'A' })], false),
      ).rejects.toBeInstanceOf(ConflictError);
      expect(await h.repository.findById(owner.organizationId, c.id)).toBeNull();
      expect(
        await h.repository.findExistingExternalIds(null, owner.campaignId, ['A', 'B', 'C']),
      ).toEqual(new Set(['A', 'B']));
    });

    it('external ids are unique per campaign only', async () => {
      const owner = await h.tenant();
      const here = newTarget(owner, { externalId: 'X' });
      const there = newTarget({ ...owner, campaignId: owner.otherCampaignId }, { externalId: 'X' });
      expect(await insert([here])).toEqual([here.id]);
      expect(await insert([there], false)).toEqual([there.id]);
      expect(
        await h.repository.findExistingExternalIds(null, owner.otherCampaignId, ['X', 'Y']),
      ).toEqual(new Set(['X']));
    });

    it('rolls back an insert with the unit of work', async () => {
      const owner = await h.tenant();
      const row = newTarget(owner);
      await expect(
        h.unitOfWork.run(async (tx) => {
          await h.repository.insertMany(tx, [row], { now: NOW, skipTakenExternalIds: true });
          throw new Error('later step failed');
        }),
      ).rejects.toThrow('later step failed');
      expect(await h.repository.findById(owner.organizationId, row.id)).toBeNull();
    });

    describe('mergeInputData', () => {
      it('merges one level deep and stamps updated_at', async () => {
        const owner = await h.tenant();
        const row = newTarget(owner, { inputData: { a: 1, nested: { x: 1, y: 1 } } });
        await insert([row]);
        const later = new Date(NOW.getTime() + 60_000);
        const updated = await h.repository.mergeInputData(
          owner.organizationId,
          row.id,
          { b: 2, nested: { x: 2 } },
          {
            onlyIfNotStarted: true,
            now: later,
          },
        );
        expect(updated).toMatchObject({
          id: row.id,
          inputData: { a: 1, b: 2, nested: { x: 2 } },
          updatedAt: later,
        });
        expect((await h.repository.findById(owner.organizationId, row.id))?.inputData).toEqual({
          a: 1,
          b: 2,
          nested: { x: 2 },
        });
      });

      it.each<[string, TargetState, boolean]>([
        ['Pending', { status: 'Pending' }, true],
        ['Scheduled without calls', { status: 'Scheduled' }, true],
        ['Scheduled after an attempt', { status: 'Scheduled', attempts: 1 }, false],
        ['Pending with a call log', { status: 'Pending', callLogIds: [12] }, false],
        ['Waiting', { status: 'Waiting' }, false],
        ['In Progress', { status: 'In Progress', attempts: 1 }, false],
        ['To review', { status: 'To review', attempts: 1 }, false],
      ])('guards a %s target', async (_label, state, editable) => {
        const owner = await h.tenant();
        const row = newTarget(owner, { inputData: { a: 1 } });
        await insert([row]);
        await h.setState(row.id, state);
        const guarded = await h.repository.mergeInputData(
          owner.organizationId,
          row.id,
          { a: 2 },
          {
            onlyIfNotStarted: true,
            now: NOW,
          },
        );
        expect(guarded === null).toBe(!editable);
        const forced = await h.repository.mergeInputData(
          owner.organizationId,
          row.id,
          { c: 3 },
          {
            onlyIfNotStarted: false,
            now: NOW,
          },
        );
        expect(forced?.inputData).toEqual({ a: editable ? 2 : 1, c: 3 });
      });

      it("does not touch another organization's target", async () => {
        const owner = await h.tenant();
        const stranger = await h.tenant();
        const row = newTarget(owner, { inputData: { a: 1 } });
        await insert([row]);
        expect(
          await h.repository.mergeInputData(
            stranger.organizationId,
            row.id,
            { a: 2 },
            { onlyIfNotStarted: false, now: NOW },
          ),
        ).toBeNull();
        expect((await h.repository.findById(owner.organizationId, row.id))?.inputData).toEqual({
          a: 1,
        });
      });
    });

    it('deletes targets of the campaign that are not in flight', async () => {
      const owner = await h.tenant();
      const stranger = await h.tenant();
      const [idle, calling, processing, done] = [
        newTarget(owner),
        newTarget(owner),
        newTarget(owner),
        newTarget(owner),
      ];
      const elsewhere = newTarget({ ...owner, campaignId: owner.otherCampaignId });
      await insert([idle, calling, processing, done, elsewhere]);
      await h.setState(calling.id, { status: 'In Progress', attempts: 1 });
      await h.setState(processing.id, { status: 'Post-processing', attempts: 1 });
      await h.setState(done.id, { status: 'Finished', attempts: 1 });

      const ids = [idle, calling, processing, done, elsewhere].map((t) => t.id);
      expect(
        await h.repository.deleteUnlessInFlight(
          stranger.organizationId,
          owner.campaignId,
          ids,
          NOW,
        ),
      ).toEqual({
        deleted: [],
        inFlight: [],
      });
      const outcome = await h.repository.deleteUnlessInFlight(
        owner.organizationId,
        owner.campaignId,
        [...ids, randomUUID()],
        NOW,
      );
      expect(new Set(outcome.deleted)).toEqual(new Set([idle.id, done.id]));
      expect(new Set(outcome.inFlight)).toEqual(new Set([calling.id, processing.id]));
      expect(await h.repository.findById(owner.organizationId, idle.id)).toBeNull();
      expect(await h.repository.findById(owner.organizationId, calling.id)).not.toBeNull();
      expect(await h.repository.findById(owner.organizationId, elsewhere.id)).not.toBeNull();
    });

    it('withdraws added targets of the campaign that are not in flight', async () => {
      const owner = await h.tenant();
      const stranger = await h.tenant();
      const [idle, calling, elsewhere] = [
        newTarget(owner, { externalId: 'A' }),
        newTarget(owner, { externalId: 'B' }),
        newTarget({ ...owner, campaignId: owner.otherCampaignId }),
      ];
      await insert([idle, calling, elsewhere]);
      await h.setState(calling.id, { status: 'In Progress', attempts: 1 });
      const ids = [idle, calling, elsewhere].map((t) => t.id);
      const withdraw = (organizationId: string) =>
        h.unitOfWork.run((tx) =>
          h.repository.withdrawAdded(tx, organizationId, owner.campaignId, [...ids, randomUUID()]),
        );
      expect(await withdraw(stranger.organizationId)).toEqual([]);
      expect(await withdraw(owner.organizationId)).toEqual([idle.id]);
      expect(await h.repository.findById(owner.organizationId, idle.id)).toBeNull();
      expect(await h.repository.findById(owner.organizationId, calling.id)).not.toBeNull();
      expect(await h.repository.findById(owner.organizationId, elsewhere.id)).not.toBeNull();
      // Its external id is free again.
      expect(
        await h.repository.findExistingExternalIds(null, owner.campaignId, ['A', 'B']),
      ).toEqual(new Set(['B']));
    });

    it('lists the one target with an external id, counted exactly', async () => {
      const owner = await h.tenant();
      const rows = ['PAT-1', 'PAT-2', 'PAT-3'].map((externalId) =>
        newTarget(owner, { externalId }),
      );
      await insert(rows);
      await insert([
        newTarget({ ...owner, campaignId: owner.otherCampaignId }, { externalId: 'PAT-2' }),
      ]);
      const list = (filter: object) =>
        h.repository.list(owner.organizationId, owner.campaignId, filter, { offset: 0, limit: 10 });
      const found = await list({ externalId: 'PAT-2' });
      expect({ ids: found.targets.map((t) => t.id), total: found.total }).toEqual({
        ids: [rows[1].id],
        total: 1,
      });
      expect((await list({ externalId: 'PAT-2', status: 'Finished' })).total).toBe(0);
      expect(await list({ externalId: 'nobody' })).toMatchObject({ targets: [], total: 0 });
    });

    it('lists with every filter inclusive, pages and counts', async () => {
      const owner = await h.tenant();
      const rows = Array.from({ length: 5 }, () => newTarget(owner));
      await insert(rows);
      const at = (iso: string) => new Date(iso);
      await h.setState(rows[0].id, { createdAt: at('2026-01-01T00:00:00.000Z') });
      await h.setState(rows[1].id, {
        createdAt: at('2026-01-02T00:00:00.000Z'),
        status: 'To review',
        attempts: 1,
        lastCallDate: at('2026-01-10T08:00:00.000Z'),
      });
      await h.setState(rows[2].id, {
        createdAt: at('2026-01-03T00:00:00.000Z'),
        status: 'Finished',
        attempts: 1,
        lastCallDate: at('2026-01-11T08:00:00.000Z'),
      });
      await h.setState(rows[3].id, { createdAt: at('2026-01-04T00:00:00.000Z') });
      await h.setState(rows[4].id, { createdAt: at('2026-01-05T00:00:00.000Z') });
      await insert([newTarget({ ...owner, campaignId: owner.otherCampaignId })]);

      const ids = (targets: Target[]) => targets.map((t) => t.id);
      const list = (filter: object, offset = 0, limit = 100) =>
        h.repository.list(owner.organizationId, owner.campaignId, filter, { offset, limit });

      const page1 = await list({}, 0, 2);
      expect({ ids: ids(page1.targets), total: page1.total }).toEqual({
        ids: [rows[0].id, rows[1].id],
        total: 5,
      });
      const page3 = await list({}, 4, 2);
      expect({ ids: ids(page3.targets), total: page3.total }).toEqual({
        ids: [rows[4].id],
        total: 5,
      });
      // Keyset: `next` is where the page ended (created_at to the microsecond, and id).
      expect(page1.next).toEqual({
        createdMicros: at('2026-01-02T00:00:00.000Z').getTime() * 1000,
        id: rows[1].id,
      });
      const after = (position: CreationPosition, filter: object = {}) =>
        h.repository.list(owner.organizationId, owner.campaignId, filter, {
          after: position,
          limit: 2,
        });
      const walk2 = await after(page1.next!);
      expect({ ids: ids(walk2.targets), total: walk2.total }).toEqual({
        ids: [rows[2].id, rows[3].id],
        total: 5,
      });
      const walk3 = await after(walk2.next!);
      expect({ ids: ids(walk3.targets), next: walk3.next }).toEqual({
        ids: [rows[4].id],
        next: null,
      });
      const pendingAfter = await after(page1.next!, { status: 'Pending' });
      expect(ids(pendingAfter.targets)).toEqual([rows[3].id, rows[4].id]);
      expect(page3.next).toBeNull();
      const beyond = await list({}, 10, 2);
      expect({ ids: ids(beyond.targets), total: beyond.total }).toEqual({ ids: [], total: 5 });

      expect(ids((await list({ status: 'To review' })).targets)).toEqual([rows[1].id]);

      expect(ids((await list({ status: 'Pending' })).targets)).toEqual([
        rows[0].id,
        rows[3].id,
        rows[4].id,
      ]);
      expect(
        ids(
          (
            await list({
              createdFrom: at('2026-01-02T00:00:00.000Z'),
              createdTo: at('2026-01-04T00:00:00.000Z'),
            })
          ).targets,
        ),
      ).toEqual([rows[1].id, rows[2].id, rows[3].id]);
      expect(ids((await list({ lastCallFrom: at('2026-01-10T08:00:00.000Z') })).targets)).toEqual([
        rows[1].id,
        rows[2].id,
      ]);
      expect(ids((await list({ lastCallTo: at('2026-01-10T08:00:00.000Z') })).targets)).toEqual([
        rows[1].id,
      ]);
      const combined = await list({
        status: 'Finished',
        lastCallFrom: at('2026-01-11T00:00:00.000Z'),
        createdTo: at('2026-01-03T00:00:00.000Z'),
      });
      expect({ ids: ids(combined.targets), total: combined.total }).toEqual({
        ids: [rows[2].id],
        total: 1,
      });

      const stranger = await h.tenant();
      expect(
        await h.repository.list(
          stranger.organizationId,
          owner.campaignId,
          {},
          { offset: 0, limit: 10 },
        ),
      ).toEqual({
        targets: [],
        total: 0,
        next: null,
      });
    });
  });
}
