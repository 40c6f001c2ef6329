import { randomBytes } from 'crypto';
import { createTestApp, TestApp, waitFor } from '../support/test-app.js';
import { WebhookReceiver } from '../support/webhook-receiver.js';

const SECRETS_KEY = randomBytes(32).toString('base64');

const ACCOUNT_SID = 'AC0123456789abcdef0123456789abcdef';
const AUTH_TOKEN = 'twilio-auth-token-7f3e9c1a';
const VAPI_KEY = 'vapi-private-key-5b2d8e4f';
const VAPI_SERVER_SECRET = 'vapi-server-secret-a1c9';
const RETELL_KEY = 'key_retell_0d6e2b7c9a';
const HTTP_SECRET = 'whsec_QWdlbnRTaGFyZWRTZWNyZXQ04411';
const ALL_SECRETS = [
  ACCOUNT_SID,
  AUTH_TOKEN,
  VAPI_KEY,
  VAPI_SERVER_SECRET,
  RETELL_KEY,
  HTTP_SECRET,
];

const twilio = {
  type: 'twilio',
  name: 'Twilio production',
  credentials: { account_sid: ACCOUNT_SID, auth_token: AUTH_TOKEN },
  settings: {
    from_number: '+15550100000',
    twiml_url: 'https://example.com/twiml/reminder.xml',
    machine_detection: 'DetectMessageEnd',
  },
};
const vapi = {
  type: 'vapi',
  name: 'Vapi',
  credentials: { api_key: VAPI_KEY, server_secret: VAPI_SERVER_SECRET },
  settings: { assistant_id: 'asst-123', phone_number_id: 'pn-456' },
};
const retell = {
  type: 'retell',
  name: 'Retell',
  credentials: { api_key: RETELL_KEY },
  settings: { agent_id: 'agent_789', from_number: '+15550100001', final_event: 'call_ended' },
};
const http = {
  type: 'http',
  name: 'Our agent',
  credentials: { secret: HTTP_SECRET },
  settings: { api_base_url: 'http://agent.internal:8080/calls' },
};

const iso = expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
const uuid = expect.stringMatching(/^[0-9a-f-]{36}$/);

