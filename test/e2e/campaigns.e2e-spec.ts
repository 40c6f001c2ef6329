import { createTestApp, TestApp } from '../support/test-app.js';

const ISO = expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);

describe('campaign management API', () => {
  let t: TestApp;
  let acme: { organizationId: string; apiKey: string };
  let globex: { organizationId: string; apiKey: string };
  beforeAll(async () => {
    t = await createTestApp();
    acme = await t.createOrganization();
    globex = await t.createOrganization();
  });
  afterAll(() => t.close());

  const as = (who: { apiKey: string }) => ({
    post: (url: string, body: unknown) =>
      t
        .http()
        .post(url)
        .set('X-API-Key', who.apiKey)
        .send(body as object),
    patch: (url: string, body: unknown) =>
      t
        .http()
        .patch(url)
        .set('X-API-Key', who.apiKey)
        .send(body as object),
    get: (url: string) => t.http().get(url).set('X-API-Key', who.apiKey),
  });

  it('creates a campaign with every setting and reads it back without the secret', async () => {
    const blacklist = (await as(acme).post('/api/v1/blacklists', { name: 'DNC' })).body;
    const connection = (
      await as(acme).post('/api/v1/provider-connections', { type: 'simulated', name: 'Sim' })
    ).body;
    const body = {
      name: 'Reminders',
      type: 'patient',
      caller_id: '+15550100000',
      max_attempts: 5,
      retry_delay_minutes: 30,
      max_concurrent_calls: 4,
      calling_window: { monday: [{ start: '09:00', end: '17:00' }], tz: 'Europe/Paris' },
      steps: [
        { friendly_id: 'intake', type: 'webhook', on_receive: 'merge_and_schedule' },
        { friendly_id: 'ehr', type: 'ehr_event' },
      ],
      entry_step: 'intake',
      blacklist_ids: [blacklist.id],
      webhook_url: 'https://example.com/hooks',
      provider_connection_id: connection.id,
      sms_follow_up: {
        provider_connection_id: connection.id,
        on_categories: ['VOICEMAIL', 'NO_RESPONSE'],
        template: 'Hi {{input_data.first_name}}, please call us back.',
        after: 'last_attempt',
      },
    };
    const created = await as(acme).post('/api/v1/campaigns', body);
    expect(created.status).toBe(201);
    const expected = {
      ...body,
      id: expect.any(String),
      organization_id: acme.organizationId,
      steps: [
        { friendly_id: 'intake', type: 'webhook', on_receive: 'merge_and_schedule' },
        { friendly_id: 'ehr', type: 'ehr_event', on_receive: 'merge' },
      ],
      state: 'active',
      state_changed_at: null,
      paused_reason: null,
      auto_pause: null,
      default_country: null,
      voicemail_message: null,
      created_at: ISO,
      updated_at: ISO,
    };
    expect(created.body).toEqual({ ...expected, webhook_secret: expect.stringMatching(/^whsec_/) });
    const read = await as(acme).get(`/api/v1/campaigns/${created.body.id}`);
    expect(read.status).toBe(200);
    expect(read.body).toEqual(expected);
  });

  it("names only its organization's own provider connection, which then cannot be deleted", async () => {
    const theirs = (
      await as(globex).post('/api/v1/provider-connections', { type: 'simulated', name: 'Theirs' })
    ).body;
    const mine = (
      await as(acme).post('/api/v1/provider-connections', { type: 'simulated', name: 'Mine' })
    ).body;
    const refused = await as(acme).post('/api/v1/campaigns', {
      name: 'Borrowed',
      type: 'patient',
      provider_connection_id: theirs.id,
    });
    expect(refused.status).toBe(422);
    expect(refused.body).toEqual({
      detail: [
        {
          loc: ['body', 'provider_connection_id'],
          msg: `Value error, provider connection ${theirs.id} not found`,
          type: 'value_error',
          input: theirs.id,
          ctx: { error: {} },
        },
      ],
    });
    const malformed = await as(acme).post('/api/v1/campaigns', {
      name: 'Malformed',
      type: 'patient',
      provider_connection_id: 'not-a-uuid',
    });
    expect(malformed.status).toBe(422);
    expect(malformed.body.detail[0]).toMatchObject({
      loc: ['body', 'provider_connection_id'],
      type: 'uuid_parsing',
    });
    const c = (await as(acme).post('/api/v1/campaigns', { name: 'Own', type: 'patient' })).body;
    const patched = await as(acme).patch(`/api/v1/campaigns/${c.id}`, {
      provider_connection_id: mine.id,
    });
    expect(patched.status).toBe(200);
    expect(patched.body.provider_connection_id).toBe(mine.id);
    const inUse = await t
      .http()
      .delete(`/api/v1/provider-connections/${mine.id}`)
      .set('X-API-Key', acme.apiKey);
    expect(inUse.status).toBe(409);
    expect(inUse.body).toEqual({
      detail: 'Campaigns place their calls through this connection; change them first',
    });
    const cleared = await as(acme).patch(`/api/v1/campaigns/${c.id}`, {
      provider_connection_id: null,
    });
    expect(cleared.body.provider_connection_id).toBeNull();
    const deleted = await t
      .http()
      .delete(`/api/v1/provider-connections/${mine.id}`)
      .set('X-API-Key', acme.apiKey);
    expect(deleted.status).toBe(204);
  });

  it('applies defaults, patches fields and keeps other organizations out', async () => {
    const c = (await as(acme).post('/api/v1/campaigns', { name: 'Defaults', type: 'payor' })).body;
    expect(c).toMatchObject({
      caller_id: null,
      max_attempts: 3,
      retry_delay_minutes: 60,
      max_concurrent_calls: 10,
      calling_window: null,
      steps: [],
      entry_step: null,
      blacklist_ids: [],
      webhook_url: null,
      provider_connection_id: null,
      state: 'active',
      state_changed_at: null,
      paused_reason: null,
      auto_pause: null,
      default_country: null,
      voicemail_message: null,
    });
    const patched = await as(acme).patch(`/api/v1/campaigns/${c.id}`, {
      max_attempts: 1,
      calling_window: { friday: [{ start: '08:00', end: '12:00' }] },
    });
    expect(patched.status).toBe(200);
    expect(patched.body).toEqual({
      ...c,
      webhook_secret: undefined,
      max_attempts: 1,
      calling_window: { friday: [{ start: '08:00', end: '12:00' }], tz: 'US/Eastern' },
      updated_at: ISO,
    });
    for (const res of [
      await as(globex).get(`/api/v1/campaigns/${c.id}`),
      await as(globex).patch(`/api/v1/campaigns/${c.id}`, { name: 'mine now' }),
      await as(acme).get('/api/v1/campaigns/not-a-uuid'),
    ]) {
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ detail: expect.stringMatching(/^Campaign .* not found$/) });
    }
  });

  it('refuses to remove a step that targets are waiting at (409), and keeps the campaign as it was', async () => {
    const c = (
      await as(acme).post('/api/v1/campaigns', {
        name: 'Waits',
        type: 'patient',
        steps: [{ friendly_id: 'labs', type: 'webhook' }],
        entry_step: 'labs',
      })
    ).body;
    await as(acme).post(`/api/v1/campaigns/${c.id}/targets`, {
      targets: [{ phone_number: '+15550101234' }],
    });
    const removed = await as(acme).patch(`/api/v1/campaigns/${c.id}`, {
      steps: [],
      entry_step: null,
    });
    expect(removed.status).toBe(409);
    expect(removed.body).toEqual({
      detail:
        'Targets are waiting at a step this change removes; post their step data first, or keep the step',
    });
    expect((await as(acme).get(`/api/v1/campaigns/${c.id}`)).body).toMatchObject({
      steps: [{ friendly_id: 'labs', type: 'webhook', on_receive: 'merge' }],
      entry_step: 'labs',
    });
    const kept = await as(acme).patch(`/api/v1/campaigns/${c.id}`, {
      steps: [
        { friendly_id: 'labs', type: 'webhook' },
        { friendly_id: 'ehr', type: 'ehr_event' },
      ],
    });
    expect(kept.status).toBe(200);
  });

  it('lists only the caller’s campaigns, paged', async () => {
    const org = await t.createOrganization();
    for (const name of ['a', 'b', 'c'])
      await as(org).post('/api/v1/campaigns', { name, type: 'provider' });
    const first = await as(org).get('/api/v1/campaigns?limit=2');
    expect(first.body.campaigns.map((c: { name: string }) => c.name)).toEqual(['a', 'b']);
    expect(first.body).toMatchObject({ page_count: 2, next_page: 1 });
    const last = await as(org).get('/api/v1/campaigns?limit=2&page=1');
    expect(last.body.campaigns.map((c: { name: string }) => c.name)).toEqual(['c']);
    expect(last.body).toMatchObject({ page_count: 2, next_page: null });
  });

  it('refuses rules that cross fields with value errors', async () => {
    const res = await as(acme).post('/api/v1/campaigns', {
      name: 'Bad',
      type: 'patient',
      calling_window: { monday: [{ start: '18:00', end: '09:00' }] },
      steps: [
        { friendly_id: 'a', type: 'webhook' },
        { friendly_id: 'a', type: 'ehr_event' },
      ],
      webhook_url: 'ftp://example.com',
    });
    expect(res.status).toBe(422);
    expect(res.body).toEqual({
      detail: [
        {
          type: 'value_error',
          loc: ['body', 'calling_window', 'monday', 0],
          msg: 'Value error, an interval must end after it starts',
          input: { start: '18:00', end: '09:00' },
          ctx: { error: {} },
        },
        {
          type: 'value_error',
          loc: ['body', 'steps'],
          msg: 'Value error, duplicate step friendly_id "a"',
          input: [
            { friendly_id: 'a', type: 'webhook' },
            { friendly_id: 'a', type: 'ehr_event' },
          ],
          ctx: { error: {} },
        },
        {
          type: 'value_error',
          loc: ['body', 'webhook_url'],
          msg: 'Value error, webhook_url must be an absolute http(s) URL',
          input: 'ftp://example.com',
          ctx: { error: {} },
        },
      ],
    });
    const entry = await as(acme).post('/api/v1/campaigns', {
      name: 'x',
      type: 'patient',
      entry_step: 'nowhere',
    });
    expect(entry.status).toBe(422);
    expect(entry.body).toEqual({
      detail: [
        {
          type: 'value_error',
          loc: ['body', 'entry_step'],
          msg: `Value error, entry_step "nowhere" is not one of the campaign's steps`,
          input: 'nowhere',
          ctx: { error: {} },
        },
      ],
    });
    const foreign = (await as(globex).post('/api/v1/blacklists', { name: 'theirs' })).body;
    const blacklist = await as(acme).post('/api/v1/campaigns', {
      name: 'x',
      type: 'patient',
      blacklist_ids: [foreign.id],
    });
    expect(blacklist.status).toBe(422);
    expect(blacklist.body.detail[0]).toMatchObject({
      type: 'value_error',
      loc: ['body', 'blacklist_ids', 0],
    });
  });
});

