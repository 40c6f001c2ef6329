import { randomUUID } from 'crypto';
import { Pool, PoolClient } from 'pg';
import { SqlExecutor } from '../../src/database/sql.js';
import { compactLastCallCounts } from '../../src/modules/target/infrastructure/target-last-call-counts.js';
import { TargetRepository } from '../../src/modules/target/application/ports/target.repository.js';
import { createTestApp, TestApp } from '../support/test-app.js';
import { freshTargetBody, listedTarget, UNKNOWN_ZONE_RECIPIENT } from '../support/target-bodies.js';

const BASE = 'http://localhost:3000';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

type ListQuery = Record<string, string>;

/** The ids of a campaign's targets a list query matches, in list order, by raw SQL: what its pages are checked against. */
async function idsMatching(t: TestApp, campaignId: string, query: ListQuery): Promise<string[]> {
  const rows = await t.sql<{ id: string }>(
    `SELECT id FROM targets WHERE campaign_id = $1
        AND ($2::text IS NULL OR status = $2)
        AND ($3::timestamptz IS NULL OR created_at >= $3)
        AND ($4::timestamptz IS NULL OR created_at < $4::timestamptz + interval '1 millisecond')
        AND ($5::timestamptz IS NULL OR last_call_date >= $5)
        AND ($6::timestamptz IS NULL OR last_call_date < $6::timestamptz + interval '1 millisecond')
      ORDER BY created_at, id`,
    [
      campaignId,
      query.status ?? null,
      query.from_date ?? null,
      query.to_date ?? null,
      query.from_last_call_date ?? null,
      query.to_last_call_date ?? null,
    ],
  );
  return rows.map((r) => r.id);
}

/**
 * Targets over HTTP on a real database. ROLE=api: no worker runs, so nothing moves a target behind the
 * test's back; "started" targets are made with SQL, as the calling engine would leave them.
 */