describe('provider connections', () => {
  let t: TestApp;
  let key: string;
  let organizationId: string;
  beforeAll(async () => {
    t = await createTestApp({ env: { SECRETS_KEY } });
    ({ apiKey: key, organizationId } = await t.createOrganization());
  });
  afterAll(() => t.close());

  const post = (body: unknown, apiKey = key) =>
    t
      .http()
      .post('/api/v1/provider-connections')
      .set('X-API-Key', apiKey)
      .send(body as object);
  const patch = (id: string, body: unknown, apiKey = key) =>
    t
      .http()
      .patch(`/api/v1/provider-connections/${id}`)
      .set('X-API-Key', apiKey)
      .send(body as object);
  const get = (id: string, apiKey = key) =>
    t.http().get(`/api/v1/provider-connections/${id}`).set('X-API-Key', apiKey);

  it('creates a connection of each type, with credentials masked and defaults filled in', async () => {
    const created = await post({ ...twilio, name: 'Twilio each type' });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: uuid,
      organization_id: organizationId,
      type: 'twilio',
      name: 'Twilio each type',
      credentials: { account_sid: '***cdef', auth_token: '***9c1a' },
      settings: {
        api_base_url: 'https://api.twilio.com',
        from_number: '+15550100000',
        twiml_url: 'https://example.com/twiml/reminder.xml',
        machine_detection: 'DetectMessageEnd',
      },
      is_default: false,
      events_url_path: `/api/v1/telephony/${created.body.id}/events`,
      created_at: iso,
      updated_at: iso,
    });

    const v = await post({ ...vapi, name: 'Vapi each type' });
    expect(v.status).toBe(201);
    expect(v.body).toMatchObject({
      type: 'vapi',
      credentials: { api_key: '***8e4f', server_secret: '***a1c9' },
      settings: {
        api_base_url: 'https://api.vapi.ai',
        assistant_id: 'asst-123',
        phone_number_id: 'pn-456',
      },
    });

    const r = await post({ ...retell, name: 'Retell each type' });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({
      type: 'retell',
      credentials: { api_key: '***7c9a' },
      settings: {
        api_base_url: 'https://api.retellai.com',
        agent_id: 'agent_789',
        from_number: '+15550100001',
        final_event: 'call_ended',
      },
    });

    const h = await post({ ...http, name: 'Agent each type' });
    expect(h.status).toBe(201);
    expect(h.body).toMatchObject({
      type: 'http',
      credentials: { secret: '***4411' },
      settings: { api_base_url: 'http://agent.internal:8080/calls' },
    });

    const s = await post({ type: 'simulated', name: 'Simulator each type' });
    expect(s.status).toBe(201);
    expect(s.body).toMatchObject({ type: 'simulated', credentials: {}, settings: {} });

    const read = await get(created.body.id);
    expect(read.status).toBe(200);
    expect(read.body).toEqual(created.body);

    const retellDefault = await post({
      ...retell,
      name: 'Retell default final event',
      settings: { agent_id: 'agent_1' },
    });
    expect(retellDefault.body.settings).toEqual({
      api_base_url: 'https://api.retellai.com',
      final_event: 'call_analyzed',
      agent_id: 'agent_1',
    });
  });

  it('keeps only ciphertext in the database, and never answers with a secret', async () => {
    const { apiKey } = await t.createOrganization();
    const bodies: string[] = [];
    for (const body of [twilio, vapi, retell, http]) {
      const res = await post(body, apiKey);
      expect(res.status).toBe(201);
      bodies.push(JSON.stringify(res.body));
    }
    const list = await t.http().get('/api/v1/provider-connections').set('X-API-Key', apiKey);
    expect(list.status).toBe(200);
    expect(list.body.provider_connections).toHaveLength(4);
    bodies.push(JSON.stringify(list.body));
    const invalid = await post(
      { ...twilio, name: '', credentials: { auth_token: AUTH_TOKEN } },
      apiKey,
    );
    expect(invalid.status).toBe(422);
    bodies.push(JSON.stringify(invalid.body));

    const rows = await t.sql(`SELECT * FROM provider_connections`);
    expect(rows.length).toBeGreaterThanOrEqual(4);
    const stored = JSON.stringify(rows);
    for (const secret of ALL_SECRETS) {
      expect(stored).not.toContain(secret);
      for (const body of bodies) expect(body).not.toContain(secret);
    }
    for (const row of rows.filter((r) => r.type !== 'simulated')) {
      expect(row.credentials_ciphertext).toMatch(
        /^v1:[A-Za-z0-9+/=]+:[A-Za-z0-9+/=]+:[A-Za-z0-9+/=]+$/,
      );
      expect(row.credentials_key_id).toMatch(/^[0-9a-f]{16}$/);
    }
  });

  it('answers 422 per type, naming each field under body.credentials or body.settings', async () => {
    const missing = await post({
      type: 'twilio',
      name: 'Broken',
      credentials: { account_sid: 'not-a-sid' },
      settings: { from_number: '12', twiml_url: 'ftp://x', machine_detection: 'yes' },
    });
    expect(missing.status).toBe(422);
    expect(missing.body).toEqual({
      detail: [
        {
          type: 'string_pattern_mismatch',
          loc: ['body', 'credentials', 'account_sid'],
          msg: "String should match pattern '^AC[0-9a-fA-F]{32}$'",
          input: '***-sid',
          ctx: { pattern: '^AC[0-9a-fA-F]{32}$' },
        },
        {
          type: 'missing',
          loc: ['body', 'credentials', 'auth_token'],
          msg: 'Field required',
          input: { account_sid: '***-sid' },
        },
        {
          type: 'value_error',
          loc: ['body', 'settings', 'from_number'],
          msg: 'Value error, phone number must be + followed by 7 to 15 digits (spaces, dashes, dots and parentheses are ignored)',
          input: '12',
          ctx: { error: {} },
        },
        {
          type: 'url_scheme',
          loc: ['body', 'settings', 'twiml_url'],
          msg: "URL scheme should be 'http' or 'https'",
          input: 'ftp://x',
          ctx: { expected_schemes: "'http' or 'https'" },
        },
        {
          type: 'enum',
          loc: ['body', 'settings', 'machine_detection'],
          msg: "Input should be 'Enable' or 'DetectMessageEnd'",
          input: 'yes',
          ctx: { expected: "'Enable' or 'DetectMessageEnd'" },
        },
      ],
    });

    const noTwiml = await post({ ...twilio, settings: {} });
    expect(noTwiml.status).toBe(422);
    expect(noTwiml.body).toEqual({
      detail: [
        {
          type: 'value_error',
          loc: ['body', 'settings'],
          msg: 'Value error, twiml_url or twiml_template is required',
          input: {},
          ctx: { error: {} },
        },
      ],
    });

    const vapiBroken = await post({
      type: 'vapi',
      name: 'Vapi broken',
      credentials: { api_key: VAPI_KEY, server_secret: '', token: VAPI_SERVER_SECRET },
      settings: { assistant_id: 'a', api_base_url: 'not a url' },
    });
    expect(vapiBroken.status).toBe(422);
    expect(vapiBroken.body).toEqual({
      detail: [
        {
          type: 'string_too_short',
          loc: ['body', 'credentials', 'server_secret'],
          msg: 'String should have at least 1 character',
          input: '***',
          ctx: { min_length: 1 },
        },
        {
          type: 'extra_forbidden',
          loc: ['body', 'credentials', 'token'],
          msg: 'Extra inputs are not permitted',
          input: '***a1c9',
        },
        {
          type: 'missing',
          loc: ['body', 'settings', 'phone_number_id'],
          msg: 'Field required',
          input: { assistant_id: 'a', api_base_url: 'not a url' },
        },
        {
          type: 'url_parsing',
          loc: ['body', 'settings', 'api_base_url'],
          msg: 'Input should be a valid URL, relative URL without a base',
          input: 'not a url',
          ctx: { error: 'relative URL without a base' },
        },
      ],
    });

    const retellBroken = await post({
      type: 'retell',
      name: 'Retell broken',
      credentials: { api_key: 42 },
      settings: { agent_id: 'agent_1', final_event: 'call_started' },
    });
    expect(retellBroken.status).toBe(422);
    expect(retellBroken.body).toEqual({
      detail: [
        {
          type: 'string_type',
          loc: ['body', 'credentials', 'api_key'],
          msg: 'Input should be a valid string',
          // A credential is masked whatever its type.
          input: '***',
        },
        {
          type: 'enum',
          loc: ['body', 'settings', 'final_event'],
          msg: "Input should be 'call_analyzed' or 'call_ended'",
          input: 'call_started',
          ctx: { expected: "'call_analyzed' or 'call_ended'" },
        },
      ],
    });

    const httpBroken = await post({ type: 'http', name: 'Agent broken', credentials: 'secret' });
    expect(httpBroken.status).toBe(422);
    expect(httpBroken.body).toEqual({
      detail: [
        {
          type: 'dict_type',
          loc: ['body', 'credentials'],
          msg: 'Input should be a valid dictionary',
          input: '***',
        },
        {
          type: 'missing',
          loc: ['body', 'settings'],
          msg: 'Field required',
          input: { type: 'http', name: 'Agent broken', credentials: '***' },
        },
      ],
    });

    const unknownType = await post({ type: 'plivo', name: 'x', is_default: 'maybe' });
    expect(unknownType.status).toBe(422);
    expect(unknownType.body).toEqual({
      detail: [
        {
          type: 'enum',
          loc: ['body', 'type'],
          msg: "Input should be 'simulated', 'http', 'twilio', 'vapi' or 'retell'",
          input: 'plivo',
          ctx: { expected: "'simulated', 'http', 'twilio', 'vapi' or 'retell'" },
        },
        {
          type: 'bool_parsing',
          loc: ['body', 'is_default'],
          msg: 'Input should be a valid boolean, unable to interpret input',
          input: 'maybe',
        },
      ],
    });

    // Keys class-transformer would drop are refused too, not silently ignored.
    const oddKeys = await post({
      ...retell,
      credentials: JSON.parse(
        '{"api_key": "key_retell_0d6e2b7c9a", "constructor": "x", "__proto__": {"a": 1}}',
      ),
      settings: { agent_id: 'a', toString: 'x' },
    });
    expect(oddKeys.status).toBe(422);
    expect(oddKeys.body.detail.map((d: { loc: unknown[] }) => d.loc)).toEqual([
      ['body', 'credentials', 'constructor'],
      ['body', 'credentials', '__proto__'],
      ['body', 'settings', 'toString'],
    ]);

    const notObject = await post([1]);
    expect(notObject.status).toBe(422);
    expect(notObject.body.detail[0]).toMatchObject({
      type: 'model_attributes_type',
      loc: ['body'],
    });
  });

  it('never echoes a credential (of any type) or a secret-looking setting in a 422', async () => {
    const SETTING_SECRET = 'sk_live_51HxSecretTypedIntoSettings';
    const res = await post({
      type: 'twilio',
      name: 'Secrets in the wrong place',
      credentials: { account_sid: 12345678901234, auth_token: { nested: AUTH_TOKEN } },
      settings: { api_token: SETTING_SECRET, twiml_url: 'https://example.com/t.xml' },
    });
    expect(res.status).toBe(422);
    expect(res.body).toEqual({
      detail: [
        {
          type: 'string_type',
          loc: ['body', 'credentials', 'account_sid'],
          msg: 'Input should be a valid string',
          input: '***',
        },
        {
          type: 'string_type',
          loc: ['body', 'credentials', 'auth_token'],
          msg: 'Input should be a valid string',
          input: { nested: '***9c1a' },
        },
        {
          type: 'extra_forbidden',
          loc: ['body', 'settings', 'api_token'],
          msg: 'Extra inputs are not permitted',
          input: '***ings',
        },
      ],
    });
    // A rule across the settings echoes them all: the secret-looking one masked there too.
    const both = await post({
      ...twilio,
      name: 'Secret beside a rule',
      settings: {
        ...twilio.settings,
        twiml_template: '<Response/>',
        client_secret: SETTING_SECRET,
      },
    });
    expect(both.status).toBe(422);
    const text = JSON.stringify([res.body, both.body]);
    for (const secret of [...ALL_SECRETS, SETTING_SECRET, '12345678901234']) {
      expect(text).not.toContain(secret);
    }
    expect(both.body.detail).toContainEqual(
      expect.objectContaining({
        loc: ['body', 'settings'],
        input: expect.objectContaining({ client_secret: '***ings' }),
      }),
    );
    // A body that is not storable echoes the whole body: credentials and secret settings masked.
    const whole = await post({
      ...twilio,
      name: 'nul\u0000',
      settings: { ...twilio.settings, password: SETTING_SECRET },
    });
    expect(whole.status).toBe(422);
    expect(JSON.stringify(whole.body)).not.toContain(SETTING_SECRET);
    expect(JSON.stringify(whole.body)).not.toContain(AUTH_TOKEN);
  });

  it('keeps one default per organization: a new default unsets the old one', async () => {
    const { apiKey } = await t.createOrganization();
    const first = await post({ ...twilio, is_default: true }, apiKey);
    expect(first.body.is_default).toBe(true);
    const second = await post({ ...vapi, is_default: true }, apiKey);
    expect(second.body.is_default).toBe(true);
    expect((await get(first.body.id, apiKey)).body.is_default).toBe(false);

    const back = await patch(first.body.id, { is_default: true }, apiKey);
    expect(back.status).toBe(200);
    expect(back.body.is_default).toBe(true);
    expect((await get(second.body.id, apiKey)).body.is_default).toBe(false);

    const defaults = await t.sql(
      `SELECT id FROM provider_connections WHERE is_default AND organization_id =
         (SELECT organization_id FROM provider_connections WHERE id = $1)`,
      [first.body.id],
    );
    expect(defaults).toEqual([{ id: first.body.id }]);

    const unset = await patch(first.body.id, { is_default: false }, apiKey);
    expect(unset.body.is_default).toBe(false);
    const list = await t.http().get('/api/v1/provider-connections').set('X-API-Key', apiKey);
    expect(list.body.provider_connections.map((c: any) => c.is_default)).toEqual([false, false]);
    expect(list.body).toMatchObject({ page_count: 1, next_page: null });
  });

  it('keeps one default when several requests set one at the same time', async () => {
    const { apiKey, organizationId: org } = await t.createOrganization();
    const responses = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        post({ type: 'simulated', name: `Simulator ${i}`, is_default: true }, apiKey),
      ),
    );
    // Each is created, or refused with 409 when another default committed first; never a 500.
    for (const res of responses) expect([201, 409]).toContain(res.status);
    expect(responses.some((r) => r.status === 201)).toBe(true);
    const defaults = await t.sql(
      `SELECT id FROM provider_connections WHERE organization_id = $1 AND is_default`,
      [org],
    );
    expect(defaults).toHaveLength(1);
  });

  it('updates by merging: a rotated secret, a setting reset to its default, a 422 on a bad one', async () => {
    const created = (await post({ ...twilio, name: 'Twilio to update' })).body;
    const rotated = await patch(created.id, {
      name: 'Twilio renamed',
      credentials: { auth_token: 'rotated-token-0000-beef' },
      settings: {
        twiml_url: null,
        twiml_template: '<Response><Say>Hi</Say></Response>',
        machine_detection: null,
      },
    });
    expect(rotated.status).toBe(200);
    expect(rotated.body).toEqual({
      ...created,
      name: 'Twilio renamed',
      credentials: { account_sid: '***cdef', auth_token: '***beef' },
      settings: {
        api_base_url: 'https://api.twilio.com',
        from_number: '+15550100000',
        twiml_template: '<Response><Say>Hi</Say></Response>',
      },
      updated_at: iso,
    });

    const bad = await patch(created.id, {
      credentials: { auth_token: '', region: 'x' },
      settings: { twiml_url: 'https://example.com/t.xml' },
    });
    expect(bad.status).toBe(422);
    expect(bad.body.detail).toEqual([
      {
        type: 'string_too_short',
        loc: ['body', 'credentials', 'auth_token'],
        msg: 'String should have at least 1 character',
        input: '***',
        ctx: { min_length: 1 },
      },
      {
        type: 'extra_forbidden',
        loc: ['body', 'credentials', 'region'],
        msg: 'Extra inputs are not permitted',
        input: '***',
      },
      {
        type: 'value_error',
        loc: ['body', 'settings'],
        msg: 'Value error, give twiml_url or twiml_template, not both',
        input: {
          api_base_url: 'https://api.twilio.com',
          from_number: '+15550100000',
          twiml_template: '<Response><Say>Hi</Say></Response>',
          twiml_url: 'https://example.com/t.xml',
        },
        ctx: { error: {} },
      },
    ]);
    // Nothing changed.
    expect((await get(created.id)).body).toEqual(rotated.body);

    expect((await post({ ...twilio, name: 'Name taken' })).status).toBe(201);
    const clash = await patch(created.id, { name: 'Name taken' });
    expect(clash.status).toBe(409);
    expect(clash.body).toEqual({ detail: 'A provider connection with this name already exists' });
    const sameName = await post({ ...vapi, name: 'Name taken' });
    expect(sameName.status).toBe(409);
  });

  it('an http connection takes only a Standard Webhooks secret, on create and on PATCH, never echoing it', async () => {
    const notASecret = 'agent-shared-secret-9f2e';
    const refusal = {
      type: 'value_error',
      loc: ['body', 'credentials', 'secret'],
      msg: 'Value error, secret must be a Standard Webhooks secret: whsec_ followed by base64 (or the base64 alone), e.g. whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
      input: '***9f2e',
      ctx: { error: {} },
    };
    const created = await post({
      ...http,
      name: 'Agent, bad secret',
      credentials: { secret: notASecret },
    });
    expect([created.status, created.body]).toEqual([422, { detail: [refusal] }]);
    const notBase64 = await post({
      ...http,
      name: 'Agent, not base64',
      credentials: { secret: 'whsec_not-base64!9f2e' },
    });
    expect([notBase64.status, notBase64.body]).toEqual([
      422,
      { detail: [{ ...refusal, input: '***9f2e' }] },
    ]);

    const good = await post({ ...http, name: 'Agent, good secret' });
    expect(good.status).toBe(201);
    const patched = await patch(good.body.id, { credentials: { secret: notASecret } });
    expect([patched.status, patched.body]).toEqual([422, { detail: [refusal] }]);
    // Raw base64 is a secret too; nothing of the refused one was kept.
    const raw = await patch(good.body.id, {
      credentials: { secret: 'QWdlbnRTaGFyZWRTZWNyZXQ0Ab12' },
    });
    expect([raw.status, raw.body.credentials]).toEqual([200, { secret: '***Ab12' }]);
    for (const res of [created, notBase64, patched]) {
      expect(JSON.stringify(res.body)).not.toContain(notASecret);
      expect(JSON.stringify(res.body)).not.toContain('not-base64');
    }
  });

  it("answers 404 for another organization's connection, and deletes", async () => {
    const created = (await post({ ...retell, name: 'Retell private' })).body;
    const other = await t.createOrganization();
    for (const res of [
      await get(created.id, other.apiKey),
      await patch(created.id, { name: 'mine now' }, other.apiKey),
      await t
        .http()
        .delete(`/api/v1/provider-connections/${created.id}`)
        .set('X-API-Key', other.apiKey),
    ]) {
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ detail: `Provider connection ${created.id} not found` });
    }
    const list = await t.http().get('/api/v1/provider-connections').set('X-API-Key', other.apiKey);
    expect(list.body).toEqual({ provider_connections: [], page_count: 0, next_page: null });

    const deleted = await t
      .http()
      .delete(`/api/v1/provider-connections/${created.id}`)
      .set('X-API-Key', key);
    expect(deleted.status).toBe(204);
    expect((await get(created.id)).status).toBe(404);
    expect((await get('not-a-uuid')).body).toEqual({
      detail: 'Provider connection not-a-uuid not found',
    });
  });
});

