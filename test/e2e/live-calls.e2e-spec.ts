import { randomBytes, randomUUID } from 'crypto';
import { createTestApp, TestApp, waitFor } from '../support/test-app.js';

const ACCOUNT_SID = `AC${'1'.repeat(32)}`;
const AUTH_TOKEN = 'f'.repeat(32);

/**
 * The reference's two read operations about calls: a campaign's required variables and the live-call
 * snapshot. Call logs in flight are written with SQL as the calling engine writes them; one call goes
 * through the real dispatcher and simulator.
 */
describe('campaign variables and live calls', () => {
  let t: TestApp;
  let phone = 0;

  beforeAll(async () => {
    t = await createTestApp({ env: { SECRETS_KEY: randomBytes(32).toString('base64') } });
  });
  afterAll(() => t?.close());

  // Ending in 1001 and up: numbers the simulator answers (its special endings are 0000-0005).
  const nextNumber = () => `+1555030${1000 + ++phone}`;

  async function tenant() {
    const { organizationId, apiKey } = await t.createOrganization();
    const get = (path: string, query: Record<string, string | number> = {}) =>
      t.http().get(path).query(query).set('X-API-Key', apiKey);
    return { organizationId, apiKey, get };
  }

  /** A call log as the dispatcher writes it when a call starts; ended when `ended` is given. */
  async function callLog(
    owner: { organizationId: string; campaignId: string; targetId: string; to: string },
    startedAt: string,
    ended?: { at: string; outcome: string; reason: string },
  ): Promise<number> {
    const [row] = await t.sql(
      `INSERT INTO call_logs (organization_id, campaign_id, target_id, attempt, to_number, from_number,
         provider, provider_call_id, started_at, ended_at, outcome, ended_reason, duration_seconds,
         call_categorization, transcripts, deadline_at)
       VALUES ($1, $2, $3, 1, $4, 'DeprecatedLocalTest', 'simulated', $5, $6, $7, $8, $9, $10, $11, $12, NULL)
       RETURNING id`,
      [
        owner.organizationId,
        owner.campaignId,
        owner.targetId,
        owner.to,
        `sim-${randomUUID()}`,
        startedAt,
        ended?.at ?? null,
        ended?.outcome ?? null,
        ended?.reason ?? null,
        ended ? 62 : null,
        ended ? { category: 'GOOD', detail: { confirmed: true } } : null,
        JSON.stringify(ended ? [{ role: 'agent', message: 'Hello' }] : []),
      ],
    );
    return Number(row.id);
  }

  describe('GET /api/v1/campaigns/{campaign_id}/variables', () => {
    it("lists the variables of the campaign's TwiML template and the awaiting targets lacking each", async () => {
      const o = await tenant();
      const connection = await t
        .http()
        .post('/api/v1/provider-connections')
        .set('X-API-Key', o.apiKey)
        .send({
          type: 'twilio',
          name: 'Twilio',
          credentials: { account_sid: ACCOUNT_SID, auth_token: AUTH_TOKEN },
          settings: {
            from_number: '+15550100000',
            twiml_template:
              '<Response><Say>Hello {{input_data.patient.first_name}}, your visit on ' +
              '{{ input_data.appointment }} with {{input_data.patient.first_name}}.</Say></Response>',
          },
        });
      expect([connection.status, connection.body]).toEqual([201, expect.anything()]);
      const campaign = await t.createCampaign(o.apiKey, {
        provider_connection_id: connection.body.id,
        sms_follow_up: {
          on_categories: ['VOICEMAIL'],
          template:
            'Hi {{input_data.patient.first_name}}, call us back at {{input_data.clinic_phone}}.',
          after: 'each_attempt',
        },
      });
      const ids = await t.addTargets(o.apiKey, campaign.id, {
        targets: [
          {
            phone_number: nextNumber(),
            input_data: { patient: { first_name: 'Ada' }, appointment: 'Tuesday' },
          },
          { phone_number: nextNumber(), input_data: { appointment: 'Monday' } },
          {
            phone_number: nextNumber(),
            input_data: { patient: { first_name: 'Grace' }, appointment: null },
          },
          { phone_number: nextNumber(), input_data: {} },
        ],
      });
      // A finished target is not called again: it is not checked.
      await t.sql(`UPDATE targets SET status = 'Finished' WHERE id = $1`, [ids[3]]);

      const res = await o.get(`/api/v1/campaigns/${campaign.id}/variables`);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        campaign_id: campaign.id,
        provider_connection_id: connection.body.id,
        targets_checked: 3,
        variables: [
          {
            name: 'input_data.patient.first_name',
            used_in: ['provider_connection.twiml_template', 'sms_follow_up.template'],
            targets_missing: 1,
            missing_target_ids: [ids[1]],
          },
          {
            name: 'input_data.appointment',
            used_in: ['provider_connection.twiml_template'],
            targets_missing: 1,
            missing_target_ids: [ids[2]],
          },
          {
            name: 'input_data.clinic_phone',
            used_in: ['sms_follow_up.template'],
            targets_missing: 3,
            missing_target_ids: [ids[0], ids[1], ids[2]],
          },
        ],
      });
    });

    it('a campaign the simulator calls needs no variables; another organization’s campaign is 404', async () => {
      const o = await tenant();
      const campaign = await t.createCampaign(o.apiKey);
      await t.addTargets(o.apiKey, campaign.id, { targets: [{ phone_number: nextNumber() }] });
      const res = await o.get(`/api/v1/campaigns/${campaign.id}/variables`);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        campaign_id: campaign.id,
        provider_connection_id: null,
        targets_checked: 1,
        variables: [],
      });

      const stranger = await tenant();
      const foreign = await stranger.get(`/api/v1/campaigns/${campaign.id}/variables`);
      const unknown = await o.get(`/api/v1/campaigns/${randomUUID()}/variables`);
      const notUuid = await o.get(`/api/v1/campaigns/not-a-uuid/variables`);
      for (const r of [foreign, unknown, notUuid]) {
        expect(r.status).toBe(404);
        expect(r.body).toEqual({ detail: expect.stringMatching(/^Campaign .* not found$/) });
      }
    });
  });

  describe('GET /api/v1/live-calls', () => {
    it('finds a call in flight first, else the latest ended, by id, number or variable; flat, org-scoped', async () => {
      const o = await tenant();
      const campaign = await t.createCampaign(o.apiKey);
      const to = nextNumber();
      const [targetId] = await t.addTargets(o.apiKey, campaign.id, {
        targets: [
          {
            phone_number: to,
            external_id: 'MRN-9',
            input_data: {
              patient: { mrn: 'M-77' },
              clinic: 'North',
              visits: 3,
              tags: ['new', { code: 7, none: null, empty: {} }, []],
              notes: {},
            },
          },
        ],
      });
      const owner = { organizationId: o.organizationId, campaignId: campaign.id, targetId, to };
      const ended = await callLog(owner, '2026-03-01T10:00:00.000Z', {
        at: '2026-03-01T10:01:02.000Z',
        outcome: 'GOOD',
        reason: 'customer-ended-call',
      });

      const endedSnapshot = {
        source: 'call_logs',
        call_log_id: ended,
        user_phone_number: to,
        from_: 'DeprecatedLocalTest',
        created_at: expect.any(String),
        call_length: '00:01:02',
        call_ended_reason: 'customer-ended-call',
        'call_categorization.category': 'GOOD',
        'call_categorization.detail.confirmed': true,
        campaign_target_id: targetId,
        post_call_data: null,
        qa: null,
        'transcripts.0.role': 'agent',
        'transcripts.0.message': 'Hello',
        campaign_id: campaign.id,
        attempt: 1,
        provider: 'simulated',
        provider_call_id: expect.stringMatching(/^sim-/),
        outcome: 'GOOD',
        started_at: '2026-03-01T10:00:00.000Z',
        ended_at: '2026-03-01T10:01:02.000Z',
        target_status: 'Pending',
        external_id: 'MRN-9',
        'input_data.patient.mrn': 'M-77',
        'input_data.clinic': 'North',
        'input_data.visits': 3,
        'input_data.tags.0': 'new',
        'input_data.tags.1.code': 7,
        'input_data.tags.1.none': null,
      };
      for (const query of <Record<string, string | number>[]>[
        { call_log_id: ended },
        { user_phone_number: to },
        { key: 'patient.mrn', value: 'M-77' },
        { key: 'visits', value: '3' },
      ]) {
        const res = await o.get('/api/v1/live-calls', query);
        expect([res.status, res.body]).toEqual([200, endedSnapshot]);
      }

      // A call in flight comes first, even when it started before the ended one.
      const live = await callLog(owner, '2026-03-01T09:00:00.000Z');
      const byNumber = await o.get('/api/v1/live-calls', {
        user_phone_number: to.replace(/^(\+1)(\d{3})(\d{3})/, '$1 ($2) $3-'),
      });
      expect(byNumber.status).toBe(200);
      const {
        'call_categorization.category': _category,
        'call_categorization.detail.confirmed': _confirmed,
        'transcripts.0.role': _role,
        'transcripts.0.message': _message,
        ...endedKeys
      } = endedSnapshot;
      const liveSnapshot = {
        ...endedKeys,
        source: 'live_calls',
        call_log_id: live,
        call_length: '00:00:00',
        call_ended_reason: 'in-progress',
        call_categorization: null,
        outcome: null,
        started_at: '2026-03-01T09:00:00.000Z',
        ended_at: null,
      };
      // Key by key, so a key given as undefined could not pass for an absent one.
      expect(Object.keys(byNumber.body).sort()).toEqual(Object.keys(liveSnapshot).sort());
      expect(byNumber.body).toEqual(liveSnapshot);
      expect((await o.get('/api/v1/live-calls', { key: 'clinic', value: 'North' })).body).toEqual(
        byNumber.body,
      );
      // The first lookup given wins: call_log_id before the others.
      const first = await o.get('/api/v1/live-calls', {
        call_log_id: ended,
        user_phone_number: to,
      });
      expect(first.body.call_log_id).toBe(ended);

      // Another organization sees none of it.
      const stranger = await tenant();
      for (const query of <Record<string, string | number>[]>[
        { call_log_id: live },
        { user_phone_number: to },
        { key: 'clinic', value: 'North' },
      ]) {
        const res = await stranger.get('/api/v1/live-calls', query);
        expect([res.status, res.body]).toEqual([404, { detail: 'Live call not found' }]);
      }
      const nothing = await o.get('/api/v1/live-calls', { key: 'clinic', value: 'South' });
      expect([nothing.status, nothing.body]).toEqual([404, { detail: 'Live call not found' }]);
    });

    it("a key limited to campaigns finds only its campaigns' calls: another campaign's is not found", async () => {
      const o = await tenant();
      const mine = await t.createCampaign(o.apiKey, { name: 'Mine' });
      const theirs = await t.createCampaign(o.apiKey, { name: 'Theirs' });
      // One person, one number and one input value in both campaigns; called in mine first, then
      // in theirs (a call still in flight there, which an unlimited key sees first).
      const to = nextNumber();
      const target = { phone_number: to, input_data: { mrn: 'M-5' } };
      const [myTarget] = await t.addTargets(o.apiKey, mine.id, { targets: [target] });
      const [theirTarget] = await t.addTargets(o.apiKey, theirs.id, { targets: [target] });
      const ended = {
        at: '2026-03-01T10:01:02.000Z',
        outcome: 'GOOD',
        reason: 'customer-ended-call',
      };
      const myCall = await callLog(
        { organizationId: o.organizationId, campaignId: mine.id, targetId: myTarget, to },
        '2026-03-01T10:00:00.000Z',
        ended,
      );
      const theirCall = await callLog(
        { organizationId: o.organizationId, campaignId: theirs.id, targetId: theirTarget, to },
        '2026-03-01T11:00:00.000Z',
      );
      const created = await t
        .http()
        .post('/api/v1/api-keys')
        .set('X-API-Key', o.apiKey)
        .send({ name: 'mine only', role: 'viewer', campaign_ids: [mine.id] });
      expect(created.status).toBe(201);
      const scoped = (query: Record<string, string | number>) =>
        t.http().get('/api/v1/live-calls').query(query).set('X-API-Key', created.body.key);
      const lookups: Record<string, string | number>[] = [
        { user_phone_number: to },
        { key: 'mrn', value: 'M-5' },
      ];
      for (const query of lookups) {
        const all = await o.get('/api/v1/live-calls', query);
        const limited = await scoped(query);
        expect([query, all.status, all.body.call_log_id, all.body.campaign_id]).toEqual([
          query,
          200,
          theirCall,
          theirs.id,
        ]);
        // The limited key's answer is the same snapshot the unlimited key gets for that call.
        const own = await o.get('/api/v1/live-calls', { call_log_id: myCall });
        expect([query, limited.status, limited.body]).toEqual([query, 200, own.body]);
        expect(limited.body).toMatchObject({
          source: 'call_logs',
          call_log_id: myCall,
          campaign_id: mine.id,
          campaign_target_id: myTarget,
        });
      }
      expect((await scoped({ call_log_id: myCall })).body.call_log_id).toBe(myCall);
      // Another campaign's call, by id, and by a value held only there: as if there were none.
      const elsewhere = nextNumber();
      const [onlyTheirs] = await t.addTargets(o.apiKey, theirs.id, {
        targets: [{ phone_number: elsewhere, input_data: { mrn: 'M-6' } }],
      });
      await callLog(
        {
          organizationId: o.organizationId,
          campaignId: theirs.id,
          targetId: onlyTheirs,
          to: elsewhere,
        },
        '2026-03-01T12:00:00.000Z',
      );
      for (const query of <Record<string, string | number>[]>[
        { call_log_id: theirCall },
        { key: 'mrn', value: 'M-6' },
        { user_phone_number: elsewhere },
      ]) {
        expect((await o.get('/api/v1/live-calls', query)).status).toBe(200);
        const res = await scoped(query);
        expect([query, res.status, res.body]).toEqual([
          query,
          404,
          { detail: 'Live call not found' },
        ]);
      }
    });

    it('snapshots a call the simulator made, found by its target’s variable', async () => {
      const o = await tenant();
      const campaign = await t.createCampaign(o.apiKey);
      const [targetId] = await t.addTargets(o.apiKey, campaign.id, {
        targets: [{ phone_number: nextNumber(), input_data: { ticket: 'T-5' } }],
        launch: true,
      });
      await waitFor(
        () => t.sql(`SELECT status FROM targets WHERE id = $1`, [targetId]),
        (rows) => rows[0].status === 'Finished',
        30_000,
      );
      const [log] = await t.sql(`SELECT id FROM call_logs WHERE target_id = $1`, [targetId]);
      const res = await o.get('/api/v1/live-calls', { key: 'ticket', value: 'T-5' });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        source: 'call_logs',
        call_log_id: Number(log.id),
        campaign_target_id: targetId,
        target_status: 'Finished',
        'input_data.ticket': 'T-5',
        outcome: 'GOOD',
      });
      // One level: every value is a string, number, boolean or null.
      const nested = Object.entries(res.body).filter(
        ([, value]) => typeof value === 'object' && value !== null,
      );
      expect(nested).toEqual([]);
    });

    it('422 without a lookup, for a key without a value, a bad call_log_id or phone number', async () => {
      const o = await tenant();
      const cases: [Record<string, string>, unknown[]][] = [
        [
          {},
          [
            {
              type: 'value_error',
              loc: ['query'],
              msg: 'Value error, Give call_log_id, user_phone_number, or key and value',
              input: {},
              ctx: { error: {} },
            },
          ],
        ],
        [
          { key: 'mrn' },
          [
            {
              type: 'value_error',
              loc: ['query'],
              msg: 'Value error, key and value go together: give both or neither',
              input: { key: 'mrn' },
              ctx: { error: {} },
            },
          ],
        ],
        [
          { call_log_id: 'abc' },
          [
            {
              type: 'int_parsing',
              loc: ['query', 'call_log_id'],
              msg: 'Input should be a valid integer, unable to parse string as an integer',
              input: 'abc',
            },
          ],
        ],
        [
          { user_phone_number: '12' },
          [
            {
              type: 'value_error',
              loc: ['query', 'user_phone_number'],
              msg: 'Value error, phone number must be + followed by 7 to 15 digits (spaces, dashes, dots and parentheses are ignored)',
              input: '12',
              ctx: { error: {} },
            },
          ],
        ],
      ];
      for (const [query, detail] of cases) {
        const res = await o.get('/api/v1/live-calls', query);
        expect([res.status, res.body]).toEqual([422, { detail }]);
      }
    });
  });
});