describe('targets API', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { ROLE: 'api' } });
  });
  afterAll(() => t.close());
  /** One pass of the folding job (its timer is off in tests: COUNT_FOLD_INTERVAL_SECONDS=0). */
  const fold = () => t.app.get(TargetRepository).foldCounts();

  async function tenant(campaign: Record<string, unknown> = {}) {
    const { organizationId, apiKey } = await t.createOrganization();
    const { id: campaignId } = await t.createCampaign(apiKey, campaign);
    const as = (req: any) => req.set('X-API-Key', apiKey);
    return {
      organizationId,
      apiKey,
      campaignId,
      add: (body: unknown) =>
        as(t.http().post(`/api/v1/campaigns/${campaignId}/targets`)).send(body as object),
      get: (id: string) => as(t.http().get(`/api/v1/targets/${id}`)),
      patch: (id: string, body: unknown) =>
        as(t.http().patch(`/api/v1/targets/${id}`)).send(body as object),
      remove: (ids: unknown) =>
        as(t.http().delete(`/api/v1/campaigns/${campaignId}/targets`)).send({ target_ids: ids }),
      list: (query: Record<string, string | number> = {}, patient = false) =>
        as(
          t.http().get(`/api/v1/campaigns/${campaignId}/${patient ? 'patient/' : ''}targets`),
        ).query(query),
      as,
    };
  }

  const times = async (id: string) => {
    const [row] = await t.sql(
      'SELECT created_at, updated_at, scheduled_time FROM targets WHERE id = $1',
      [id],
    );
    return {
      created_at: row.created_at.toISOString(),
      updated_at: row.updated_at.toISOString(),
      scheduled_time: row.scheduled_time ? row.scheduled_time.toISOString() : null,
    };
  };

  const countTargets = async (campaignId: string) =>
    Number(
      (await t.sql('SELECT count(*) AS n FROM targets WHERE campaign_id = $1', [campaignId]))[0].n,
    );

  const blank = (organizationId: string, campaignId: string, id: string) =>
    freshTargetBody({ organizationId, campaignId }, id, BASE);

  describe('add and read back', () => {
    it('creates targets and reads each back field by field', async () => {
      const c = await tenant();
      const res = await c.add({
        targets: [
          {
            phone_number: '+1 (555) 010-0001',
            fallback_phone_number: {
              value: '+1.555.010.0002',
              operating_hours: { monday: [{ start: '09:00', end: '17:00' }] },
            },
            input_data: { appointment_date: '2026-04-01', nested: { a: [1, 2] } },
            pre_call_data: { patient_name: 'John Doe' },
            patient: {
              first_name: 'John',
              last_name: 'Doe',
              date_of_birth: '1990-01-15',
              external_id: 'PAT-001',
              extra_data: { x: 1 },
            },
          },
          { phone_number: { value: '+44 20 7946 0958' }, external_id: 'EXT-2' },
        ],
      });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        created: 2,
        ignored: [],
        target_ids: [expect.stringMatching(UUID), expect.stringMatching(UUID)],
      });
      const [first, second] = res.body.target_ids;

      const one = await c.get(first);
      expect(one.status).toBe(200);
      expect(one.body).toEqual({
        ...blank(c.organizationId, c.campaignId, first),
        input_data: { appointment_date: '2026-04-01', nested: { a: [1, 2] } },
        phone_number: '+15550100001',
        external_id: 'PAT-001',
        patient: {
          first_name: 'John',
          last_name: 'Doe',
          date_of_birth: '1990-01-15',
          external_id: 'PAT-001',
        },
        ...(await times(first)),
        waiting_reason: 'not launched: trigger calls or add with launch=true',
        ...UNKNOWN_ZONE_RECIPIENT,
      });
      const two = await c.get(second);
      expect(two.body).toEqual({
        ...blank(c.organizationId, c.campaignId, second),
        phone_number: '+442079460958',
        external_id: 'EXT-2',
        ...(await times(second)),
        waiting_reason: 'not launched: trigger calls or add with launch=true',
        time_zones: ['Europe/London'],
        time_zone_source: 'phone_number',
        region: null,
      });

      // What the wire does not show is stored too (the calling engine reads it).
      const [row] = await t.sql(
        `SELECT fallback_phone_number, fallback_operating_hours, pre_call_data, patient, attempts FROM targets WHERE id = $1`,
        [first],
      );
      expect(row).toEqual({
        fallback_phone_number: '+15550100002',
        fallback_operating_hours: { monday: [{ start: '09:00', end: '17:00' }], tz: 'US/Eastern' },
        pre_call_data: { patient_name: 'John Doe' },
        patient: {
          first_name: 'John',
          last_name: 'Doe',
          date_of_birth: '1990-01-15',
          phone_number: null,
          external_id: 'PAT-001',
          extra_data: { x: 1 },
        },
        attempts: 0,
      });

      const list = await c.list();
      expect(list.body).toEqual({
        // The lists show each Target as the single read does, without its live waiting_reason.
        targets: [one.body, two.body].map(listedTarget),
        page_count: 1,
        next_page: null,
        next_cursor: null,
      });
    });

    it('with launch makes targets Scheduled and due now', async () => {
      const c = await tenant();
      const res = await c.add({ targets: [{ phone_number: '+15550100001' }], launch: true });
      expect(res.status).toBe(200);
      const [id] = res.body.target_ids;
      const target = await c.get(id);
      expect(target.body).toEqual({
        ...blank(c.organizationId, c.campaignId, id),
        status: 'Scheduled',
        phone_number: '+15550100001',
        ...(await times(id)),
        waiting_reason: 'due: the next dispatcher round calls it',
        ...UNKNOWN_ZONE_RECIPIENT,
      });
      // Due at once: the dispatcher claims it straight from the targets table.
      expect(target.body.scheduled_time).toBe(target.body.created_at);
    });

    it('keeps new targets Waiting at the entry step, even with launch', async () => {
      const c = await tenant({
        steps: [{ friendly_id: 'intake', type: 'webhook', on_receive: 'merge_and_schedule' }],
        entry_step: 'intake',
      });
      const res = await c.add({ targets: [{ phone_number: '+15550100001' }], launch: true });
      const [id] = res.body.target_ids;
      expect((await c.get(id)).body.status).toBe('Waiting');
      expect(
        await t.sql(`SELECT current_step, scheduled_time FROM targets WHERE id = $1`, [id]),
      ).toEqual([{ current_step: 'intake', scheduled_time: null }]);
    });
  });

  describe('duplicates and caller ids', () => {
    it('allow_duplicates (default) ignores external ids already in the campaign or earlier in the request', async () => {
      const c = await tenant();
      await c.add({ targets: [{ phone_number: '+15550100001', external_id: 'A' }] });
      const res = await c.add({
        targets: [
          { phone_number: '+15550100002', external_id: 'A' },
          { phone_number: '+15550100003', external_id: 'B' },
          { phone_number: '+15550100004', patient: { external_id: 'B' } },
          { phone_number: '+15550100005' },
        ],
      });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        created: 2,
        ignored: [
          { index: 0, external_id: 'A' },
          { index: 2, external_id: 'B' },
        ],
        target_ids: [expect.stringMatching(UUID), expect.stringMatching(UUID)],
      });
      const listed = (await c.list()).body.targets.map((x: any) => [x.phone_number, x.external_id]);
      expect(listed).toEqual([
        ['+15550100001', 'A'],
        ['+15550100003', 'B'],
        ['+15550100005', null],
      ]);
    });

    it('allow_duplicates=false refuses the request with 409 and adds nothing', async () => {
      const c = await tenant();
      await c.add({ targets: [{ phone_number: '+15550100001', external_id: 'A' }] });
      const existing = await c.add({
        targets: [
          { phone_number: '+15550100002', external_id: 'NEW' },
          { phone_number: '+15550100003', external_id: 'A' },
        ],
        allow_duplicates: false,
      });
      expect(existing.status).toBe(409);
      expect(existing.body).toEqual({
        detail: 'Duplicate external ids (already in the campaign or repeated in the request): A',
      });
      const inRequest = await c.add({
        targets: [
          { phone_number: '+15550100002', external_id: 'X' },
          { phone_number: '+15550100003', patient: { external_id: 'X' } },
        ],
        allow_duplicates: false,
      });
      expect(inRequest.status).toBe(409);
      expect(inRequest.body).toEqual({
        detail: 'Duplicate external ids (already in the campaign or repeated in the request): X',
      });
      expect(await countTargets(c.campaignId)).toBe(1);
    });

    it('keeps a caller-supplied id and answers 409 when it exists, adding nothing', async () => {
      const c = await tenant();
      const id = randomUUID();
      const res = await c.add({ targets: [{ id, phone_number: '+15550100001' }] });
      expect(res.body).toEqual({ created: 1, ignored: [], target_ids: [id] });
      expect((await c.get(id)).status).toBe(200);

      const again = await c.add({
        targets: [{ phone_number: '+15550100002' }, { id, phone_number: '+15550100003' }],
      });
      expect(again.status).toBe(409);
      expect(again.body).toEqual({ detail: `Target ids already exist: ${id}` });
      expect(await countTargets(c.campaignId)).toBe(1);
      // Ids are unique per organization (issue 16): another organization may use it, and the answer
      // tells it nothing about the first one's (see target-id-scope.e2e-spec.ts).
      const other = await tenant();
      const foreign = await other.add({ targets: [{ id, phone_number: '+15550100002' }] });
      expect([foreign.status, foreign.body]).toEqual([
        200,
        { created: 1, ignored: [], target_ids: [id] },
      ]);
      expect(await countTargets(c.campaignId)).toBe(1);
      expect(await countTargets(other.campaignId)).toBe(1);
    });
  });

  it('stores an external id of 600 characters of any width (the unique index holds it) and refuses 601', async () => {
    const c = await tenant();
    // Four bytes each in UTF-8: the widest ids the limit lets through.
    const widest = '\u{1F600}'.repeat(600);
    const plain = 'x'.repeat(501);
    const added = await c.add({
      targets: [
        { phone_number: '+15550100001', external_id: widest },
        { phone_number: '+15550100002', patient: { external_id: plain } },
      ],
    });
    expect(added.status).toBe(200);
    expect(added.body).toEqual({ created: 2, ignored: [], target_ids: expect.any(Array) });
    const [a, b] = added.body.target_ids;
    expect((await c.get(a)).body.external_id).toBe(widest);
    expect((await c.get(b)).body.external_id).toBe(plain);
    // The same id again is a duplicate the index finds.
    const again = await c.add({ targets: [{ phone_number: '+15550100003', external_id: widest }] });
    expect(again.body).toEqual({
      created: 0,
      ignored: [{ index: 0, external_id: widest }],
      target_ids: [],
    });

    const tooLong = `${widest}y`;
    const refused = await c.add({
      targets: [
        { phone_number: '+15550100004', external_id: tooLong },
        { phone_number: '+15550100005', patient: { external_id: tooLong } },
      ],
    });
    expect(refused.status).toBe(422);
    const tooLongAt = (loc: (string | number)[]) => ({
      type: 'string_too_long',
      loc,
      msg: 'String should have at most 600 characters',
      input: tooLong,
      ctx: { max_length: 600 },
    });
    expect(refused.body).toEqual({
      detail: [
        tooLongAt(['body', 'targets', 0, 'external_id']),
        tooLongAt(['body', 'targets', 1, 'patient', 'external_id']),
      ],
    });
    expect(await countTargets(c.campaignId)).toBe(2);
  });

  describe('input data update', () => {
    it('merges one level deep and answers the target with pre_call_ehr_ids', async () => {
      const c = await tenant();
      const [id] = (
        await c.add({
          targets: [{ phone_number: '+15550100001', input_data: { a: 1, n: { x: 1, y: 2 } } }],
        })
      ).body.target_ids;
      const res = await c.patch(id, { input_data: { b: 2, n: { x: 3 } } });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        ...blank(c.organizationId, c.campaignId, id),
        phone_number: '+15550100001',
        input_data: { a: 1, b: 2, n: { x: 3 } },
        pre_call_ehr_ids: {},
        ...(await times(id)),
      });
      expect((await c.get(id)).body.input_data).toEqual({ a: 1, b: 2, n: { x: 3 } });
    });

    it('a Scheduled target without calls is editable; a started one is 409 unless only_if_not_started=false', async () => {
      const c = await tenant();
      const [id] = (
        await c.add({
          targets: [{ phone_number: '+15550100001', input_data: { a: 1 } }],
          launch: true,
        })
      ).body.target_ids;
      expect((await c.patch(id, { input_data: { a: 2 } })).status).toBe(200);

      await t.sql(`UPDATE targets SET status = 'In Progress', attempts = 1 WHERE id = $1`, [id]);
      const refused = await c.patch(id, { input_data: { a: 3 } });
      expect(refused.status).toBe(409);
      expect(refused.body).toEqual({
        detail: `Target ${id} has already started; send only_if_not_started=false to edit its input data anyway`,
      });
      expect((await c.get(id)).body.input_data).toEqual({ a: 2 });

      await t.sql(`UPDATE targets SET status = 'Scheduled', call_log_ids = '{41}' WHERE id = $1`, [
        id,
      ]);
      expect((await c.patch(id, { input_data: { a: 3 } })).status).toBe(409);

      const forced = await c.patch(id, { input_data: { a: 3 }, only_if_not_started: false });
      expect(forced.status).toBe(200);
      expect(forced.body).toMatchObject({
        input_data: { a: 3 },
        call_log_ids: [41],
        status: 'Scheduled',
      });
    });
  });

  describe('delete', () => {
    it('deletes idle targets, skips those in flight, reports the rest not found', async () => {
      const c = await tenant();
      const ids: string[] = (
        await c.add({ targets: [1, 2, 3, 4].map((i) => ({ phone_number: `+1555010000${i}` })) })
      ).body.target_ids;
      await t.sql(`UPDATE targets SET status = 'In Progress', attempts = 1 WHERE id = $1`, [
        ids[1],
      ]);
      await t.sql(`UPDATE targets SET status = 'Post-processing', attempts = 1 WHERE id = $1`, [
        ids[2],
      ]);
      await t.sql(`UPDATE targets SET status = 'Finished', attempts = 1 WHERE id = $1`, [ids[3]]);
      const other = await tenant();
      const [foreign] = (await other.add({ targets: [{ phone_number: '+15550100009' }] })).body
        .target_ids;
      const unknown = randomUUID();

      const res = await c.remove([
        ids[0],
        ids[1],
        ids[2],
        ids[3],
        'not-a-uuid',
        unknown,
        foreign,
        ids[0],
      ]);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        deleted: [ids[0], ids[3]],
        not_found: ['not-a-uuid', unknown, foreign],
        skipped: [
          { id: ids[1], reason: 'in_progress' },
          { id: ids[2], reason: 'in_progress' },
        ],
      });
      expect((await c.get(ids[0])).status).toBe(404);
      expect((await c.get(ids[1])).status).toBe(200);
      expect((await other.get(foreign)).status).toBe(200);
    });
  });

  describe('lists', () => {
    it('pages: page_count = ceil(total / limit), next_page null on the last page and beyond', async () => {
      const c = await tenant();
      const ids: string[] = (
        await c.add({
          targets: Array.from({ length: 25 }, (_, i) => ({
            phone_number: `+1555010${String(i).padStart(4, '0')}`,
          })),
        })
      ).body.target_ids;
      for (const patient of [false, true]) {
        const page0 = await c.list({}, patient);
        expect(page0.status).toBe(200);
        expect({ ...page0.body, targets: page0.body.targets.map((x: any) => x.id) }).toEqual({
          targets: ids.slice(0, 10),
          page_count: 3,
          next_page: 1,
          next_cursor: expect.any(String),
        });
        const page2 = await c.list({ page: 2, limit: 10 }, patient);
        expect({ ...page2.body, targets: page2.body.targets.map((x: any) => x.id) }).toEqual({
          targets: ids.slice(20),
          page_count: 3,
          next_page: null,
          next_cursor: null,
        });
        const beyond = await c.list({ page: 7, limit: 10 }, patient);
        expect(beyond.body).toEqual({
          targets: [],
          page_count: 3,
          next_page: null,
          next_cursor: null,
        });
        const exact = await c.list({ page: 0, limit: 25 }, patient);
        expect({ ...exact.body, targets: exact.body.targets.length }).toEqual({
          targets: 25,
          page_count: 1,
          next_page: null,
          next_cursor: null,
        });
        const small = await c.list({ page: 23, limit: 1 }, patient);
        expect({ ...small.body, targets: small.body.targets.map((x: any) => x.id) }).toEqual({
          targets: [ids[23]],
          page_count: 25,
          next_page: 24,
          next_cursor: expect.any(String),
        });
      }
      const empty = await tenant();
      expect((await empty.list()).body).toEqual({
        targets: [],
        page_count: 0,
        next_page: null,
        next_cursor: null,
      });
    });

    it('filters by status (To review included), external id and inclusive created and last-call dates', async () => {
      const c = await tenant();
      const ids: string[] = (
        await c.add({ targets: [1, 2, 3, 4, 5].map((i) => ({ phone_number: `+1555010000${i}` })) })
      ).body.target_ids;
      const set = (i: number, sql: string, ...params: unknown[]) =>
        t.sql(`UPDATE targets SET ${sql} WHERE id = $1`, [ids[i], ...params]);
      await set(0, `created_at = '2026-01-01T00:00:00Z'`);
      await set(
        1,
        `created_at = '2026-01-02T23:59:59.999Z', status = 'To review', attempts = 1, last_call_date = '2026-01-10T08:00:00Z'`,
      );
      await set(
        2,
        `created_at = '2026-01-03T00:00:00Z', status = 'Finished', attempts = 1, last_call_date = '2026-01-11T23:30:00Z'`,
      );
      await set(
        3,
        `created_at = '2026-01-03T12:00:00Z', status = 'Failed', attempts = 3, last_call_date = '2026-01-12T00:00:00Z'`,
      );
      await set(4, `created_at = '2026-01-04T00:00:00Z'`);
      const ids_ = async (query: Record<string, string>, patient = false) => {
        const res = await c.list(query, patient);
        expect(res.status).toBe(200);
        return res.body.targets.map((x: any) => ids.indexOf(x.id));
      };

      expect(await ids_({ status: 'To review' })).toEqual([1]);
      expect(await ids_({ status: 'To review' }, true)).toEqual([1]);
      expect(await ids_({ status: 'Pending' })).toEqual([0, 4]);
      expect(await ids_({ status: 'Waiting' })).toEqual([]);
      // Date-only bounds: from the start of from_date to the end of to_date.
      expect(await ids_({ from_date: '2026-01-02', to_date: '2026-01-03' })).toEqual([1, 2, 3]);
      expect(await ids_({ to_date: '2026-01-02' })).toEqual([0, 1]);
      // Date-time bounds are exact and inclusive.
      expect(
        await ids_({ from_date: '2026-01-03T00:00:00Z', to_date: '2026-01-03T12:00:00Z' }),
      ).toEqual([2, 3]);
      expect(await ids_({ from_date: '2026-01-03T00:00:00.001Z' })).toEqual([3, 4]);
      expect(await ids_({ to_date: '2026-01-03T09:00:00+09:00' })).toEqual([0, 1, 2]);
      expect(await ids_({ from_last_call_date: '2026-01-11' })).toEqual([2, 3]);
      expect(await ids_({ to_last_call_date: '2026-01-11' })).toEqual([1, 2]);
      expect(
        await ids_({
          from_last_call_date: '2026-01-10T08:00:00Z',
          to_last_call_date: '2026-01-10T08:00:00Z',
        }),
      ).toEqual([1]);
      expect(
        await ids_(
          { status: 'Finished', from_last_call_date: '2026-01-11', to_date: '2026-01-03' },
          true,
        ),
      ).toEqual([2]);
      await set(3, `external_id = 'PAT-3'`);
      expect(await ids_({ external_id: 'PAT-3' })).toEqual([3]);
      expect(await ids_({ external_id: 'PAT-3' }, true)).toEqual([3]);
      expect(await ids_({ external_id: 'PAT-3', status: 'Pending' })).toEqual([]);
      const one = await c.list({ external_id: 'PAT-3' });
      expect({ page_count: one.body.page_count, next_page: one.body.next_page }).toEqual({
        page_count: 1,
        next_page: null,
      });
      const counted = await c.list({ from_last_call_date: '2026-01-01', limit: 1 });
      expect({ page_count: counted.body.page_count, next_page: counted.body.next_page }).toEqual({
        page_count: 3,
        next_page: 1,
      });
    });
  });

  describe('exact counts and keyset paging', () => {
    const phones = (n: number, from = 0) =>
      Array.from({ length: n }, (_, i) => ({
        phone_number: `+1555020${String(from + i).padStart(4, '0')}`,
      }));
    const idsOf = (res: any) => res.body.targets.map((x: any) => x.id);
    /**
     * What a last-call list must list, from the table: the campaign's targets whose last call lies
     * within the bounds (inclusive to the millisecond; either may be null), of `status` if given, in
     * creation order.
     */
    const lastCallMatches = async (
      campaignId: string,
      from: string | null,
      to: string | null,
      status: string | null = null,
    ) =>
      (
        await t.sql<{ id: string }>(
          `SELECT id FROM targets WHERE campaign_id = $1
              AND ($2::timestamptz IS NULL OR last_call_date >= $2)
              AND ($3::timestamptz IS NULL OR last_call_date < $3::timestamptz + interval '1 millisecond')
              AND ($4::text IS NULL OR status = $4) ORDER BY created_at, id`,
          [campaignId, from, to, status],
        )
      ).map((r) => r.id);
    /**
     * What both page_count tests run at once on a campaign seeded with `seed`:
     * - three movers, each fifteen small transactions like dispatchers: `move` touches
     *   `pick(k + round)` and `pick(k + round + 1)`, targets the deleter leaves alone, which are locked
     *   in id order up front (so the test's own transactions cannot deadlock one another); every fourth
     *   transaction rolls back;
     * - ten adds of ten targets, and ten deletes of five of the seed's first 50, through the API;
     * - a reader listing with `query(round)` twenty times: each answer is one snapshot; and the
     *   folding job folding the counters as they pile up.
     */
    const runConcurrently = async (
      c: Awaited<ReturnType<typeof tenant>>,
      seed: string[],
      move: (
        client: PoolClient,
        pick: (k: number) => string[],
        k: number,
        round: number,
      ) => Promise<unknown>,
      query: (round: number) => Record<string, string | number>,
    ) => {
      const pick = (k: number) => seed.filter((_, i) => i >= 50 && (i * 7 + k) % 11 === 0);
      const pool = new Pool({ connectionString: t.databaseUrl, max: 3 });
      const mover = async (k: number) => {
        for (let round = 0; round < 15; round++) {
          const client = await pool.connect();
          try {
            await client.query('BEGIN');
            await client.query(
              `SELECT id FROM targets WHERE id = ANY($1::uuid[]) ORDER BY id FOR UPDATE`,
              [[...pick(k + round), ...pick(k + round + 1)]],
            );
            await move(client, pick, k, round);
            await client.query(round % 4 === 3 ? 'ROLLBACK' : 'COMMIT');
          } finally {
            client.release();
          }
        }
      };
      const adder = async () => {
        for (let round = 0; round < 10; round++)
          expect((await c.add({ targets: phones(10, 1000 + round * 10) })).status).toBe(200);
      };
      const deleter = async () => {
        for (let round = 0; round < 10; round++)
          expect((await c.remove(seed.slice(round * 5, round * 5 + 5))).status).toBe(200);
      };
      // Each answer's page_count agrees with its rows: full pages before the last, a partial or
      // full last one, none after (a count and a page from two snapshots would break this).
      const reader = async () => {
        for (let round = 0; round < 20; round++) {
          const q = query(round);
          const res = await c.list(q);
          const [limit, page] = [Number(q.limit ?? 10), Number(q.page ?? 0)];
          const { page_count: pages, targets } = res.body;
          const rows = targets.length;
          const fits =
            page < pages - 1
              ? rows === limit
              : page === pages - 1
                ? rows > 0 && rows <= limit
                : rows === 0;
          expect([q, res.status, pages, rows, fits]).toEqual([q, 200, pages, rows, true]);
        }
      };
      try {
        let folding = true;
        const folder = async () => {
          while (folding) await fold();
        };
        const folds = folder();
        try {
          await Promise.all([mover(0), mover(1), mover(2), adder(), deleter(), reader()]);
        } finally {
          folding = false;
          await folds;
        }
      } finally {
        await pool.end();
      }
    };

    it('every page, walked from the front or the back, lists the same order', async () => {
      const c = await tenant();
      const ids: string[] = (await c.add({ targets: phones(25) })).body.target_ids;
      // Some Failed, so the status index is paged too.
      const failed = ids.filter((_, i) => i % 3 === 0);
      await t.sql(`UPDATE targets SET status = 'Failed' WHERE id = ANY($1::uuid[])`, [failed]);
      for (const [query, expected] of [
        [{}, ids],
        [{ status: 'Failed' }, failed],
      ] as const) {
        for (const limit of [1, 3, 7]) {
          const pages = Math.ceil(expected.length / limit);
          const listed: string[] = [];
          for (let page = 0; page < pages; page++) {
            const res = await c.list({ ...query, page, limit });
            expect(res.body.page_count).toBe(pages);
            expect(res.body.next_page).toBe(page + 1 < pages ? page + 1 : null);
            listed.push(...idsOf(res));
          }
          expect(listed).toEqual(expected);
        }
      }
    });

    it('a last call bound lists its matches in creation order, wherever they lie in it, by page and by cursor', async () => {
      const c = await tenant();
      // Three requests, three creation times; calls placed in creation order, as the engine does.
      const ids: string[] = [];
      for (const first of [0, 10, 20])
        ids.push(...(await c.add({ targets: phones(10, first) })).body.target_ids);
      const calls: [number, string, string][] = [
        [2, '2026-01-01T10:00:00Z', 'Failed'],
        [12, '2026-01-05T10:00:00Z', 'Finished'],
        ...[21, 22, 24, 25, 26, 27, 28, 29].map(
          (i) =>
            [i, `2026-01-1${i % 10}T10:00:00Z`, i % 2 ? 'Failed' : 'Finished'] as [
              number,
              string,
              string,
            ],
        ),
      ];
      for (const [i, at, status] of calls)
        await t.sql(`UPDATE targets SET last_call_date = $2, status = $3 WHERE id = $1`, [
          ids[i],
          at,
          status,
        ]);
      const matching = (from: string, to: string, status?: string) =>
        calls
          .filter(([, at, s]) => at >= from && at <= to && (status === undefined || s === status))
          .map(([i]) => ids[i]);
      for (const [query, expected] of [
        // The later ones: a walk of the creation order would cross 21 targets to reach them.
        [{ from_last_call_date: '2026-01-10' }, matching('2026-01-10', '9')],
        [
          { status: 'Finished', from_last_call_date: '2026-01-10' },
          matching('2026-01-10', '9', 'Finished'),
        ],
        [
          { from_last_call_date: '2026-01-12', to_last_call_date: '2026-01-17' },
          matching('2026-01-12', '2026-01-17T23'),
        ],
        // The earlier ones: the walk finds them first.
        [
          { status: 'Failed', to_last_call_date: '2026-01-19' },
          matching('0', '2026-01-19T23', 'Failed'),
        ],
        [{ from_last_call_date: '2026-01-01' }, matching('2026-01-01', '9')],
        // Few matches (an eighth of the campaign at most), wherever they lie, with a status or not:
        // from the blocks holding them (walked, or sorted when far apart).
        [{ from_last_call_date: '2026-01-18' }, matching('2026-01-18', '9')],
        [
          { status: 'Failed', from_last_call_date: '2026-01-15' },
          matching('2026-01-15', '9', 'Failed'),
        ],
        [{ to_last_call_date: '2026-01-05' }, matching('0', '2026-01-05T23')],
      ] as const) {
        expect(expected.length).toBeGreaterThan(1);
        for (const limit of [1, 3, 7]) {
          const pages = Math.ceil(expected.length / limit);
          const listed: string[] = [];
          for (let page = 0; page < pages; page++) {
            const res = await c.list({ ...query, page, limit });
            expect([query, limit, page, res.body.page_count, res.body.next_page]).toEqual([
              query,
              limit,
              page,
              pages,
              page + 1 < pages ? page + 1 : null,
            ]);
            listed.push(...idsOf(res));
          }
          expect([query, limit, listed]).toEqual([query, limit, expected]);
          const walked: string[] = [];
          let cursor: string | undefined;
          do {
            const res = await c.list({ ...query, limit, ...(cursor ? { cursor } : {}) });
            walked.push(...idsOf(res));
            cursor = res.body.next_cursor ?? undefined;
          } while (cursor);
          expect([query, limit, walked]).toEqual([query, limit, expected]);
        }
      }
    });

    /**
     * The campaign's last-call cells merged into disjoint creation blocks and last-call stretches, as
     * the list reads them, each pair with its count per status; and the called targets counted per
     * status inside the same pairs. Equal when every called target is counted once, in the cell of
     * its status holding it.
     */
    const lastCallCellsAgainstTargets = async (campaignId: string) => {
      const merged = (lo: string, hi: string, name: string) => `
        ${name}_reach AS (SELECT ${lo}, max(${hi}) AS reach FROM cells GROUP BY ${lo}),
        ${name}_starts AS (SELECT ${lo}, coalesce(${lo} >= max(reach) OVER (ORDER BY ${lo}
            ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING), true) AS starts FROM ${name}_reach),
        ${name}_of AS (SELECT ${lo}, max(${lo}) FILTER (WHERE starts) OVER (ORDER BY ${lo}) AS ${name}
            FROM ${name}_starts)`;
      const cells = `WITH cells AS (SELECT * FROM target_last_call_counts WHERE campaign_id = $1),
         ${merged('created_from', 'created_until', 'block_from')},
         ${merged('called_from', 'called_until', 'stretch_from')},
         m AS (SELECT c.*, b.block_from, s.stretch_from FROM cells c
                 JOIN block_from_of b USING (created_from) JOIN stretch_from_of s USING (called_from)),
         blocks AS (SELECT block_from, max(created_until) AS block_until FROM m GROUP BY 1),
         stretches AS (SELECT stretch_from, max(called_until) AS stretch_until FROM m GROUP BY 1)`;
      type Cell = { block_from: Date | null; stretch_from: Date | null; status: string; n: string };
      const asText = (rows: Cell[]) =>
        rows.map((r) => [
          r.block_from?.toISOString(),
          r.stretch_from?.toISOString(),
          r.status,
          Number(r.n),
        ]);
      const [fromCells, fromTargets] = await Promise.all([
        t.sql<Cell>(
          `${cells} SELECT block_from, stretch_from, status, sum(delta) AS n FROM m
            GROUP BY 1, 2, 3 HAVING sum(delta) <> 0 ORDER BY 1, 2, 3`,
          [campaignId],
        ),
        t.sql<Cell>(
          `${cells} SELECT b.block_from, s.stretch_from, t.status, count(*) AS n FROM targets t
             LEFT JOIN blocks b ON t.created_at >= b.block_from AND t.created_at < b.block_until
             LEFT JOIN stretches s
               ON t.last_call_date >= s.stretch_from AND t.last_call_date < s.stretch_until
            WHERE t.campaign_id = $1 AND t.last_call_date IS NOT NULL
            GROUP BY 1, 2, 3 ORDER BY 1, 2, 3`,
          [campaignId],
        ),
      ]);
      return { fromCells: asText(fromCells), fromTargets: asText(fromTargets) };
    };

    /** The campaign's last-call cells, and how many distinct stretches they name on each axis. */
    const lastCallRows = async (campaignId: string) => {
      const [r] = await t.sql<{ rows: string; blocks: string; stretches: string }>(
        `SELECT count(*) AS rows, count(DISTINCT (created_from, created_until)) AS blocks,
                count(DISTINCT (called_from, called_until)) AS stretches
           FROM target_last_call_counts WHERE campaign_id = $1`,
        [campaignId],
      );
      return { rows: Number(r.rows), blocks: Number(r.blocks), stretches: Number(r.stretches) };
    };

    it('last call bounds alone start their walks at the creation blocks holding their matches, every page from either end', async () => {
      const c = await tenant();
      const ids: string[] = (await c.add({ targets: phones(60) })).body.target_ids;
      // Five seconds of creation, twelve targets each, in the order added; calls follow that order,
      // two a minute (at :00 and :30), every fourth target never called.
      await t.sql(
        `UPDATE targets t
            SET created_at = timestamptz '2026-01-01T00:00:00Z' + ((o.n - 1) / 12) * interval '1 second'
                               + ((o.n - 1) % 12) * interval '1 millisecond',
                last_call_date = CASE WHEN o.n % 4 <> 0 THEN
                  timestamptz '2026-02-01T00:00:00Z' + (o.n / 2) * interval '1 minute'
                    + (o.n % 2) * interval '30 seconds' END
           FROM unnest($1::uuid[]) WITH ORDINALITY AS o(id, n) WHERE t.id = o.id`,
        [ids],
      );
      const matching = (from: string | null, to: string | null) =>
        lastCallMatches(c.campaignId, from, to);
      const at = (minute: number, second = 0) =>
        new Date(
          Date.parse('2026-02-01T00:00:00Z') + minute * 60_000 + second * 1000,
        ).toISOString();
      for (const [from, to] of [
        [at(15), null], // the later half, from a whole minute
        [at(15, 10), null], // from inside a minute: its later call only
        [null, at(15, 30)], // the earlier half, through a call
        [at(4, 30), at(25, 29)], // a window inside whole minutes and two partial ones
        [at(11), at(11, 40)], // both ends in one minute
        [at(0), null], // every call
      ] as const) {
        const expected = await matching(from, to);
        expect(expected.length).toBeGreaterThan(1);
        const query = {
          ...(from ? { from_last_call_date: from } : {}),
          ...(to ? { to_last_call_date: to } : {}),
        };
        for (const limit of [1, 5, 7]) {
          const pages = Math.ceil(expected.length / limit);
          const listed: string[] = [];
          for (let page = 0; page < pages; page++) {
            const res = await c.list({ ...query, page, limit });
            expect([query, limit, page, res.body.page_count]).toEqual([query, limit, page, pages]);
            listed.push(...idsOf(res));
          }
          expect([query, limit, listed]).toEqual([query, limit, expected]);
        }
      }

      // Two of the first targets called again after every other call: a poll for the latest calls
      // matches them and the last few, five seconds apart.
      await t.sql(
        `UPDATE targets SET last_call_date = timestamptz '2026-02-01T00:40:00Z' WHERE id = ANY($1::uuid[])`,
        [[ids[1], ids[2]]],
      );
      const polled = await matching(at(29), null);
      expect(polled.length).toBeGreaterThan(2);
      for (const limit of [1, 2, 3]) {
        const listed: string[] = [];
        for (let page = 0; page * limit < polled.length; page++)
          listed.push(...idsOf(await c.list({ from_last_call_date: at(29), page, limit })));
        expect([limit, listed]).toEqual([limit, polled]);
      }

      // 70 calls placed one statement each, each target's last call moved a minute later: cells
      // pile up, and the list still counts right.
      for (let i = 0; i < 70; i++)
        await t.sql(
          `UPDATE targets SET last_call_date = last_call_date + interval '1 minute',
                  status = CASE status WHEN 'Failed' THEN 'Finished' ELSE 'Failed' END
            WHERE id = $1`,
          [ids[(i * 7) % 60]],
        );
      const later = await matching(at(20), null);
      expect((await c.list({ from_last_call_date: at(20), limit: 1 })).body.page_count).toBe(
        later.length,
      );
      const { fromCells, fromTargets } = await lastCallCellsAgainstTargets(c.campaignId);
      expect(fromCells).toEqual(fromTargets);
      const res = await c.list({ from_last_call_date: at(20), limit: 100 });
      expect([res.body.page_count, idsOf(res)]).toEqual([1, later]);
    });

    /**
     * The campaign's position counts merged into disjoint spans, as the list reads them, each with its
     * count per status; and the targets counted per status inside the same spans. Equal when every
     * target is counted once, in the span holding its creation time.
     */
    const positionSpansAgainstTargets = async (campaignId: string) => {
      const spans = `WITH marked AS (
           SELECT created_from, created_until, status, delta,
                  coalesce(created_from >= max(created_until) OVER (ORDER BY created_from
                    RANGE BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW EXCLUDE GROUP), true) AS starts
             FROM target_position_counts WHERE campaign_id = $1),
         in_spans AS (
           SELECT *, max(created_from) FILTER (WHERE starts) OVER (ORDER BY created_from) AS span_from
             FROM marked),
         spans AS (SELECT span_from, max(created_until) AS span_until FROM in_spans GROUP BY span_from)`;
      const [fromCounts, fromTargets] = await Promise.all([
        t.sql<{ span_from: Date; status: string; n: string }>(
          `${spans} SELECT span_from, status, sum(delta) AS n FROM in_spans
            GROUP BY span_from, status HAVING sum(delta) <> 0 ORDER BY 1, 2`,
          [campaignId],
        ),
        t.sql<{ span_from: Date; status: string; n: string }>(
          `${spans} SELECT s.span_from, t.status, count(*) AS n FROM targets t
             LEFT JOIN spans s ON t.created_at >= s.span_from AND t.created_at < s.span_until
            WHERE t.campaign_id = $1 GROUP BY 1, 2 ORDER BY 1, 2`,
          [campaignId],
        ),
      ]);
      return { fromCounts, fromTargets };
    };

    /** How many spans and rows the campaign's position counts have. */
    const positionRows = async (campaignId: string) => {
      const [r] = await t.sql<{ rows: string; stretches: string }>(
        `SELECT count(*) AS rows, count(DISTINCT (created_from, created_until)) AS stretches
           FROM target_position_counts WHERE campaign_id = $1`,
        [campaignId],
      );
      return { rows: Number(r.rows), stretches: Number(r.stretches) };
    };

    it('deep pages and creation windows, found from the spans of creation, list what the index order has there', async () => {
      const c = await tenant();
      await c.add({ targets: phones(5000) });
      // Every target Pending: that status's list is the campaign's, its deep pages found the same way.
      const added = (
        await t.sql<{ id: string }>(
          `SELECT id FROM targets WHERE campaign_id = $1 ORDER BY created_at, id`,
          [c.campaignId],
        )
      ).map((r) => r.id);
      for (const page of [0, 22, 27, 49]) {
        const res = await c.list({ status: 'Pending', page, limit: 100 });
        expect([page, res.body.page_count, idsOf(res)]).toEqual([
          page,
          50,
          added.slice(page * 100, page * 100 + 100),
        ]);
      }
      await t.sql(
        `UPDATE targets SET status = 'Failed' WHERE campaign_id = $1 AND hashtext(id::text) % 5 = 0`,
        [c.campaignId],
      );
      const order = async () =>
        (
          await t.sql<{ id: string }>(
            `SELECT id FROM targets WHERE campaign_id = $1 ORDER BY created_at, id`,
            [c.campaignId],
          )
        ).map((r) => r.id);
      // Every page of 100, and pages of 7 through the deep middle (from both ends; some straddle seconds).
      const expectPagesAsOrdered = async () => {
        const expected = await order();
        for (const limit of [100, 7]) {
          const pages = Math.ceil(expected.length / limit);
          const chosen = Array.from({ length: pages }, (_, p) => p).filter(
            (p) => limit === 100 || p % 13 === 0 || p === pages - 1,
          );
          for (const page of chosen) {
            const res = await c.list({ page, limit });
            expect([page, limit, res.body.page_count, idsOf(res)]).toEqual([
              page,
              limit,
              pages,
              expected.slice(page * limit, page * limit + limit),
            ]);
          }
        }
        const { fromCounts, fromTargets } = await positionSpansAgainstTargets(c.campaignId);
        expect(fromCounts).toEqual(fromTargets);
        await expectWindowsAsOrdered();
      };
      // Creation windows (bounds inside a second, on one, or one bound only): counted and paged from
      // the positions of their ends. Pages of 100 around each end, through the deep middle, and last.
      const expectWindowsAsOrdered = async () => {
        const [{ lo, hi }] = await t.sql<{ lo: Date; hi: Date }>(
          `SELECT min(created_at) AS lo, max(created_at) AS hi FROM targets WHERE campaign_id = $1`,
          [c.campaignId],
        );
        const at = (share: number) =>
          new Date(lo.getTime() + Math.round((hi.getTime() - lo.getTime()) * share));
        const second = (share: number) => new Date(Math.floor(at(share).getTime() / 1000) * 1000);
        const windows: { from_date?: string; to_date?: string; status?: string }[] = [
          { from_date: at(0.013).toISOString(), to_date: at(0.987).toISOString() },
          { from_date: second(0.02).toISOString(), to_date: second(0.98).toISOString() },
          { from_date: at(0.3).toISOString() },
          { to_date: at(0.7).toISOString() },
          { from_date: at(0.6).toISOString(), to_date: at(0.4).toISOString() },
          { from_date: '0001-01-01', to_date: '9999-12-31' },
        ];
        // With a status too: most targets are Pending (the window's complement is counted), a fifth
        // Failed (the window's own entries are).
        const filtered = windows.flatMap((w) => [
          w,
          { ...w, status: 'Pending' },
          { ...w, status: 'Failed' },
        ]);
        for (const window of filtered) {
          const expected = (
            await t.sql<{ id: string }>(
              `SELECT id FROM targets WHERE campaign_id = $1
                  AND created_at >= coalesce($2::timestamptz, '-infinity')
                  AND created_at < coalesce($3::timestamptz + interval '1 millisecond', 'infinity')
                  AND ($4::text IS NULL OR status = $4)
                ORDER BY created_at, id`,
              [
                c.campaignId,
                window.from_date ?? null,
                window.to_date ?? null,
                window.status ?? null,
              ],
            )
          ).map((r) => r.id);
          const limit = 100;
          const pages = Math.ceil(expected.length / limit);
          const middle = Math.floor(pages / 2);
          const chosen = [0, 1, middle - 1, middle, middle + 1, pages - 2, pages - 1];
          for (const page of [...new Set(chosen.filter((p) => p >= 0))]) {
            const res = await c.list({ ...window, page, limit });
            expect([window, page, res.body.page_count, idsOf(res)]).toEqual([
              window,
              page,
              pages,
              expected.slice(page * limit, page * limit + limit),
            ]);
          }
        }
      };

      // One request: one second holding all 5,000, walked from the nearer edge of the second.
      await expectPagesAsOrdered();

      // Spread over 52 seconds, 97 a second, two by two on one instant (ties broken by id).
      await t.sql(
        `UPDATE targets t SET created_at = timestamptz '2026-01-05 08:00:00+00'
                + (s.n / 97) * interval '1 second' + (s.n % 97 / 2) * interval '7 milliseconds'
           FROM (SELECT id, row_number() OVER (ORDER BY id) - 1 AS n
                   FROM targets WHERE campaign_id = $1) s
          WHERE t.id = s.id`,
        [c.campaignId],
      );
      await expectPagesAsOrdered();

      // 500 deleted in 70 requests through the API, each appending rows; then 300 more targets.
      const doomed = (await order()).filter((_, i) => i % 10 === 0);
      for (let round = 0; round < 70; round++)
        expect((await c.remove(doomed.filter((_, i) => i % 70 === round))).status).toBe(200);
      await c.add({ targets: phones(300, 6000) });
      await expectPagesAsOrdered();

      // Fed a target at a time: every target in a second of its own, a week apart from the first
      // to the last, with spread statuses. The folding job folds the 4,800 seconds into blocks.
      await t.sql(
        `UPDATE targets t SET created_at = timestamptz '2026-02-01 00:00:00+00'
                + s.n * interval '127 seconds' + (s.n % 1000) * interval '1 millisecond',
                status = (ARRAY['Pending', 'Failed', 'Finished', 'To review'])[1 + s.n % 4]
           FROM (SELECT id, row_number() OVER (ORDER BY created_at DESC, id) - 1 AS n
                   FROM targets WHERE campaign_id = $1) s
          WHERE t.id = s.id`,
        [c.campaignId],
      );
      expect((await positionRows(c.campaignId)).stretches).toBeGreaterThan(4000);
      expect((await c.list({ limit: 1 })).body.page_count).toBe(4800);
      expect((await positionRows(c.campaignId)).stretches).toBeGreaterThan(4000);
      await fold();
      expect((await positionRows(c.campaignId)).stretches).toBeLessThanOrEqual(
        2 * Math.ceil(4800 / 1024) + 1,
      );
      await expectPagesAsOrdered();
      // Changes inside the blocks, read before the next compaction: their rows name seconds inside
      // a block, and the list merges them into it.
      const inside = (await order()).filter((_, i) => i % 97 === 5);
      expect((await c.remove(inside.slice(0, 10))).status).toBe(200);
      await t.sql(`UPDATE targets SET status = 'Finished' WHERE id = ANY($1::uuid[])`, [
        inside.slice(10, 30),
      ]);
      await expectPagesAsOrdered();
    });

    it('a cursor walk lists each target exactly once, in order, while targets are added and deleted', async () => {
      const c = await tenant();
      const first: string[] = (await c.add({ targets: phones(30) })).body.target_ids;
      const listed: string[] = [];
      let res = await c.list({ limit: 4 });
      listed.push(...idsOf(res));
      let added: string[] = [];
      let deletedAhead: string[] = [];
      let deleted: string[] = [];
      for (let step = 0; res.body.next_cursor !== null; step++) {
        expect(res.body.next_cursor).toEqual(expect.any(String));
        if (step === 1) {
          // Delete one already listed and two not reached yet; add five (they sort last).
          deletedAhead = [first[12], first[13]];
          deleted = (await c.remove([first[0], ...deletedAhead])).body.deleted;
          added = (await c.add({ targets: phones(5, 100) })).body.target_ids;
        }
        if (step === 3) {
          added.push(...(await c.add({ targets: phones(2, 200) })).body.target_ids);
        }
        res = await c.list({ limit: 4, cursor: res.body.next_cursor });
        expect(res.status).toBe(200);
        // The count is of the rows now, whatever the cursor; there is no page number to go on with.
        expect(res.body.page_count).toBe(Math.ceil(Number(await countTargets(c.campaignId)) / 4));
        expect(res.body.next_page).toBeNull();
        listed.push(...idsOf(res));
      }
      expect(deleted).toHaveLength(3);
      expect(listed).toEqual([...first.filter((id) => !deletedAhead.includes(id)), ...added]);

      // With a filter, the cursor walks the filtered order.
      const failed = first.filter((id, i) => i % 4 === 1 && !deletedAhead.includes(id));
      await t.sql(`UPDATE targets SET status = 'Failed' WHERE id = ANY($1::uuid[])`, [failed]);
      const walked: string[] = [];
      let cursor: string | undefined;
      do {
        const page = await c.list({ status: 'Failed', limit: 2, ...(cursor ? { cursor } : {}) });
        walked.push(...idsOf(page));
        cursor = page.body.next_cursor ?? undefined;
      } while (cursor);
      expect(walked).toEqual(failed);
    });

    it('a cursor that this service did not issue is a 422 at query.cursor', async () => {
      const c = await tenant();
      for (const cursor of [
        '!!',
        'bm90IGEgY3Vyc29y',
        Buffer.from(`12.${randomUUID()}x`).toString('base64url'),
      ]) {
        const res = await c.list({ cursor });
        expect([res.status, res.body]).toEqual([
          422,
          {
            detail: [
              {
                type: 'value_error',
                loc: ['query', 'cursor'],
                msg: 'Value error, invalid cursor',
                input: cursor,
                ctx: { error: {} },
              },
            ],
          },
        ]);
      }
    });

    it('the folding job folds the count rows appended since the last fold once they are more than 64 and an eighth of the folded ones; a list counts exactly either way', async () => {
      const c = await tenant();
      const ids: string[] = (await c.add({ targets: phones(40) })).body.target_ids;
      const rows = async () => {
        const [r] = await t.sql<{ appended: number; folded: number; sum: number; groups: number }>(
          `SELECT count(*) FILTER (WHERE NOT folded)::int AS appended,
                  count(*) FILTER (WHERE folded)::int AS folded, sum(delta)::int AS sum,
                  count(DISTINCT (status, category, resolution, due_minute, called))::int AS groups
             FROM target_count_deltas WHERE campaign_id = $1`,
          [c.campaignId],
        );
        return r;
      };
      const scheduledNow = async () =>
        Number(
          (
            await t.sql<{ n: string }>(
              `SELECT count(*) AS n FROM targets WHERE campaign_id = $1 AND status = 'Scheduled'`,
              [c.campaignId],
            )
          )[0].n,
        );
      // Each statement schedules one target a minute later than the last: a group (due minute) of
      // its own, and two rows appended (its old group -1, the new one +1).
      const schedule = (from: number, to: number) =>
        Promise.all(
          ids.slice(from, to).map((id, i) =>
            t.sql(
              `UPDATE targets SET status = 'Scheduled',
                      scheduled_time = timestamptz '2026-03-01T00:00:00Z' + $2 * interval '1 minute'
                WHERE id = $1`,
              [id, from + i],
            ),
          ),
        );
      await schedule(0, 30);
      // The insert's row and 60 appended: not due yet (the list reads them as they are).
      expect(await rows()).toEqual({ appended: 61, folded: 0, sum: 40, groups: 31 });
      expect((await c.list({ limit: 1, status: 'Scheduled' })).body.page_count).toBe(30);
      await fold();
      expect((await rows()).appended).toBe(61);
      await schedule(30, 33);
      // 67 appended: due; the list answers from them and leaves them, the job folds them, a row per
      // group.
      expect((await c.list({ limit: 1, status: 'Scheduled' })).body.page_count).toBe(33);
      expect((await rows()).appended).toBe(67);
      await fold();
      expect(await rows()).toEqual({ appended: 0, folded: 34, sum: 40, groups: 34 });
      await schedule(33, 40);
      expect([
        (await c.list({ limit: 1, status: 'Scheduled' })).body.page_count,
        (await c.list({ limit: 1 })).body.page_count,
        await scheduledNow(),
      ]).toEqual([40, 40, 40]);
      await fold();
      // 14 appended, under 64: kept as they are until more pile up (Pending's group, now summing to
      // zero, among them).
      expect(await rows()).toEqual({ appended: 14, folded: 34, sum: 40, groups: 41 });
    });

    it('page_count stays exact under concurrent adds, deletes, status moves and rollbacks', async () => {
      const c = await tenant();
      const statuses = ['Pending', 'Scheduled', 'Finished', 'Failed', 'To review'];
      const seed: string[] = (await c.add({ targets: phones(200) })).body.target_ids;
      // A creation window from just after the seed: the adds below land in it while it is listed.
      const [{ seeded }] = await t.sql<{ seeded: Date }>(
        `SELECT max(created_at) AS seeded FROM targets WHERE campaign_id = $1`,
        [c.campaignId],
      );
      const afterSeed = new Date(seeded.getTime() + 1).toISOString();
      await runConcurrently(
        c,
        seed,
        async (client, pick, k, round) => {
          await client.query(`UPDATE targets SET status = $2 WHERE id = ANY($1::uuid[])`, [
            pick(k + round),
            statuses[(k + round) % statuses.length],
          ]);
          await client.query(`UPDATE targets SET status = $2 WHERE id = ANY($1::uuid[])`, [
            pick(k + round + 1),
            statuses[(k + round + 2) % statuses.length],
          ]);
        },
        (round): Record<string, string | number> =>
          round % 2
            ? { limit: 100, status: statuses[round % statuses.length] }
            : round % 4
              ? { limit: 7, page: 5, from_date: afterSeed }
              : {},
      );

      const counts = await t.sql<{ status: string; n: string }>(
        `SELECT status, count(*) AS n FROM targets WHERE campaign_id = $1 GROUP BY status`,
        [c.campaignId],
      );
      const expected = new Map(counts.map((r) => [r.status, Number(r.n)]));
      const total = [...expected.values()].reduce((a, b) => a + b, 0);
      expect(total).toBe(200 + 100 - 50);
      expect((await c.list({ limit: 1 })).body.page_count).toBe(total);
      for (const status of statuses) {
        const res = await c.list({ limit: 1, status });
        expect([status, res.body.page_count]).toEqual([status, expected.get(status) ?? 0]);
      }
      // Every counter row of the campaign sums to what is there.
      const summed = await t.sql<{ n: string }>(
        `SELECT coalesce(sum(delta), 0) AS n FROM target_count_deltas WHERE campaign_id = $1`,
        [c.campaignId],
      );
      expect(Number(summed[0].n)).toBe(total);
      const { fromCounts, fromTargets } = await positionSpansAgainstTargets(c.campaignId);
      expect(fromCounts).toEqual(fromTargets);
      // Creation windows are counted from the position counts: exact too, a bound inside a span.
      const [{ at }] = await t.sql<{ at: Date }>(
        `SELECT created_at AS at FROM targets WHERE campaign_id = $1
          ORDER BY created_at, id OFFSET 120 LIMIT 1`,
        [c.campaignId],
      );
      const windows: { from_date?: string; to_date?: string }[] = [
        { from_date: at.toISOString() },
        { to_date: at.toISOString() },
        { from_date: afterSeed },
      ];
      for (const window of windows) {
        const [{ n }] = await t.sql<{ n: string }>(
          `SELECT count(*) AS n FROM targets WHERE campaign_id = $1
              AND created_at >= coalesce($2::timestamptz, '-infinity')
              AND created_at < coalesce($3::timestamptz + interval '1 millisecond', 'infinity')`,
          [c.campaignId, window.from_date ?? null, window.to_date ?? null],
        );
        const res = await c.list({ limit: 1, ...(window as Record<string, string>) });
        expect([window, res.body.page_count]).toEqual([window, Number(n)]);
      }
    });

    it('page_count stays exact for a last call bound, alone or with a status, under concurrent calls, clears, deletes and rollbacks', async () => {
      const c = await tenant();
      const statuses = ['Pending', 'Scheduled', 'Finished', 'Failed', 'To review'];
      // Calls land on 20 days from 2026-01-01, half a millisecond past midnight (rows carry
      // microseconds; the bounds are inclusive to the millisecond).
      const day = (d: number) => `2026-01-${String(1 + d).padStart(2, '0')}T00:00:00.0005Z`;
      const seed: string[] = (await c.add({ targets: phones(200) })).body.target_ids;
      // Deletes called targets too: the first 50 have a last call.
      await t.sql(`UPDATE targets SET last_call_date = $2 WHERE id = ANY($1::uuid[])`, [
        seed.slice(0, 50),
        day(5),
      ]);
      const bounds: Record<string, string>[] = [
        { from_last_call_date: '2026-01-02T00:00:00.000Z' }, // most called targets match
        { from_last_call_date: '2026-01-19T00:00:00.001Z' }, // few match
        { to_last_call_date: '2026-01-02T00:00:00.000Z' }, // few, including 00:00:00.0005 that day
        { to_last_call_date: '2026-01-19T00:00:00.000Z' }, // most
        { from_last_call_date: '2026-01-10' },
        { to_last_call_date: '2026-01-10' },
        // With a status, the status's own cells count.
        { status: 'Failed', from_last_call_date: '2026-01-02T00:00:00.000Z' },
        { status: 'Failed', from_last_call_date: '2026-01-19T00:00:00.001Z' },
        { status: 'Finished', to_last_call_date: '2026-01-02T00:00:00.000Z' },
        { status: 'Finished', to_last_call_date: '2026-01-19T00:00:00.000Z' },
        { status: 'Pending', from_last_call_date: '2026-01-10' },
        { status: 'To review', to_last_call_date: '2026-01-10' },
        // Windows: one ending a millisecond into a minute that holds calls, and a single day.
        {
          from_last_call_date: '2026-01-05T00:00:00.000Z',
          to_last_call_date: '2026-01-12T00:00:00.000Z',
        },
        { from_last_call_date: '2026-01-10', to_last_call_date: '2026-01-10' },
      ];
      // Movers place calls (set last_call_date, from null or again), clear it, and move statuses.
      await runConcurrently(
        c,
        seed,
        async (client, pick, k, round) => {
          await client.query(
            `UPDATE targets SET last_call_date = $2, status = $3 WHERE id = ANY($1::uuid[])`,
            [pick(k + round), day((k * 7 + round) % 20), statuses[(k + round) % statuses.length]],
          );
          await client.query(`UPDATE targets SET last_call_date = $2 WHERE id = ANY($1::uuid[])`, [
            pick(k + round + 1),
            round % 3 === 2 ? null : day((k + round * 3) % 20),
          ]);
        },
        (round) => ({ limit: 100, ...bounds[round % bounds.length] }),
      );
      // A hand-written UPDATE moving called targets' creation times keeps the deltas right too.
      await t.sql(
        `UPDATE targets SET created_at = created_at + interval '2 seconds' WHERE id = ANY($1::uuid[])`,
        [seed.slice(0, 20)],
      );

      const matching = async ({ status, ...bound }: Record<string, string>) => {
        const from = bound.from_last_call_date ?? null;
        const to = bound.to_last_call_date;
        // The service's bounds: a date-only upper bound is the day's last millisecond.
        const through = to && to.length === 10 ? `${to}T23:59:59.999Z` : (to ?? null);
        return lastCallMatches(c.campaignId, from, through, status ?? null);
      };
      const calledOf = async (status: string | undefined) =>
        Number(
          (
            await t.sql<{ n: string }>(
              `SELECT count(*) AS n FROM targets WHERE campaign_id = $1
                  AND last_call_date IS NOT NULL AND ($2::text IS NULL OR status = $2)`,
              [c.campaignId, status ?? null],
            )
          )[0].n,
        );
      const called = await calledOf(undefined);
      const listed = listedTarget;
      // Per bound: how many match, and how many called targets (of its status) it splits.
      const sizes: { n: number; of: number }[] = [];
      const aCursor = expect.any(String);
      for (const bound of bounds) {
        const matches = await matching(bound);
        const n = matches.length;
        sizes.push({ n, of: await calledOf(bound.status) });
        const res = await c.list({ limit: 1, ...bound });
        expect([bound, res.status, res.body]).toEqual([
          bound,
          200,
          {
            // A list shows a Target as the single read does, without its live waiting_reason.
            targets: n > 0 ? [listed((await c.get(matches[0])).body)] : [],
            page_count: n,
            next_page: n > 1 ? 1 : null,
            next_cursor: n > 1 ? aCursor : null,
          },
        ]);
        const patient = await c.list({ limit: 1, ...bound }, true);
        expect([bound, patient.body.page_count]).toEqual([bound, n]);
      }
      // With and without a status, some bounds match most called targets, some few.
      for (const withStatus of [false, true]) {
        const taken = sizes.filter((_, i) => (bounds[i].status !== undefined) === withStatus);
        expect([withStatus, taken.some(({ n, of }) => n > of / 2)]).toEqual([withStatus, true]);
        expect([withStatus, taken.some(({ n, of }) => n < of / 2)]).toEqual([withStatus, true]);
      }
      expect(called).toBeGreaterThan(0);
      // The called counters sum to what is there.
      const summed = await t.sql<{ n: string }>(
        `SELECT coalesce(sum(delta), 0) AS n FROM target_count_deltas
            WHERE campaign_id = $1 AND called`,
        [c.campaignId],
      );
      expect(Number(summed[0].n)).toBe(called);
      // And the last-call cells, per creation block and stretch of last calls.
      const { fromCells, fromTargets } = await lastCallCellsAgainstTargets(c.campaignId);
      expect(fromCells).toEqual(fromTargets);
    });

    it('last call bounds, with and without a status, count and list exactly over months of calls, folded into stretches that a bound cuts', async () => {
      const c = await tenant();
      // 9,000 targets, one call a minute, every third one Failed and the rest Finished: 9,000 cells,
      // then one block and one stretch once folded (9,000 calls fit in one of 16,384).
      const ids: string[] = (await c.add({ targets: phones(9000) })).body.target_ids;
      await t.sql(
        `UPDATE targets t SET last_call_date = timestamptz '2026-01-01T00:00:30Z' + n * interval '1 minute',
                status = CASE WHEN n % 3 = 0 THEN 'Failed' ELSE 'Finished' END
           FROM unnest($1::uuid[]) WITH ORDINALITY AS o(id, n) WHERE t.id = o.id`,
        [ids],
      );
      const minute = (n: number, second = 30) =>
        new Date(Date.parse('2026-01-01T00:00:00Z') + n * 60_000 + second * 1000).toISOString();
      const expectListed = async (
        cases: readonly (readonly [Record<string, string>, number])[],
      ) => {
        for (const [query, expected] of cases) {
          const matching = await lastCallMatches(
            c.campaignId,
            query.from_last_call_date ?? null,
            query.to_last_call_date ?? null,
            query.status ?? null,
          );
          const pages = Math.ceil(expected / 3);
          const middle = Math.floor(pages / 2);
          const first = await c.list({ ...query, limit: 3 });
          const inside = await c.list({ ...query, limit: 3, page: middle });
          const last = await c.list({ ...query, limit: 3, page: pages - 1 });
          expect([
            query,
            first.status,
            first.body.page_count,
            idsOf(first),
            idsOf(inside),
            idsOf(last),
          ]).toEqual([
            query,
            200,
            pages,
            matching.slice(0, 3),
            matching.slice(middle * 3, middle * 3 + 3),
            matching.slice((pages - 1) * 3),
          ]);
          expect([query, matching.length]).toEqual([query, expected]);
        }
      };
      const cases = [
        [{ from_last_call_date: minute(8990) }, 11],
        [{ to_last_call_date: minute(100, 29) }, 99],
        [{ from_last_call_date: minute(4500) }, 4501],
        [{ to_last_call_date: minute(4500) }, 4500],
        [{ from_last_call_date: minute(4500, 31), to_last_call_date: minute(4510) }, 10],
        [{ from_last_call_date: minute(100, 30) }, 8901],
        [{ to_last_call_date: minute(8990) }, 8990],
        [{ from_last_call_date: minute(10), to_last_call_date: minute(8990) }, 8981],
        [{ status: 'Failed', from_last_call_date: minute(4500) }, 1501],
        [{ status: 'Finished', to_last_call_date: minute(100, 29) }, 66],
        [
          { status: 'Failed', from_last_call_date: minute(10), to_last_call_date: minute(8990) },
          2993,
        ],
        [{ status: 'Finished', from_last_call_date: minute(8990) }, 7],
      ] as const;
      // Read as appended: a cell a minute.
      expect((await lastCallRows(c.campaignId)).stretches).toBe(9000);
      await expectListed(cases);
      // The lists left the cells as they were; the folding job folds them, a cell per status.
      expect((await lastCallRows(c.campaignId)).stretches).toBe(9000);
      await fold();
      expect(await lastCallRows(c.campaignId)).toEqual({ rows: 2, blocks: 1, stretches: 1 });
      await expectListed(cases);
      const { fromCells, fromTargets } = await lastCallCellsAgainstTargets(c.campaignId);
      expect(fromCells).toEqual(fromTargets);
    });

    it('last call bounds, with a status and a creation window or not, list exactly from many folded blocks and stretches, each cut read on either side', async () => {
      const c = await tenant();
      const ids: string[] = (await c.add({ targets: phones(3000) })).body.target_ids;
      // One target a second, last called in an order unlike the creation order (the 37n-th minute,
      // mod 3,000), every third one Failed and the rest Finished.
      await t.sql(
        `UPDATE targets t
            SET created_at = timestamptz '2026-02-01T00:00:00.25Z' + n * interval '1 second',
                last_call_date = timestamptz '2026-03-01T00:00:30Z' + ((n * 37) % 3000) * interval '1 minute',
                status = CASE WHEN n % 3 = 0 THEN 'Failed' ELSE 'Finished' END
           FROM unnest($1::uuid[]) WITH ORDINALITY AS o(id, n) WHERE t.id = o.id`,
        [ids],
      );
      // Folded as the service folds a large campaign, at sizes that give this one many blocks and
      // stretches.
      const sql = {
        query: async (text: string, params?: unknown[]) => {
          const rows = await t.sql(text, params);
          return { rows, rowCount: rows.length };
        },
      } as unknown as SqlExecutor;
      await compactLastCallCounts(sql, c.campaignId, { blockTargets: 256, stretchCalls: 128 });
      const folded = await lastCallRows(c.campaignId);
      expect([folded.blocks >= 10, folded.stretches >= 20]).toEqual([true, true]);
      const cellsMatch = async () => {
        const { fromCells, fromTargets } = await lastCallCellsAgainstTargets(c.campaignId);
        expect(fromCells).toEqual(fromTargets);
      };
      await cellsMatch();

      const minute = (n: number, second = 30) =>
        new Date(Date.parse('2026-03-01T00:00:00Z') + n * 60_000 + second * 1000).toISOString();
      const createdAt = (n: number) => new Date(Date.parse('2026-02-01T00:00:00.25Z') + n * 1000);
      const [, edge] = (
        await t.sql<{ at: Date }>(
          `SELECT DISTINCT called_from AS at FROM target_last_call_counts WHERE campaign_id = $1
            ORDER BY 1 OFFSET 5 LIMIT 2`,
          [c.campaignId],
        )
      ).map((r) => r.at);
      type Query = ListQuery;
      const matching = (query: Query) => idsMatching(t, c.campaignId, query);
      const bounds: Query[] = [
        // At a stretch's first minute, and just before it.
        { from_last_call_date: edge.toISOString() },
        { to_last_call_date: new Date(edge.getTime() - 1).toISOString() },
        // Inside stretches: near an edge (the smaller side inside) and mid-stretch.
        { from_last_call_date: minute(2995) },
        { to_last_call_date: minute(3, 29) },
        { from_last_call_date: minute(1000) },
        { to_last_call_date: minute(1000) },
        // Both ends inside one stretch, and a wide window cutting two.
        { from_last_call_date: minute(1500), to_last_call_date: minute(1505) },
        { from_last_call_date: minute(5), to_last_call_date: minute(2990) },
      ];
      const window = {
        from_date: createdAt(700).toISOString(),
        to_date: createdAt(2300).toISOString(),
      };
      const cases: Query[] = bounds.flatMap((bound) => [
        bound,
        { status: 'Failed', ...bound },
        { status: 'Finished', ...bound, ...window },
      ]);
      const expectListed = async () => {
        for (const query of cases) {
          const expected = await matching(query);
          const pages = Math.max(1, Math.ceil(expected.length / 7));
          const middle = Math.floor(pages / 2);
          const first = await c.list({ ...query, limit: 7 });
          const inside = await c.list({ ...query, limit: 7, page: middle });
          const last = await c.list({ ...query, limit: 7, page: pages - 1 });
          expect([query, first.body.page_count, idsOf(first), idsOf(inside), idsOf(last)]).toEqual([
            query,
            Math.ceil(expected.length / 7),
            expected.slice(0, 7),
            expected.slice(middle * 7, middle * 7 + 7),
            expected.slice((pages - 1) * 7, pages * 7),
          ]);
        }
      };
      await expectListed();
      // Some would match every bound, some none: both ends of the arithmetic are taken.
      expect((await matching(cases[6])).length).toBeGreaterThan(0);
      expect((await matching({ status: 'Failed', ...bounds[7] })).length).toBeGreaterThan(500);

      // Then 300 targets are called again after every other call and 150 more change status: cells
      // appended inside the folded blocks and stretches, and after them, read before any fold.
      await t.sql(
        `UPDATE targets SET last_call_date = timestamptz '2026-03-03T03:00:00Z' + (n % 50) * interval '1 minute'
           FROM unnest($1::uuid[]) WITH ORDINALITY AS o(id, n) WHERE targets.id = o.id`,
        [ids.filter((_, i) => i % 10 === 0)],
      );
      await t.sql(
        `UPDATE targets SET status = CASE status WHEN 'Failed' THEN 'Finished' ELSE 'Failed' END
          WHERE id = ANY($1::uuid[])`,
        [ids.filter((_, i) => i % 20 === 7)],
      );
      expect((await lastCallRows(c.campaignId)).rows).toBeGreaterThan(folded.rows);
      await expectListed();
      await cellsMatch();
    });

    it('right after one statement gives every target a status and a last call, statistics still from before it, creation and two-sided last-call windows count and list exactly', async () => {
      const c = await tenant();
      const ids: string[] = (await c.add({ targets: phones(2000) })).body.target_ids;
      await t.sql(
        `UPDATE targets t SET created_at = timestamptz '2026-02-01T00:00:00.25Z' + n * interval '1 second'
           FROM unnest($1::uuid[]) WITH ORDINALITY AS o(id, n) WHERE t.id = o.id`,
        [ids],
      );
      await fold();
      // Statistics of an all-Pending campaign with no calls (the planner's view until the next
      // analyze), then the change: a quarter each Failed, Finished, Scheduled and Pending, the first
      // three called in creation order, one a minute. The lists run before any fold or analyze.
      await t.sql('ANALYZE targets');
      await t.sql(
        `UPDATE targets t
            SET status = (ARRAY['Pending', 'Failed', 'Finished', 'Scheduled'])[1 + n % 4],
                last_call_date = CASE WHEN n % 4 > 0
                  THEN timestamptz '2026-03-01T00:00:30Z' + n * interval '1 minute' END
           FROM unnest($1::uuid[]) WITH ORDINALITY AS o(id, n) WHERE t.id = o.id`,
        [ids],
      );
      type Query = ListQuery;
      const matching = (query: Query) => idsMatching(t, c.campaignId, query);
      const minute = (n: number) =>
        new Date(Date.parse('2026-03-01T00:00:30Z') + n * 60_000).toISOString();
      const createdAt = (n: number) =>
        new Date(Date.parse('2026-02-01T00:00:00.25Z') + n * 1000).toISOString();
      const calls = { from_last_call_date: minute(500), to_last_call_date: minute(1500) };
      const cases: Query[] = [
        { from_date: createdAt(900), to_date: createdAt(1100), ...calls },
        { from_date: createdAt(100), to_date: createdAt(1900), ...calls },
        { from_date: '2025-02-01T00:00:00Z', to_date: '2027-02-01T00:00:00Z', ...calls },
        { status: 'Failed', from_date: createdAt(100), to_date: createdAt(1900), ...calls },
        { status: 'Scheduled', from_date: createdAt(300), to_date: createdAt(1700), ...calls },
        { status: 'Finished', to_last_call_date: minute(1000) },
      ];
      for (const query of cases) {
        const expected = await matching(query);
        const pages = Math.ceil(expected.length / 7);
        const middle = Math.floor(pages / 2);
        const first = await c.list({ ...query, limit: 7 });
        const inside = await c.list({ ...query, limit: 7, page: middle });
        const last = await c.list({ ...query, limit: 7, page: pages - 1 });
        let cursor = first.body.next_cursor;
        const walked = idsOf(first);
        while (cursor) {
          const next = await c.list({ ...query, limit: 50, cursor });
          walked.push(...idsOf(next));
          cursor = next.body.next_cursor;
        }
        expect([query, first.body.page_count, idsOf(inside), idsOf(last), walked]).toEqual([
          query,
          pages,
          expected.slice(middle * 7, middle * 7 + 7),
          expected.slice((pages - 1) * 7, pages * 7),
          expected,
        ]);
        expect(expected.length).toBeGreaterThan(100);
      }
    });

    it("a status with a last call bound counts that status's called targets, not the campaign's", async () => {
      const c = await tenant();
      const ids: string[] = (await c.add({ targets: phones(14) })).body.target_ids;
      const set = (at: string, status: string, some: string[]) =>
        t.sql(`UPDATE targets SET last_call_date = $2, status = $3 WHERE id = ANY($1::uuid[])`, [
          some,
          at,
          status,
        ]);
      // Failed: 9 called on the 10th, 1 on the 1st, 1 never. Scheduled: 2 called on the 1st, so the
      // campaign's called targets before the 2nd (3) are more than the Failed ones there (1).
      await set('2026-01-10T12:00:00Z', 'Failed', ids.slice(0, 9));
      await set('2026-01-01T12:00:00Z', 'Failed', ids.slice(9, 10));
      await t.sql(`UPDATE targets SET status = 'Failed' WHERE id = $1`, [ids[10]]);
      await set('2026-01-01T12:00:00Z', 'Scheduled', ids.slice(11, 13));
      for (const [query, expected] of [
        [{ status: 'Failed', from_last_call_date: '2026-01-02' }, ids.slice(0, 9)],
        [{ status: 'Failed', to_last_call_date: '2026-01-01' }, ids.slice(9, 10)],
        [{ status: 'Scheduled', from_last_call_date: '2026-01-01' }, ids.slice(11, 13)],
        [{ status: 'Pending', to_last_call_date: '2026-01-31' }, []],
      ] as const) {
        // One a page: page_count is the count.
        const counted = await c.list({ limit: 1, ...query });
        const listed = await c.list({ limit: 100, ...query });
        expect([
          query,
          counted.status,
          counted.body.page_count,
          listed.body.targets.map((x: any) => x.id),
        ]).toEqual([query, 200, expected.length, expected]);
      }
    });
  });

  describe('tenancy', () => {
    it('another organization can neither read, edit, list, add to nor delete from a campaign: 404', async () => {
      const owner = await tenant();
      const [id] = (
        await owner.add({ targets: [{ phone_number: '+15550100001', input_data: { a: 1 } }] })
      ).body.target_ids;
      const intruder = await tenant();
      const as = intruder.as;
      const campaign = `/api/v1/campaigns/${owner.campaignId}`;

      const get = await as(t.http().get(`/api/v1/targets/${id}`));
      expect([get.status, get.body]).toEqual([404, { detail: `Target ${id} not found` }]);
      const patch = await as(t.http().patch(`/api/v1/targets/${id}`)).send({
        input_data: { a: 2 },
        only_if_not_started: false,
      });
      expect([patch.status, patch.body]).toEqual([404, { detail: `Target ${id} not found` }]);
      const notFound = { detail: `Campaign ${owner.campaignId} not found` };
      for (const path of [`${campaign}/targets`, `${campaign}/patient/targets`]) {
        const list = await as(t.http().get(path));
        expect([list.status, list.body]).toEqual([404, notFound]);
      }
      const add = await as(t.http().post(`${campaign}/targets`)).send({
        targets: [{ phone_number: '+15550100002' }],
      });
      expect([add.status, add.body]).toEqual([404, notFound]);
      const del = await as(t.http().delete(`${campaign}/targets`)).send({ target_ids: [id] });
      expect([del.status, del.body]).toEqual([404, notFound]);
      // Through its own campaign, the intruder's delete does not reach the target either.
      expect((await intruder.remove([id])).body).toEqual({
        deleted: [],
        not_found: [id],
        skipped: [],
      });

      const owned = await owner.get(id);
      expect([owned.status, owned.body.input_data]).toEqual([200, { a: 1 }]);
    });

    it('malformed and unknown ids are 404, never 500', async () => {
      const c = await tenant();
      for (const id of ['not-a-uuid', '123', randomUUID(), "1' OR '1'='1"]) {
        const enc = encodeURIComponent(id);
        expect((await c.as(t.http().get(`/api/v1/targets/${enc}`))).status).toBe(404);
        expect(
          (await c.as(t.http().patch(`/api/v1/targets/${enc}`)).send({ input_data: {} })).status,
        ).toBe(404);
        expect((await c.as(t.http().get(`/api/v1/campaigns/${enc}/targets`))).status).toBe(404);
        expect(
          (
            await c
              .as(t.http().post(`/api/v1/campaigns/${enc}/targets`))
              .send({ targets: [{ phone_number: '+15550100001' }] })
          ).status,
        ).toBe(404);
      }
    });
  });

  describe('422 bodies', () => {
    it('missing, too_short and too_long on targets', async () => {
      const c = await tenant();
      const missing = await c.add({ launch: true });
      expect([missing.status, missing.body]).toEqual([
        422,
        {
          detail: [
            {
              type: 'missing',
              loc: ['body', 'targets'],
              msg: 'Field required',
              input: { launch: true },
            },
          ],
        },
      ]);
      const short = await c.add({ targets: [] });
      expect(short.body).toEqual({
        detail: [
          {
            type: 'too_short',
            loc: ['body', 'targets'],
            msg: 'List should have at least 1 item after validation, not 0',
            input: [],
            ctx: { field_type: 'List', min_length: 1, actual_length: 0 },
          },
        ],
      });
      const many = Array.from({ length: 10001 }, () => ({ phone_number: '+15550100001' }));
      const long = await c.add({ targets: many });
      expect(long.status).toBe(422);
      expect(long.body).toEqual({
        detail: [
          {
            type: 'too_long',
            loc: ['body', 'targets'],
            msg: 'List should have at most 10000 items after validation, not 10001',
            input: many,
            ctx: { field_type: 'List', max_length: 10000, actual_length: 10001 },
          },
        ],
      });
      expect(await countTargets(c.campaignId)).toBe(0);
    });

    it('value_error for bad phone numbers, uuid_parsing for a bad id, every error reported', async () => {
      const c = await tenant();
      const res = await c.add({
        targets: [
          { phone_number: '+1 555' },
          {
            phone_number: { value: 'call me', operating_hours: { funday: [] } },
            fallback_phone_number: 15550100,
          },
          { id: 'abc', phone_number: '+15550100001', input_data: 'x' },
          { external_id: 'no phone' },
        ],
        launch: 'maybe',
      });
      const rule =
        'phone number must be + followed by 7 to 15 digits (spaces, dashes, dots and parentheses are ignored)';
      expect(res.status).toBe(422);
      expect(res.body).toEqual({
        detail: [
          {
            type: 'value_error',
            loc: ['body', 'targets', 0, 'phone_number'],
            msg: `Value error, ${rule}`,
            input: '+1 555',
            ctx: { error: {} },
          },
          // The object form fails as a string and as TargetInputPhoneNumber: one error per union branch.
          {
            type: 'string_type',
            loc: ['body', 'targets', 1, 'phone_number', 'str'],
            msg: 'Input should be a valid string',
            input: { value: 'call me', operating_hours: { funday: [] } },
          },
          {
            type: 'extra_forbidden',
            loc: [
              'body',
              'targets',
              1,
              'phone_number',
              'TargetInputPhoneNumber',
              'operating_hours',
              'funday',
            ],
            msg: 'Extra inputs are not permitted',
            input: [],
          },
          {
            type: 'string_type',
            loc: ['body', 'targets', 1, 'fallback_phone_number', 'str'],
            msg: 'Input should be a valid string',
            input: 15550100,
          },
          {
            type: 'model_attributes_type',
            loc: ['body', 'targets', 1, 'fallback_phone_number', 'TargetInputPhoneNumber'],
            msg: 'Input should be a valid dictionary or object to extract fields from',
            input: 15550100,
          },
          {
            type: 'uuid_parsing',
            loc: ['body', 'targets', 2, 'id'],
            msg: 'Input should be a valid UUID, invalid length: expected length 32 for simple format, found 3',
            input: 'abc',
            ctx: { error: 'invalid length: expected length 32 for simple format, found 3' },
          },
          {
            type: 'dict_type',
            loc: ['body', 'targets', 2, 'input_data'],
            msg: 'Input should be a valid dictionary',
            input: 'x',
          },
          {
            type: 'missing',
            loc: ['body', 'targets', 3, 'phone_number'],
            msg: 'Field required',
            input: { external_id: 'no phone' },
          },
          {
            type: 'bool_parsing',
            loc: ['body', 'launch'],
            msg: 'Input should be a valid boolean, unable to interpret input',
            input: 'maybe',
          },
        ],
      });
    });

    it('json_invalid for malformed JSON and model_attributes_type for a body that is not an object', async () => {
      const c = await tenant();
      const malformed = await c
        .as(t.http().post(`/api/v1/campaigns/${c.campaignId}/targets`))
        .set('Content-Type', 'application/json')
        .send('{"targets": [');
      expect(malformed.status).toBe(422);
      expect(malformed.body).toEqual({
        detail: [
          {
            type: 'json_invalid',
            loc: ['body', 13],
            msg: 'JSON decode error',
            input: {},
            ctx: { error: expect.any(String) },
          },
        ],
      });
      for (const body of [[{ phone_number: '+15550100001' }], 'targets', 42]) {
        const res = await c
          .as(t.http().post(`/api/v1/campaigns/${c.campaignId}/targets`))
          .set('Content-Type', 'application/json')
          .send(JSON.stringify(body));
        expect([res.status, res.body]).toEqual([
          422,
          {
            detail: [
              {
                type: 'model_attributes_type',
                loc: ['body'],
                msg: 'Input should be a valid dictionary or object to extract fields from',
                input: body,
              },
            ],
          },
        ]);
      }
    });

    it('dict_type and missing on the input-data update, bool_parsing on its flag', async () => {
      const c = await tenant();
      const [id] = (await c.add({ targets: [{ phone_number: '+15550100001' }] })).body.target_ids;
      const notDict = await c.patch(id, { input_data: ['a'], only_if_not_started: 'sometimes' });
      expect([notDict.status, notDict.body]).toEqual([
        422,
        {
          detail: [
            {
              type: 'dict_type',
              loc: ['body', 'input_data'],
              msg: 'Input should be a valid dictionary',
              input: ['a'],
            },
            {
              type: 'bool_parsing',
              loc: ['body', 'only_if_not_started'],
              msg: 'Input should be a valid boolean, unable to interpret input',
              input: 'sometimes',
            },
          ],
        },
      ]);
      const missing = await c.patch(id, {});
      expect(missing.body).toEqual({
        detail: [
          { type: 'missing', loc: ['body', 'input_data'], msg: 'Field required', input: {} },
        ],
      });
      const nul = await c.patch(id, { input_data: { a: 'x\u0000y' } });
      expect(nul.body).toEqual({
        detail: [
          {
            type: 'value_error',
            loc: ['body', 'input_data', 'a'],
            msg: 'Value error, text must not contain NUL (\\u0000) characters',
            input: 'x\u0000y',
            ctx: { error: {} },
          },
        ],
      });
      // A lone surrogate, as JSON allows: jsonb would refuse it, so the request does.
      const surrogate = await c.add({
        targets: [{ phone_number: '+15550100001', external_id: 'a\ud800' }],
      });
      const error = 'text must be valid Unicode (no lone surrogate \\ud800-\\udfff escapes)';
      expect(surrogate.body).toEqual({
        detail: [
          {
            type: 'value_error',
            loc: ['body', 'targets', 0, 'external_id'],
            msg: `Value error, ${error}`,
            input: 'a\ud800',
            ctx: { error: {} },
          },
        ],
      });
    });

    it('int_parsing, ge/le, enum and date errors on the list queries', async () => {
      const c = await tenant();
      const statuses =
        "'Pending', 'Scheduled', 'In Progress', 'Post-processing', 'Finished', 'To review', 'Failed', 'Waiting' or 'SMS Scheduled'";
      for (const patient of [false, true]) {
        const res = await c.list(
          {
            page: 'abc',
            limit: '101',
            status: 'Done',
            from_date: '2026-13-01',
            to_last_call_date: 'yesterday-ish',
          },
          patient,
        );
        expect([res.status, res.body]).toEqual([
          422,
          {
            detail: [
              {
                type: 'int_parsing',
                loc: ['query', 'page'],
                msg: 'Input should be a valid integer, unable to parse string as an integer',
                input: 'abc',
              },
              {
                type: 'less_than_equal',
                loc: ['query', 'limit'],
                msg: 'Input should be less than or equal to 100',
                input: '101',
                ctx: { le: 100 },
              },
              {
                type: 'enum',
                loc: ['query', 'status'],
                msg: `Input should be ${statuses}`,
                input: 'Done',
                ctx: { expected: statuses },
              },
              {
                type: 'datetime_from_date_parsing',
                loc: ['query', 'from_date'],
                msg: 'Input should be a valid datetime or date, month value is outside expected range of 1-12',
                input: '2026-13-01',
                ctx: { error: 'month value is outside expected range of 1-12' },
              },
              {
                type: 'datetime_from_date_parsing',
                loc: ['query', 'to_last_call_date'],
                msg: 'Input should be a valid datetime or date, invalid character in year',
                input: 'yesterday-ish',
                ctx: { error: 'invalid character in year' },
              },
            ],
          },
        ]);
      }
    });

    it('delete: missing and list_type', async () => {
      const c = await tenant();
      const missing = await c
        .as(t.http().delete(`/api/v1/campaigns/${c.campaignId}/targets`))
        .send({});
      expect(missing.body).toEqual({
        detail: [
          { type: 'missing', loc: ['body', 'target_ids'], msg: 'Field required', input: {} },
        ],
      });
      const notList = await c.remove('abc');
      expect(notList.body).toEqual({
        detail: [
          {
            type: 'list_type',
            loc: ['body', 'target_ids'],
            msg: 'Input should be a valid list',
            input: 'abc',
          },
        ],
      });
      const items = await c.remove(['ok', 5]);
      expect(items.body).toEqual({
        detail: [
          {
            type: 'string_type',
            loc: ['body', 'target_ids', 1],
            msg: 'Input should be a valid string',
            input: 5,
          },
        ],
      });
    });
  });
});