describe('stored credentials go only to their provider (PROVIDER_ALLOW_PRIVATE=false)', () => {
  let t: TestApp;
  let key: string;
  /** Where an attacker would like the credentials sent: it must never be asked anything. */
  let canary: WebhookReceiver;
  beforeAll(async () => {
    t = await createTestApp({ env: { SECRETS_KEY, PROVIDER_ALLOW_PRIVATE: 'false' } });
    ({ apiKey: key } = await t.createOrganization());
    canary = await WebhookReceiver.start(() => ({ status: 201, body: '{"sid":"CA1","id":"1"}' }));
  });
  afterAll(async () => {
    await canary.close();
    await t.close();
  });

  const post = (body: object) =>
    t.http().post('/api/v1/provider-connections').set('X-API-Key', key).send(body);
  const patch = (id: string, body: object) =>
    t.http().patch(`/api/v1/provider-connections/${id}`).set('X-API-Key', key).send(body);
  // A public address (no DNS needed in the test), and a secret Standard Webhooks can sign with.
  const agent = {
    ...http,
    credentials: { secret: `whsec_${randomBytes(24).toString('base64')}` },
    settings: { api_base_url: 'https://93.184.216.34/calls' },
  };

  it('refuses a loopback, private or link-local api_base_url for every type, when saved', async () => {
    for (const [connection, url, refusal] of [
      [twilio, `${canary.url}/x`, '127.0.0.1 resolves to 127.0.0.1, a loopback address'],
      [vapi, 'http://10.0.0.7', '10.0.0.7 resolves to 10.0.0.7, a private address'],
      [retell, 'http://[::1]:8080', '::1 resolves to ::1, a loopback address'],
      [
        http,
        'http://169.254.169.254/latest',
        '169.254.169.254 resolves to 169.254.169.254, a cloud metadata address',
      ],
      [twilio, 'http://localhost:9', 'localhost resolves to '],
    ] as const) {
      const res = await post({
        ...connection,
        name: `${connection.type} ${url}`,
        settings: { ...connection.settings, api_base_url: url },
      });
      expect([res.status, res.body]).toEqual([
        422,
        {
          detail: [
            {
              type: 'value_error',
              loc: ['body', 'settings', 'api_base_url'],
              msg: expect.stringContaining(`Value error, refused: ${refusal}`),
              input: url,
              ctx: { error: {} },
            },
          ],
        },
      ]);
      expect(res.body.detail[0].msg).toMatch(/\(PROVIDER_ALLOW_PRIVATE is off\)$/);
    }
    expect(canary.received).toEqual([]);
  });

  it('moves a connection to another api_base_url only with its credentials in the same request', async () => {
    for (const connection of [twilio, vapi, retell, agent]) {
      const created = await post({ ...connection, name: `${connection.type} to move` });
      expect(created.status).toBe(201);
      const moved = await patch(created.body.id, {
        settings: { api_base_url: 'https://93.184.216.35/x' },
      });
      expect([moved.status, moved.body]).toEqual([
        422,
        {
          detail: [
            {
              type: 'value_error',
              loc: ['body', 'credentials'],
              msg:
                "Value error, changing settings.api_base_url needs the connection's credentials " +
                `sent again in the same request: ${Object.keys(connection.credentials).join(', ')}`,
              input: null,
              ctx: { error: {} },
            },
          ],
        },
      ]);
      // With them, still never to loopback.
      const toLoopback = await patch(created.body.id, {
        credentials: connection.credentials,
        settings: { api_base_url: canary.url },
      });
      expect(toLoopback.status).toBe(422);
      expect(toLoopback.body.detail[0].loc).toEqual(['body', 'settings', 'api_base_url']);
      const unchanged = await t
        .http()
        .get(`/api/v1/provider-connections/${created.body.id}`)
        .set('X-API-Key', key);
      expect(unchanged.body).toEqual(created.body);

      const withCredentials = await patch(created.body.id, {
        credentials: connection.credentials,
        settings: { api_base_url: 'https://93.184.216.35/x' },
      });
      expect(withCredentials.status).toBe(200);
      expect(withCredentials.body.settings.api_base_url).toBe('https://93.184.216.35/x');
    }
  });

  it('checks again when connecting: a stored loopback URL (or a name whose DNS moved) gets nothing', async () => {
    for (const connection of [twilio, vapi, retell, agent]) {
      const created = await post({ ...connection, name: `${connection.type} moved behind` });
      expect(created.status).toBe(201);
      // As a DNS answer that changed after the save would: the stored URL now reaches loopback.
      await t.sql(
        `UPDATE provider_connections SET settings = settings || jsonb_build_object('api_base_url', $2::text)
         WHERE id = $1`,
        [created.body.id, `${canary.url}/x`],
      );
      const campaign = await t.createCampaign(key, {
        max_attempts: 1,
        caller_id: '+15550009999',
        provider_connection_id: created.body.id,
      });
      const [targetId] = await t.addTargets(key, campaign.id, {
        targets: [{ phone_number: '+15550101234' }],
        launch: true,
      });
      await waitFor(
        () => t.sql(`SELECT ended_reason FROM call_logs WHERE target_id = $1`, [targetId]),
        (rows) => rows.length === 1 && rows[0].ended_reason === 'provider-error',
      );
    }
    expect(canary.received).toEqual([]);
  });
});

describe('provider connections without SECRETS_KEY (PostgreSQL)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('refuses to store credentials with 409, but keeps a simulator connection', async () => {
    const { apiKey } = await t.createOrganization();
    const refused = await t
      .http()
      .post('/api/v1/provider-connections')
      .set('X-API-Key', apiKey)
      .send(twilio);
    expect(refused.status).toBe(409);
    expect(refused.body).toEqual({
      detail:
        'Cannot store credentials: SECRETS_KEY is not set. Set SECRETS_KEY to a 32-byte key ' +
        '(64 hex characters or base64, e.g. `openssl rand -base64 32`) and restart the service.',
    });
    expect(await t.sql(`SELECT id FROM provider_connections`)).toEqual([]);

    const simulated = await t
      .http()
      .post('/api/v1/provider-connections')
      .set('X-API-Key', apiKey)
      .send({ type: 'simulated', name: 'Simulator', is_default: true });
    expect(simulated.status).toBe(201);
  });
});
