import { listedTarget } from '../support/target-bodies.js';
import { createTestApp, TestApp } from '../support/test-app.js';

const STEPS = [
  { friendly_id: 'labs', type: 'webhook', on_receive: 'merge' },
  { friendly_id: 'consent', type: 'webhook', on_receive: 'merge_and_schedule' },
  { friendly_id: 'ehr', type: 'ehr_event', on_receive: 'merge' },
  { friendly_id: 'ehr-go', type: 'ehr_event', on_receive: 'merge_and_schedule' },
];
const UNKNOWN_UUID = '6f1c1f7e-2b1a-4c55-9a57-0d3b7f0a1e11';

interface Ctx {
  apiKey: string;
  organizationId: string;
  campaignId: string;
}

describe('steps: webhook step, batch step, EHR events', () => {
  let t: TestApp;
  let phone = 0;

  beforeAll(async () => {
    // API role: no dispatcher runs, so a Scheduled target stays as the step left it.
    t = await createTestApp({ env: { ROLE: 'api' } });
  });
  afterAll(() => t.close());

  /** An organization and a campaign with the four steps; new targets wait at `entryStep` when given. */
  async function campaign(entryStep: string | null = 'labs'): Promise<Ctx> {
    const { apiKey, organizationId } = await t.createOrganization();
    const body = await t.createCampaign(apiKey, { steps: STEPS, entry_step: entryStep });
    return { apiKey, organizationId, campaignId: body.id };
  }

  async function addTargets(ctx: Ctx, targets: Record<string, unknown>[]): Promise<string[]> {
    const res = await t
      .http()
      .post(`/api/v1/campaigns/${ctx.campaignId}/targets`)
      .set('X-API-Key', ctx.apiKey)
      .send({
        targets: targets.map((x) => ({
          phone_number: `+1555${String(++phone).padStart(7, '0')}`,
          ...x,
        })),
      });
    expect(res.status).toBe(200);
    return res.body.target_ids;
  }

  async function read(ctx: Ctx, id: string) {
    const res = await t.http().get(`/api/v1/targets/${id}`).set('X-API-Key', ctx.apiKey);
    expect(res.status).toBe(200);
    // The step routes answer with the Target as the lists show it: without the single read's
    // waiting_reason (asserted in target-timeline.e2e-spec.ts) and recipient zones.
    return listedTarget(res.body);
  }

  const post = (ctx: Ctx, path: string, body: unknown) =>
    t
      .http()
      .post(`/api/v1/campaigns/${ctx.campaignId}${path}`)
      .set('X-API-Key', ctx.apiKey)
      .send(body as object);

  const keyIdOf = async (ctx: Ctx) =>
    (await t.sql(`SELECT id FROM api_keys WHERE organization_id = $1`, [ctx.organizationId]))[0].id;

  /** The target is due for the dispatcher (`Scheduled`, its time come): one row, else none. */
  const dueForDispatch = (targetId: string) =>
    t.sql(
      `SELECT id FROM targets WHERE id = $1 AND status = 'Scheduled' AND scheduled_time <= now()`,
      [targetId],
    );

  describe('POST /campaigns/{campaign_id}/targets/{target_id}/step/{friendly_id}', () => {
    it('merges one level deep and moves a target waiting at the step to Pending', async () => {
      const ctx = await campaign('labs');
      const [id] = await addTargets(ctx, [
        { external_id: 'p-1', input_data: { keep: 'k', replace: 1, nested: { a: 1, b: 2 } } },
      ]);
      const before = await read(ctx, id);
      expect(before).toMatchObject({ status: 'Waiting' });

      const res = await post(ctx, `/targets/${id}/step/labs`, {
        replace: 2,
        nested: { c: 3 },
        added: [1],
      });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        ...before,
        input_data: { keep: 'k', replace: 2, nested: { c: 3 }, added: [1] },
        status: 'Pending',
        updated_at: expect.any(String),
        pre_call_ehr_ids: {},
      });
      expect(await read(ctx, id)).toMatchObject({
        status: 'Pending',
        input_data: res.body.input_data,
      });

      const history = await t.sql(`SELECT * FROM target_step_events WHERE target_id = $1`, [id]);
      expect(history).toEqual([
        {
          id: expect.any(String),
          seq: expect.anything(),
          organization_id: ctx.organizationId,
          campaign_id: ctx.campaignId,
          target_id: id,
          kind: 'webhook',
          friendly_id: 'labs',
          event_type: null,
          data: { replace: 2, nested: { c: 3 }, added: [1] },
          api_key_id: await keyIdOf(ctx),
          received_at: expect.any(Date),
        },
      ]);
      expect(history[0].received_at.toISOString()).toBe(res.body.updated_at);
    });

    it('merge_and_schedule: the waiting target becomes Scheduled now, with its dispatch enqueued', async () => {
      const ctx = await campaign('consent');
      const [id] = await addTargets(ctx, [{ input_data: { a: 1 } }]);
      const before = await read(ctx, id);
      const res = await post(ctx, `/targets/${id}/step/consent`, { consent: true });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        ...before,
        input_data: { a: 1, consent: true },
        status: 'Scheduled',
        scheduled_time: res.body.updated_at,
        updated_at: expect.any(String),
        pre_call_ehr_ids: {},
      });
      expect(await dueForDispatch(id)).toHaveLength(1);
    });

    it('takes no body, an empty one or null as "the step happened": nothing merged, the target moves on', async () => {
      const ctx = await campaign('labs');
      const ids = await addTargets(ctx, [
        { input_data: { a: 1 } },
        { input_data: { a: 2 } },
        { input_data: { a: 3 } },
      ]);
      const sends = [
        (id: string) =>
          t.http().post(`/api/v1/campaigns/${ctx.campaignId}/targets/${id}/step/labs`),
        (id: string) =>
          t
            .http()
            .post(`/api/v1/campaigns/${ctx.campaignId}/targets/${id}/step/labs`)
            .set('Content-Type', 'application/json')
            .send(''),
        (id: string) =>
          t
            .http()
            .post(`/api/v1/campaigns/${ctx.campaignId}/targets/${id}/step/labs`)
            .set('Content-Type', 'application/json')
            .send('null'),
      ];
      for (const [i, id] of ids.entries()) {
        const before = await read(ctx, id);
        const res = await sends[i](id).set('X-API-Key', ctx.apiKey);
        expect(res.status).toBe(200);
        expect(res.body).toEqual({
          ...before,
          status: 'Pending',
          updated_at: expect.any(String),
          pre_call_ehr_ids: {},
        });
      }
      const history = await t.sql(
        `SELECT data FROM target_step_events WHERE target_id = ANY($1::uuid[])`,
        [ids],
      );
      expect(history).toEqual([{ data: {} }, { data: {} }, { data: {} }]);
    });

    it('only merges into a target that is not waiting at that step', async () => {
      const ctx = await campaign('labs');
      const [id] = await addTargets(ctx, [{ input_data: { a: 1 } }]);
      const res = await post(ctx, `/targets/${id}/step/consent`, { b: 2 });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        status: 'Waiting',
        input_data: { a: 1, b: 2 },
        scheduled_time: null,
      });
      expect(await dueForDispatch(id)).toEqual([]);

      const plain = await campaign(null);
      const [pending] = await addTargets(plain, [{}]);
      const again = await post(plain, `/targets/${pending}/step/consent`, { x: 1 });
      expect(again.body).toMatchObject({ status: 'Pending', input_data: { x: 1 } });
    });

    it('404 for an unknown campaign, step or target, and for another organization', async () => {
      const ctx = await campaign('labs');
      const [id] = await addTargets(ctx, [{}]);
      const other = await campaign('labs');
      const cases: [string, string, string][] = [
        [
          `/api/v1/campaigns/${UNKNOWN_UUID}/targets/${id}/step/labs`,
          ctx.apiKey,
          `Campaign ${UNKNOWN_UUID} not found`,
        ],
        [`/api/v1/campaigns/nope/targets/${id}/step/labs`, ctx.apiKey, 'Campaign nope not found'],
        [
          `/api/v1/campaigns/${ctx.campaignId}/targets/${id}/step/nope`,
          ctx.apiKey,
          "Step 'nope' not found in campaign",
        ],
        [
          `/api/v1/campaigns/${ctx.campaignId}/targets/${UNKNOWN_UUID}/step/labs`,
          ctx.apiKey,
          'Target not found',
        ],
        [
          `/api/v1/campaigns/${ctx.campaignId}/targets/not-a-uuid/step/labs`,
          ctx.apiKey,
          'Target not found',
        ],
        [
          `/api/v1/campaigns/${ctx.campaignId}/targets/${id}/step/labs`,
          other.apiKey,
          `Campaign ${ctx.campaignId} not found`,
        ],
        [
          `/api/v1/campaigns/${other.campaignId}/targets/${id}/step/labs`,
          other.apiKey,
          'Target not found',
        ],
      ];
      for (const [path, key, detail] of cases) {
        const res = await t.http().post(path).set('X-API-Key', key).send({ a: 1 });
        expect({ path, status: res.status, body: res.body }).toEqual({
          path,
          status: 404,
          body: { detail },
        });
      }
      expect(await read(ctx, id)).toMatchObject({ status: 'Waiting', input_data: {} });
    });

    it('422 for a body that is not an object, NUL characters, and an ehr_event step', async () => {
      const ctx = await campaign('labs');
      const [id] = await addTargets(ctx, [{}]);
      for (const body of [[1, 2], 'text', 3]) {
        const res = await t
          .http()
          .post(`/api/v1/campaigns/${ctx.campaignId}/targets/${id}/step/labs`)
          .set('X-API-Key', ctx.apiKey)
          .set('Content-Type', 'application/json')
          .send(JSON.stringify(body));
        expect(res.status).toBe(422);
        expect(res.body).toEqual({
          detail: [
            {
              type: 'dict_type',
              loc: ['body'],
              msg: 'Input should be a valid dictionary',
              input: body,
            },
          ],
        });
      }
      const nul = await post(ctx, `/targets/${id}/step/labs`, { a: 'x\u0000y' });
      expect(nul.status).toBe(422);
      expect(nul.body).toEqual({
        detail: [
          {
            type: 'value_error',
            loc: ['body', 'a'],
            msg: 'Value error, text must not contain NUL (\\u0000) characters',
            input: 'x\u0000y',
            ctx: { error: {} },
          },
        ],
      });
      let deep: Record<string, unknown> = { leaf: 1 };
      for (let i = 0; i < 70; i++) deep = { d: deep };
      const tooDeep = await post(ctx, `/targets/${id}/step/labs`, deep);
      expect(tooDeep.status).toBe(422);
      // Refused before parsing, at the brace that opens level 65 (each level is `{"d":`).
      expect(tooDeep.body.detail).toEqual([
        {
          type: 'json_invalid',
          loc: ['body', 64 * 5],
          msg: 'JSON decode error',
          input: {},
          ctx: { error: 'JSON must not be nested more than 64 levels deep' },
        },
      ]);
      const wrongKind = await post(ctx, `/targets/${id}/step/ehr`, { a: 1 });
      expect(wrongKind.status).toBe(422);
      const message =
        "step 'ehr' is a ehr_event step, not a webhook step: post its events to /api/v1/campaigns/{campaign_id}/ehr-event/ehr";
      expect(wrongKind.body).toEqual({
        detail: [
          {
            type: 'value_error',
            loc: ['path', 'friendly_id'],
            msg: `Value error, ${message}`,
            input: 'ehr',
            ctx: { error: {} },
          },
        ],
      });
      expect(await read(ctx, id)).toMatchObject({ status: 'Waiting', input_data: {} });
    });
  });

  describe('POST /campaigns/{campaign_id}/targets/step/{friendly_id}', () => {
    it('updates by id and external id in one batch, reports the rest by index, moves the waiting ones', async () => {
      const ctx = await campaign('consent');
      const [a, b, c] = await addTargets(ctx, [
        { external_id: 'ext-a', input_data: { keep: 1, n: { x: 1 } } },
        { external_id: 'ext-b' },
        { external_id: 'ext-c' },
      ]);
      const other = await campaign('consent');
      const [foreign] = await addTargets(other, [{ external_id: 'ext-f' }]);

      const res = await post(ctx, '/targets/step/consent', {
        updates: [
          { target_id: a, input_data: { n: { y: 2 }, v: 1 } },
          { external_id: 'ext-b', input_data: { v: 2 } },
          { target_id: UNKNOWN_UUID, input_data: { v: 3 } },
          { external_id: 'ext-zzz', input_data: { v: 4 } },
          { target_id: 'not-a-uuid', external_id: null, input_data: {} },
          { target_id: foreign, input_data: { v: 6 } },
          { external_id: 'ext-f', input_data: { v: 7 } },
          { target_id: c, external_id: 'ext-b', input_data: { v: 8 } },
          { target_id: a.toUpperCase(), external_id: 'ext-a', input_data: { v: 9, w: 9 } },
        ],
      });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        updated: 3,
        not_found: [
          { index: 2, target_id: UNKNOWN_UUID, external_id: null },
          { index: 3, target_id: null, external_id: 'ext-zzz' },
          { index: 4, target_id: 'not-a-uuid', external_id: null },
          { index: 5, target_id: foreign, external_id: null },
          { index: 6, target_id: null, external_id: 'ext-f' },
          { index: 7, target_id: c, external_id: 'ext-b' },
        ],
      });
      expect(await read(ctx, a)).toMatchObject({
        status: 'Scheduled',
        input_data: { keep: 1, n: { y: 2 }, v: 9, w: 9 },
      });
      expect(await read(ctx, b)).toMatchObject({ status: 'Scheduled', input_data: { v: 2 } });
      expect(await read(ctx, c)).toMatchObject({ status: 'Waiting', input_data: {} });
      expect(await read(other, foreign)).toMatchObject({ status: 'Waiting', input_data: {} });
      expect(await dueForDispatch(a)).toHaveLength(1);
      expect(await dueForDispatch(b)).toHaveLength(1);
      const history = await t.sql(
        `SELECT target_id, data FROM target_step_events WHERE campaign_id = $1 ORDER BY seq`,
        [ctx.campaignId],
      );
      expect(history).toEqual([
        { target_id: a, data: { n: { y: 2 }, v: 1 } },
        { target_id: b, data: { v: 2 } },
        { target_id: a, data: { v: 9, w: 9 } },
      ]);
    });

    it('merge: waiting targets move to Pending; others keep their status', async () => {
      const ctx = await campaign('labs');
      const [w1, w2] = await addTargets(ctx, [{ external_id: 'w1' }, { external_id: 'w2' }]);
      const plain = await read(ctx, w2);
      await post(ctx, `/targets/${w2}/step/labs`, {});
      const res = await post(ctx, '/targets/step/labs', {
        updates: [
          { external_id: 'w1', input_data: { x: 1 } },
          { external_id: 'w2', input_data: { x: 2 } },
        ],
      });
      expect(res.body).toEqual({ updated: 2, not_found: [] });
      expect(await read(ctx, w1)).toMatchObject({ status: 'Pending', input_data: { x: 1 } });
      expect(await read(ctx, w2)).toMatchObject({ status: 'Pending', input_data: { x: 2 } });
      expect(plain.status).toBe('Waiting');
      expect(await dueForDispatch(w1)).toEqual([]);
    });

    it('422 for 0 and 5001 updates, for an update naming no target, and for bad elements', async () => {
      const ctx = await campaign('labs');
      const empty = await post(ctx, '/targets/step/labs', { updates: [] });
      expect(empty.status).toBe(422);
      expect(empty.body).toEqual({
        detail: [
          {
            type: 'too_short',
            loc: ['body', 'updates'],
            msg: 'List should have at least 1 item after validation, not 0',
            input: [],
            ctx: { field_type: 'List', min_length: 1, actual_length: 0 },
          },
        ],
      });

      const tooMany = Array.from({ length: 5001 }, (_, i) => ({
        external_id: `e${i}`,
        input_data: {},
      }));
      const long = await post(ctx, '/targets/step/labs', { updates: tooMany });
      expect(long.status).toBe(422);
      expect(long.body).toEqual({
        detail: [
          {
            type: 'too_long',
            loc: ['body', 'updates'],
            msg: 'List should have at most 5000 items after validation, not 5001',
            input: tooMany,
            ctx: { field_type: 'List', max_length: 5000, actual_length: 5001 },
          },
        ],
      });

      const noId = await post(ctx, '/targets/step/labs', {
        updates: [
          { target_id: UNKNOWN_UUID, input_data: {} },
          { input_data: { a: 1 } },
          { target_id: null, external_id: null, input_data: {} },
          { external_id: 'x', input_data: 'nope' },
          { external_id: 5 },
          7,
        ],
      });
      expect(noId.status).toBe(422);
      const required = 'target_id or external_id is required';
      expect(noId.body).toEqual({
        detail: [
          {
            type: 'value_error',
            loc: ['body', 'updates', 1],
            msg: `Value error, ${required}`,
            input: { input_data: { a: 1 } },
            ctx: { error: {} },
          },
          {
            type: 'value_error',
            loc: ['body', 'updates', 2],
            msg: `Value error, ${required}`,
            input: { target_id: null, external_id: null, input_data: {} },
            ctx: { error: {} },
          },
          {
            type: 'dict_type',
            loc: ['body', 'updates', 3, 'input_data'],
            msg: 'Input should be a valid dictionary',
            input: 'nope',
          },
          {
            type: 'string_type',
            loc: ['body', 'updates', 4, 'external_id'],
            msg: 'Input should be a valid string',
            input: 5,
          },
          {
            type: 'missing',
            loc: ['body', 'updates', 4, 'input_data'],
            msg: 'Field required',
            input: { external_id: 5 },
          },
          // Element by element, as pydantic reports a list.
          {
            type: 'model_attributes_type',
            loc: ['body', 'updates', 5],
            msg: 'Input should be a valid dictionary or object to extract fields from',
            input: 7,
          },
        ],
      });

      const missing = await post(ctx, '/targets/step/labs', {});
      expect(missing.status).toBe(422);
      expect(missing.body).toEqual({
        detail: [{ type: 'missing', loc: ['body', 'updates'], msg: 'Field required', input: {} }],
      });
    });

    it('is all or nothing: a statement failing on one element mid-batch changes nothing', async () => {
      const ctx = await campaign('consent');
      const ids = await addTargets(ctx, [
        { external_id: 'f1', input_data: { v: 0 } },
        { external_id: 'f2', input_data: { v: 0 } },
        { external_id: 'f3', input_data: { v: 0 } },
      ]);
      // A database-level failure on the second element only: the statement aborts mid-way.
      await t.sql(`
        CREATE OR REPLACE FUNCTION steps_e2e_fail() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN RAISE EXCEPTION 'steps e2e: refused'; END $$`);
      await t.sql(`
        CREATE TRIGGER steps_e2e_fail BEFORE UPDATE ON targets FOR EACH ROW
        WHEN (NEW.input_data ? 'explode') EXECUTE FUNCTION steps_e2e_fail()`);
      try {
        const res = await post(ctx, '/targets/step/consent', {
          updates: [
            { external_id: 'f1', input_data: { v: 1 } },
            { external_id: 'f2', input_data: { explode: true } },
            { external_id: 'f3', input_data: { v: 3 } },
          ],
        });
        expect(res.status).toBe(500);
      } finally {
        await t.sql(`DROP TRIGGER steps_e2e_fail ON targets`);
        await t.sql(`DROP FUNCTION steps_e2e_fail()`);
      }
      for (const id of ids) {
        expect(await read(ctx, id)).toMatchObject({
          status: 'Waiting',
          input_data: { v: 0 },
          scheduled_time: null,
        });
        expect(await dueForDispatch(id)).toEqual([]);
      }
      expect(
        await t.sql(`SELECT id FROM target_step_events WHERE campaign_id = $1`, [ctx.campaignId]),
      ).toEqual([]);
    });

    it('accepts 5000 updates in one body', async () => {
      const ctx = await campaign('labs');
      const targets = Array.from({ length: 5000 }, (_, i) => ({ external_id: `bulk-${i}` }));
      await addTargets(ctx, targets);
      const updates = targets.map((x, i) => ({
        external_id: x.external_id,
        input_data: { i, note: 'x'.repeat(100) },
      }));
      const res = await post(ctx, '/targets/step/labs', { updates });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ updated: 5000, not_found: [] });
      const [counts] = await t.sql(
        `SELECT count(*) FILTER (WHERE status = 'Pending')::int AS pending,
                count(*) FILTER (WHERE (input_data->>'i')::int >= 0)::int AS merged
         FROM targets WHERE campaign_id = $1`,
        [ctx.campaignId],
      );
      expect(counts).toEqual({ pending: 5000, merged: 5000 });
    });

    it('404 for another organization, an unknown campaign or step; 422 for an ehr_event step', async () => {
      const ctx = await campaign('labs');
      await addTargets(ctx, [{ external_id: 'mine' }]);
      const other = await campaign('labs');
      const body = { updates: [{ external_id: 'mine', input_data: { x: 1 } }] };
      const foreign = await t
        .http()
        .post(`/api/v1/campaigns/${ctx.campaignId}/targets/step/labs`)
        .set('X-API-Key', other.apiKey)
        .send(body);
      expect(foreign.status).toBe(404);
      expect(foreign.body).toEqual({ detail: `Campaign ${ctx.campaignId} not found` });
      const unknownStep = await post(ctx, '/targets/step/nope', body);
      expect(unknownStep.status).toBe(404);
      expect(unknownStep.body).toEqual({ detail: "Step 'nope' not found in campaign" });
      const ehr = await post(ctx, '/targets/step/ehr', body);
      expect(ehr.status).toBe(422);
      expect(ehr.body.detail[0]).toMatchObject({
        type: 'value_error',
        loc: ['path', 'friendly_id'],
        input: 'ehr',
      });
    });
  });

  it('keeps keys named like Object.prototype members, in all three operations', async () => {
    const ctx = await campaign(null);
    const [id] = await addTargets(ctx, [{ external_id: 'proto' }]);
    const data = {
      constructor: 'c',
      toString: 1,
      __proto__x: 2,
      nested: { valueOf: { constructor: {} } },
    };
    const one = await post(ctx, `/targets/${id}/step/labs`, { ...data, one: true });
    expect(one.status).toBe(200);
    const batch = await post(ctx, '/targets/step/labs', {
      updates: [{ external_id: 'proto', input_data: { ...data, batch: true } }],
    });
    expect(batch.body).toEqual({ updated: 1, not_found: [] });
    const ehr = await post(ctx, '/ehr-event/ehr', {
      external_id: 'proto',
      event_data: { ...data, ehr: true },
    });
    expect(ehr.status).toBe(200);
    expect(ehr.body.target.input_data).toEqual({ ...data, one: true, batch: true, ehr: true });
  });

  describe('POST /campaigns/{campaign_id}/ehr-event/{friendly_id}', () => {
    it('stores the event, merges event_data, lists its id by type and moves the waiting target on', async () => {
      const ctx = await campaign('ehr-go');
      const [id] = await addTargets(ctx, [
        { patient: { external_id: 'mrn-1' }, input_data: { a: 1, n: { x: 1 } } },
      ]);
      const before = await read(ctx, id);

      const first = await post(ctx, '/ehr-event/ehr-go', {
        event_type: 'appointment_created',
        event_data: { n: { y: 1 }, appointment_at: '2026-04-02T09:00:00Z' },
        external_id: 'mrn-1',
      });
      expect(first.status).toBe(200);
      expect(first.body).toEqual({
        event_id: expect.any(String),
        target: {
          ...before,
          input_data: { a: 1, n: { y: 1 }, appointment_at: '2026-04-02T09:00:00Z' },
          status: 'Scheduled',
          scheduled_time: first.body.target.updated_at,
          updated_at: expect.any(String),
          pre_call_ehr_ids: { appointment_created: [first.body.event_id] },
        },
      });
      expect(await dueForDispatch(id)).toHaveLength(1);

      const second = await post(ctx, '/ehr-event/ehr', { target_id: id, event_data: { b: 2 } });
      expect(second.status).toBe(200);
      expect(second.body.target).toMatchObject({
        status: 'Scheduled',
        input_data: { a: 1, n: { y: 1 }, appointment_at: '2026-04-02T09:00:00Z', b: 2 },
        pre_call_ehr_ids: {
          appointment_created: [first.body.event_id],
          unknown: [second.body.event_id],
        },
      });
      expect(await dueForDispatch(id)).toHaveLength(1);

      const events = await t.sql(
        `SELECT * FROM target_step_events WHERE target_id = $1 ORDER BY seq`,
        [id],
      );
      const keyId = await keyIdOf(ctx);
      expect(events.map((e) => ({ ...e, seq: undefined, received_at: undefined }))).toEqual([
        {
          id: first.body.event_id,
          seq: undefined,
          organization_id: ctx.organizationId,
          campaign_id: ctx.campaignId,
          target_id: id,
          kind: 'ehr_event',
          friendly_id: 'ehr-go',
          event_type: 'appointment_created',
          data: { n: { y: 1 }, appointment_at: '2026-04-02T09:00:00Z' },
          api_key_id: keyId,
          received_at: undefined,
        },
        {
          id: second.body.event_id,
          seq: undefined,
          organization_id: ctx.organizationId,
          campaign_id: ctx.campaignId,
          target_id: id,
          kind: 'ehr_event',
          friendly_id: 'ehr',
          event_type: null,
          data: { b: 2 },
          api_key_id: keyId,
          received_at: undefined,
        },
      ]);
    });

    it('merge: a target waiting at the EHR step moves to Pending', async () => {
      const ctx = await campaign('ehr');
      const [id] = await addTargets(ctx, [{ external_id: 'mrn-2' }]);
      const res = await post(ctx, '/ehr-event/ehr', {
        event_type: 'patient_registered',
        external_id: 'mrn-2',
      });
      expect(res.status).toBe(200);
      expect(res.body.target).toMatchObject({
        id,
        status: 'Pending',
        input_data: {},
        pre_call_ehr_ids: { patient_registered: [res.body.event_id] },
      });
      expect(await read(ctx, id)).toMatchObject({ status: 'Pending', scheduled_time: null });
    });

    it('422 without a target reference, for a bad event_type or event_data, and for a webhook step', async () => {
      const ctx = await campaign('ehr');
      const noRef = await post(ctx, '/ehr-event/ehr', {
        event_type: 'appointment_created',
        event_data: { a: 1 },
      });
      expect(noRef.status).toBe(422);
      const required = 'target_id or external_id is required';
      expect(noRef.body).toEqual({
        detail: [
          {
            type: 'value_error',
            loc: ['body'],
            msg: `Value error, ${required}`,
            input: { event_type: 'appointment_created', event_data: { a: 1 } },
            ctx: { error: {} },
          },
        ],
      });

      const bad = await post(ctx, '/ehr-event/ehr', {
        event_type: 'visit',
        event_data: [1],
        external_id: 'x',
      });
      expect(bad.status).toBe(422);
      expect(bad.body).toEqual({
        detail: [
          {
            type: 'enum',
            loc: ['body', 'event_type'],
            msg: "Input should be 'appointment_created', 'appointment_cancelled' or 'patient_registered'",
            input: 'visit',
            ctx: {
              expected: "'appointment_created', 'appointment_cancelled' or 'patient_registered'",
            },
          },
          {
            type: 'dict_type',
            loc: ['body', 'event_data'],
            msg: 'Input should be a valid dictionary',
            input: [1],
          },
        ],
      });

      const bare = await post(ctx, '/ehr-event/ehr', { event_type: null });
      expect(bare.status).toBe(422);
      expect(bare.body.detail).toEqual([
        {
          type: 'value_error',
          loc: ['body'],
          msg: `Value error, ${required}`,
          input: { event_type: null },
          ctx: { error: {} },
        },
      ]);

      const webhookStep = await post(ctx, '/ehr-event/labs', { external_id: 'x' });
      expect(webhookStep.status).toBe(422);
      const message =
        "step 'labs' is a webhook step, not a ehr_event step: post its data to /api/v1/campaigns/{campaign_id}/targets/{target_id}/step/labs";
      expect(webhookStep.body).toEqual({
        detail: [
          {
            type: 'value_error',
            loc: ['path', 'friendly_id'],
            msg: `Value error, ${message}`,
            input: 'labs',
            ctx: { error: {} },
          },
        ],
      });
    });

    it('404 for an unknown target, another campaign or organization', async () => {
      const ctx = await campaign('ehr');
      const [id] = await addTargets(ctx, [{ external_id: 'mrn-3' }]);
      const other = await campaign('ehr');
      const cases: [Ctx, string, Record<string, unknown>, string][] = [
        [ctx, ctx.campaignId, { external_id: 'mrn-404' }, 'Target not found'],
        [ctx, ctx.campaignId, { target_id: UNKNOWN_UUID }, 'Target not found'],
        [ctx, ctx.campaignId, { target_id: 'x' }, 'Target not found'],
        [ctx, ctx.campaignId, { target_id: id, external_id: 'mrn-other' }, 'Target not found'],
        [other, other.campaignId, { target_id: id }, 'Target not found'],
        [other, ctx.campaignId, { external_id: 'mrn-3' }, `Campaign ${ctx.campaignId} not found`],
      ];
      for (const [who, campaignId, body, detail] of cases) {
        const res = await t
          .http()
          .post(`/api/v1/campaigns/${campaignId}/ehr-event/ehr`)
          .set('X-API-Key', who.apiKey)
          .send(body);
        expect({ body, status: res.status, response: res.body }).toEqual({
          body,
          status: 404,
          response: { detail },
        });
      }
      expect(await t.sql(`SELECT id FROM target_step_events WHERE target_id = $1`, [id])).toEqual(
        [],
      );
    });
  });
});