describe('blacklist API', () => {
  let t: TestApp;
  let acme: { organizationId: string; apiKey: string };
  let globex: { organizationId: string; apiKey: string };
  beforeAll(async () => {
    t = await createTestApp();
    acme = await t.createOrganization();
    globex = await t.createOrganization();
  });
  afterAll(() => t.close());
  const key = (who: { apiKey: string }) => ['X-API-Key', who.apiKey] as const;

  it('creates a blacklist, adds, lists, pages and removes numbers', async () => {
    const created = await t
      .http()
      .post('/api/v1/blacklists')
      .set(...key(acme))
      .send({ name: 'DNC' });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.any(String),
      organization_id: acme.organizationId,
      name: 'DNC',
      description: null,
      created_at: ISO,
      updated_at: ISO,
    });
    const url = `/api/v1/blacklists/${created.body.id}/phone-numbers`;
    const added = await t
      .http()
      .post(url)
      .set(...key(acme))
      .send({
        phone_numbers: [
          {
            phone_number: '+1 (555) 010-0001',
            reason: 'asked',
            level: 'organization',
            name: 'Ada',
            comment: 'c',
          },
          { phone_number: '+15550100002' },
        ],
      });
    expect(added.status).toBe(200);
    expect(added.body).toEqual({ added: 2, updated: 0 });
    const all = await t
      .http()
      .get(url)
      .set(...key(acme));
    expect(all.status).toBe(200);
    expect(all.body).toEqual({
      phone_numbers: [
        {
          phone_number: '+15550100001',
          reason: 'asked',
          level: 'organization',
          name: 'Ada',
          comment: 'c',
        },
        { phone_number: '+15550100002', reason: '', level: '', name: '', comment: '' },
      ],
      total: 2,
    });
    const page = await t
      .http()
      .get(`${url}?limit=1&skip=1`)
      .set(...key(acme));
    expect(page.body).toEqual({
      phone_numbers: [
        { phone_number: '+15550100002', reason: '', level: '', name: '', comment: '' },
      ],
      total: 2,
    });
    const removed = await t
      .http()
      .delete(url)
      .set(...key(acme))
      .send({ phone_numbers: ['+1 555 010 0001'] });
    expect(removed.body).toEqual({ removed: 1 });
    expect(
      (
        await t
          .http()
          .get(url)
          .set(...key(acme))
      ).body.total,
    ).toBe(1);
  });

  it('keeps other organizations out and validates limits and numbers', async () => {
    const b = (
      await t
        .http()
        .post('/api/v1/blacklists')
        .set(...key(acme))
        .send({ name: 'DNC' })
    ).body;
    const url = `/api/v1/blacklists/${b.id}/phone-numbers`;
    expect(
      (
        await t
          .http()
          .get(url)
          .set(...key(globex))
      ).status,
    ).toBe(404);
    expect(
      (
        await t
          .http()
          .post(url)
          .set(...key(globex))
          .send({ phone_numbers: [{ phone_number: '+15550100001' }] })
      ).status,
    ).toBe(404);
    expect(
      (
        await t
          .http()
          .get('/api/v1/blacklists/nope/phone-numbers')
          .set(...key(acme))
      ).status,
    ).toBe(404);

    const bad = await t
      .http()
      .post(url)
      .set(...key(acme))
      .send({ phone_numbers: [{ phone_number: '555-0100' }] });
    expect(bad.status).toBe(422);
    expect(bad.body).toEqual({
      detail: [
        {
          type: 'value_error',
          loc: ['body', 'phone_numbers', 0, 'phone_number'],
          msg: 'Value error, phone number must be + followed by 7 to 15 digits (spaces, dashes, dots and parentheses are ignored)',
          input: '555-0100',
          ctx: { error: {} },
        },
      ],
    });
  });
});
