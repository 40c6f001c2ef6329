import { createTestApp, TestApp } from '../support/test-app.js';
import { freshTargetBody } from '../support/target-bodies.js';

const BASE = 'http://localhost:3000';
const PHONE_RULE =
  'Value error, phone number must be + followed by 7 to 15 digits (spaces, dashes, dots and parentheses are ignored)';
const ISO = expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);

/**
 * Patients by name and numbers as people write them (issue 44): the target's patient on the reads,
 * the search of a campaign's targets, national numbers read in the organization's or the campaign's
 * country on the add and the do-not-call list. ROLE=api: nothing is called.
 */
describe('patients by name and national numbers', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { ROLE: 'api' } });
  });
  afterAll(() => t.close());

  async function tenant(campaign: Record<string, unknown> = {}) {
    const { organizationId, apiKey } = await t.createOrganization();
    const { id: campaignId } = await t.createCampaign(apiKey, campaign);
    const as = (req: any) => req.set('X-API-Key', apiKey);
    return {
      organizationId,
      apiKey,
      campaignId,
      as,
      add: (targets: unknown[], id = campaignId) =>
        as(t.http().post(`/api/v1/campaigns/${id}/targets`)).send({ targets }),
      get: (id: string) => as(t.http().get(`/api/v1/targets/${id}`)),
      list: (query: Record<string, string | number> = {}) =>
        as(t.http().get(`/api/v1/campaigns/${campaignId}/targets`)).query(query),
      policy: () => as(t.http().get('/api/v1/compliance/policy')),
      putPolicy: (body: Record<string, unknown>) =>
        as(t.http().put('/api/v1/compliance/policy')).send({
          quiet_hours: { start: '08:00', end: '21:00' },
          state_rules: true,
          max_calls_per_number: { per_24h: null, per_7d: null },
          restricted_dates: [],
          default_time_zone: 'America/New_York',
          ...body,
        }),
    };
  }

  const times = async (id: string) => {
    const [row] = await t.sql('SELECT created_at, updated_at FROM targets WHERE id = $1', [id]);
    return {
      created_at: row.created_at.toISOString(),
      updated_at: row.updated_at.toISOString(),
      scheduled_time: null,
    };
  };

  it('reads national numbers in the US by default and answers the stored E.164 form with the patient', async () => {
    const c = await tenant();
    const added = await c.add([
      {
        phone_number: '(617) 253-1217',
        fallback_phone_number: { value: '808.956.8111' },
        patient: {
          first_name: 'Maria',
          last_name: 'Lopez',
          date_of_birth: '1962-03-14',
          external_id: 'MRN-1007',
          phone_number: '617-253-1217',
          extra_data: { room: 4 },
        },
      },
      { phone_number: '1 213 555 0123', external_id: 'MRN-1008' },
    ]);
    expect(added.status).toBe(200);
    const [maria, other] = added.body.target_ids;

    const read = await c.get(maria);
    expect(read.body).toEqual({
      ...freshTargetBody(c, maria, BASE),
      phone_number: '+16172531217',
      external_id: 'MRN-1007',
      patient: {
        first_name: 'Maria',
        last_name: 'Lopez',
        date_of_birth: '1962-03-14',
        external_id: 'MRN-1007',
      },
      ...(await times(maria)),
      waiting_reason: 'not launched: trigger calls or add with launch=true',
      time_zones: ['America/New_York'],
      time_zone_source: 'phone_number',
      region: 'Cambridge, MA',
    });
    const [row] = await t.sql('SELECT fallback_phone_number FROM targets WHERE id = $1', [maria]);
    expect(row.fallback_phone_number).toBe('+18089568111');

    const list = await c.list();
    expect(list.body.targets).toEqual([
      {
        ...freshTargetBody(c, maria, BASE),
        phone_number: '+16172531217',
        external_id: 'MRN-1007',
        patient: read.body.patient,
        ...(await times(maria)),
      },
      {
        ...freshTargetBody(c, other, BASE),
        phone_number: '+12135550123',
        external_id: 'MRN-1008',
        ...(await times(other)),
      },
    ]);
  });

  it('refuses a number that cannot be real with its value and libphonenumber’s reason, at the field', async () => {
    const c = await tenant();
    const refused = async (targets: unknown[]) => {
      const res = await c.add(targets);
      expect(res.status).toBe(422);
      return res.body;
    };
    expect(await refused([{ phone_number: '617-253-121' }])).toEqual({
      detail: [
        {
          type: 'value_error',
          loc: ['body', 'targets', 0, 'phone_number'],
          msg: 'Value error, 617-253-121 is too short for a number in US',
          input: '617-253-121',
          ctx: { error: {} },
        },
      ],
    });
    expect(
      await refused([
        { phone_number: '+16172531217' },
        { phone_number: { value: '(555) 010-0000' } },
      ]),
    ).toEqual({
      detail: [
        {
          type: 'value_error',
          loc: ['body', 'targets', 1, 'phone_number', 'value'],
          msg: 'Value error, (555) 010-0000 is not a valid number in US: area code 555 or its exchange is not in use',
          input: '(555) 010-0000',
          ctx: { error: {} },
        },
      ],
    });
    expect(await refused([{ phone_number: '6172531217777' }])).toEqual({
      detail: [
        {
          type: 'value_error',
          loc: ['body', 'targets', 0, 'phone_number'],
          msg: 'Value error, 6172531217777 is too long for a number in US',
          input: '6172531217777',
          ctx: { error: {} },
        },
      ],
    });
    expect(await t.sql('SELECT id FROM targets WHERE campaign_id = $1', [c.campaignId])).toEqual(
      [],
    );
  });

  it('tells a seven-digit local number to add its area code, on the add and the do-not-call list', async () => {
    const c = await tenant();
    const added = await c.add([
      { phone_number: '253-1217' },
      { phone_number: { value: '(253) 1217' } },
      { phone_number: '+1 617 253 1217' },
    ]);
    expect([added.status, added.body]).toEqual([
      422,
      {
        detail: [
          {
            type: 'value_error',
            loc: ['body', 'targets', 0, 'phone_number'],
            msg: `${PHONE_RULE}: 253-1217 has only 7 digits, add the area code`,
            input: '253-1217',
            ctx: { error: {} },
          },
          {
            type: 'value_error',
            loc: ['body', 'targets', 1, 'phone_number'],
            msg: `${PHONE_RULE}: (253) 1217 has only 7 digits, add the area code`,
            input: { value: '(253) 1217' },
            ctx: { error: {} },
          },
        ],
      },
    ]);
    const url = '/api/v1/compliance/do-not-call';
    const listed = await c
      .as(t.http().post(url))
      .send({ phone_numbers: [{ phone_number: '253 1217', reason: 'asked by letter' }] });
    expect([listed.status, listed.body]).toEqual([
      422,
      {
        detail: [
          {
            type: 'value_error',
            loc: ['body', 'phone_numbers', 0, 'phone_number'],
            msg: `${PHONE_RULE}: 253 1217 has only 7 digits, add the area code`,
            input: '253 1217',
            ctx: { error: {} },
          },
        ],
      },
    ]);
    const unlisted = await c
      .as(t.http().delete(url))
      .send({ phone_numbers: ['253.1217'], reason: 'consent given again' });
    expect([unlisted.status, unlisted.body]).toEqual([
      422,
      {
        detail: [
          {
            type: 'value_error',
            loc: ['body', 'phone_numbers', 0],
            msg: `${PHONE_RULE}: 253.1217 has only 7 digits, add the area code`,
            input: '253.1217',
            ctx: { error: {} },
          },
        ],
      },
    ]);
  });

  it('reads them in the organization’s default country, and a campaign’s own country first', async () => {
    const c = await tenant();
    expect((await c.policy()).body.default_country).toBe('US');
    const london = '020 7946 0958';
    expect((await c.add([{ phone_number: london }])).body.detail[0].msg).toBe(
      'Value error, 020 7946 0958 is too long for a number in US',
    );

    const gb = await c.putPolicy({ default_country: 'GB' });
    expect(gb.status).toBe(200);
    expect(gb.body.default_country).toBe('GB');
    // A PUT without the field (a client that predates it) keeps the country.
    expect((await c.putPolicy({})).body.default_country).toBe('GB');
    const inGb = await c.add([{ phone_number: london }]);
    expect(inGb.status).toBe(200);
    expect((await c.get(inGb.body.target_ids[0])).body.phone_number).toBe('+442079460958');

    const us = await c
      .as(t.http().post('/api/v1/campaigns'))
      .send({ name: 'Boston', type: 'patient', default_country: 'US' });
    expect(us.status).toBe(201);
    expect(us.body.default_country).toBe('US');
    const inUs = await c.add([{ phone_number: '617 253 1217' }], us.body.id);
    expect((await c.get(inUs.body.target_ids[0])).body.phone_number).toBe('+16172531217');
    expect((await c.add([{ phone_number: london }], us.body.id)).status).toBe(422);

    const cleared = await c
      .as(t.http().patch(`/api/v1/campaigns/${us.body.id}`))
      .send({ default_country: null });
    expect(cleared.body.default_country).toBeNull();
    expect((await c.add([{ phone_number: london }], us.body.id)).status).toBe(200);

    const bad = await c.as(t.http().patch(`/api/v1/campaigns/${us.body.id}`)).send({
      default_country: 'XX',
    });
    expect([bad.status, bad.body]).toEqual([
      422,
      {
        detail: [
          {
            type: 'value_error',
            loc: ['body', 'default_country'],
            msg: 'Value error, country must be an ISO 3166-1 alpha-2 code with a numbering plan, such as US or CA',
            input: 'XX',
            ctx: { error: {} },
          },
        ],
      },
    ]);
    expect((await c.putPolicy({ default_country: 'us' })).body.detail[0].loc).toEqual([
      'body',
      'default_country',
    ]);
  });

  it('lists national numbers on the do-not-call list in E.164, and takes them off the same way', async () => {
    const c = await tenant();
    const url = '/api/v1/compliance/do-not-call';
    const added = await c
      .as(t.http().post(url))
      .send({ phone_numbers: [{ phone_number: '(617) 253-1217', reason: 'asked by letter' }] });
    expect(added.status).toBe(200);
    expect(added.body.added.map((e: { phone_number: string }) => e.phone_number)).toEqual([
      '+16172531217',
    ]);
    const refused = await c
      .as(t.http().post(url))
      .send({ phone_numbers: [{ phone_number: '617-253-121', reason: 'x' }] });
    expect([refused.status, refused.body]).toEqual([
      422,
      {
        detail: [
          {
            type: 'value_error',
            loc: ['body', 'phone_numbers', 0, 'phone_number'],
            msg: 'Value error, 617-253-121 is too short for a number in US',
            input: '617-253-121',
            ctx: { error: {} },
          },
        ],
      },
    ]);
    const removed = await c
      .as(t.http().delete(url))
      .send({ phone_numbers: ['617.253.1217'], reason: 'consent given again' });
    expect(removed.status).toBe(200);
    expect(removed.body).toEqual({
      removed: [
        {
          phone_number: '+16172531217',
          reason: 'asked by letter',
          source: expect.objectContaining({ type: 'api' }),
          created_at: ISO,
          removed: expect.objectContaining({ reason: 'consent given again' }),
        },
      ],
      not_listed: [],
    });
  });

  it('finds a campaign’s targets by name, MRN or phone number', async () => {
    const c = await tenant();
    const patient = (first_name: string, last_name: string, external_id: string) => ({
      first_name,
      last_name,
      external_id,
    });
    const added = await c.add([
      { phone_number: '617-253-1217', patient: patient('Maria', 'Lopez', 'MRN-1') },
      { phone_number: '808-956-8111', patient: patient('Keoni', 'Kahale', 'MRN-2') },
      { phone_number: '213-555-0123', patient: patient('Marcus', 'Lee', 'MRN-3') },
      { phone_number: '+442079460958', external_id: 'LON-4' },
    ]);
    const [maria, keoni, marcus] = added.body.target_ids;
    // Another campaign's patient of the same name is never listed.
    const other = await t.createCampaign(c.apiKey, {});
    await c.add(
      [{ phone_number: '617-253-1217', patient: patient('Maria', 'Lopez', 'X') }],
      other.id,
    );

    const found = async (search: string) => {
      const res = await c.list({ search });
      expect(res.status).toBe(200);
      return res.body.targets.map((b: { id: string }) => b.id);
    };
    expect(await found('mar')).toEqual([maria, marcus]);
    expect(await found('LOPEZ')).toEqual([maria]);
    expect(await found('maria lop')).toEqual([maria]);
    expect(await found('Lopez, Maria')).toEqual([maria]);
    expect(await found('MRN-2')).toEqual([keoni]);
    expect(await found('(808) 956-8111')).toEqual([keoni]);
    expect(await found('+1 213 555 0123')).toEqual([marcus]);
    expect(await found('mrn')).toEqual([]);
    expect(await found('50%')).toEqual([]);
    const page = await c.list({ search: 'm', limit: 1 });
    expect([page.body.page_count, page.body.next_page]).toEqual([2, 1]);
    expect(await found('  ')).toHaveLength(4);
  });
});
