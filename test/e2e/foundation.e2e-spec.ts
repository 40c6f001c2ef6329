import { createTestApp, TestApp } from '../support/test-app.js';

describe('foundation: health, auth, errors, OpenAPI', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({
      env: {
        BOOTSTRAP_API_KEYS:
          'acme=acme-key-1-0123456789abcdef0123456789,globex=globex-key-1-0123456789abcdef012345678',
      },
    });
  });
  afterAll(() => t.close());

  it('answers health without a key', async () => {
    const res = await t.http().get('/api/v1/health');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ok' });
  });

  it('refuses a missing or unknown key with 401', async () => {
    const missing = await t.http().get('/api/v1/campaigns');
    expect(missing.status).toBe(401);
    expect(missing.body).toEqual({
      detail:
        'Not authenticated: send your API key in the X-API-Key header (or Authorization: Bearer <key>)',
    });
    const wrong = await t.http().get('/api/v1/campaigns').set('X-API-Key', 'nope');
    expect(wrong.status).toBe(401);
    expect(wrong.body).toEqual({ detail: 'Invalid API key' });
  });

  it('accepts bootstrap keys as X-API-Key and as Bearer', async () => {
    const a = await t
      .http()
      .get('/api/v1/campaigns')
      .set('X-API-Key', 'acme-key-1-0123456789abcdef0123456789');
    expect(a.status).toBe(200);
    expect(a.body).toEqual({ campaigns: [], page_count: 0, next_page: null });
    const b = await t
      .http()
      .get('/api/v1/campaigns')
      .set('Authorization', 'Bearer globex-key-1-0123456789abcdef012345678');
    expect(b.status).toBe(200);
  });

  it('answers unknown routes 404 and known routes with the wrong method 405', async () => {
    const notFound = await t
      .http()
      .get('/api/v1/nothing-here')
      .set('X-API-Key', 'acme-key-1-0123456789abcdef0123456789');
    expect(notFound.status).toBe(404);
    expect(notFound.body).toEqual({ detail: 'Not Found' });
    const wrongMethod = await t
      .http()
      .put('/api/v1/campaigns')
      .set('X-API-Key', 'acme-key-1-0123456789abcdef0123456789');
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.body).toEqual({ detail: 'Method Not Allowed' });
    expect(wrongMethod.headers.allow).toBe('GET, POST');
  });

  it('turns malformed JSON and non-object bodies into FastAPI 422 bodies', async () => {
    const malformed = await t
      .http()
      .post('/api/v1/campaigns')
      .set('X-API-Key', 'acme-key-1-0123456789abcdef0123456789')
      .set('Content-Type', 'application/json')
      .send('{"name": ');
    expect(malformed.status).toBe(422);
    expect(malformed.body.detail).toHaveLength(1);
    expect(malformed.body.detail[0]).toMatchObject({
      type: 'json_invalid',
      msg: 'JSON decode error',
      input: {},
    });
    expect(malformed.body.detail[0].loc[0]).toBe('body');

    const array = await t
      .http()
      .post('/api/v1/campaigns')
      .set('X-API-Key', 'acme-key-1-0123456789abcdef0123456789')
      .send([1, 2]);
    expect(array.status).toBe(422);
    expect(array.body).toEqual({
      detail: [
        {
          type: 'model_attributes_type',
          loc: ['body'],
          msg: 'Input should be a valid dictionary or object to extract fields from',
          input: [1, 2],
        },
      ],
    });
  });

  it('says which Content-Type to send when a JSON body came as another type (curl -d, fetch of a string)', async () => {
    const asForm = await t
      .http()
      .post('/api/v1/campaigns')
      .set('X-API-Key', 'acme-key-1-0123456789abcdef0123456789')
      .set('Content-Type', 'application/x-www-form-urlencoded')
      .send('{"name":"Flu shots","type":"patient"}');
    expect(asForm.status).toBe(422);
    expect(asForm.body).toEqual({
      detail: [
        {
          type: 'model_attributes_type',
          loc: ['body'],
          msg:
            'Input should be a valid dictionary or object to extract fields from: the body was sent as ' +
            'application/x-www-form-urlencoded; send JSON with the header Content-Type: application/json',
          input: '{"name":"Flu shots","type":"patient"}',
        },
      ],
    });
    // No Content-Type at all reads the body as JSON (as FastAPI does): the same text is accepted.
    const untyped = await t
      .http()
      .post('/api/v1/campaigns')
      .set('X-API-Key', 'acme-key-1-0123456789abcdef0123456789')
      .unset('Content-Type')
      .send(Buffer.from('{"name":"Flu shots","type":"patient"}'));
    expect(untyped.status).toBe(201);
  });
  it('reports every invalid field of a campaign, one error each, as pydantic words them', async () => {
    const res = await t
      .http()
      .post('/api/v1/campaigns')
      .set('X-API-Key', 'acme-key-1-0123456789abcdef0123456789')
      .send({ type: 'robocall', max_attempts: '0', retry_delay_minutes: 'soon', steps: 'x' });
    expect(res.status).toBe(422);
    expect(res.body).toEqual({
      detail: [
        {
          type: 'missing',
          loc: ['body', 'name'],
          msg: 'Field required',
          input: { type: 'robocall', max_attempts: '0', retry_delay_minutes: 'soon', steps: 'x' },
        },
        {
          type: 'enum',
          loc: ['body', 'type'],
          msg: "Input should be 'payor', 'patient', 'provider', 'patient_incoming', 'patient_incoming_scheduling', 'patient_outgoing_scheduling' or 'patient_billing'",
          input: 'robocall',
          ctx: {
            expected:
              "'payor', 'patient', 'provider', 'patient_incoming', 'patient_incoming_scheduling', 'patient_outgoing_scheduling' or 'patient_billing'",
          },
        },
        {
          type: 'greater_than_equal',
          loc: ['body', 'max_attempts'],
          msg: 'Input should be greater than or equal to 1',
          input: '0',
          ctx: { ge: 1 },
        },
        {
          type: 'int_parsing',
          loc: ['body', 'retry_delay_minutes'],
          msg: 'Input should be a valid integer, unable to parse string as an integer',
          input: 'soon',
        },
        {
          type: 'list_type',
          loc: ['body', 'steps'],
          msg: 'Input should be a valid list',
          input: 'x',
        },
      ],
    });
  });

  it('serves the OpenAPI document and Swagger UI', async () => {
    const doc = await t.http().get('/openapi.json');
    expect(doc.status).toBe(200);
    expect(doc.body.openapi).toMatch(/^3\./);
    expect(doc.body.paths['/api/v1/health'].get.operationId).toBe('health_check_api_v1_health_get');
    expect(doc.body.components.schemas.HTTPValidationError).toBeDefined();
    const ui = await t.http().get('/docs/');
    expect(ui.status).toBe(200);
    expect(ui.text).toContain('swagger');
  });
});

describe('health when the database is down', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('answers 503 once the database is unreachable', async () => {
    expect((await t.http().get('/api/v1/health')).status).toBe(200);
    await t.cutDatabase();
    const res = await t.http().get('/api/v1/health');
    expect(res.status).toBe(503);
    expect(res.body).toEqual({ detail: 'Service Unavailable' });
    expect(res.headers['retry-after']).toBe('5');
  });
});

describe('body limit', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({
      env: { BODY_LIMIT: '2kb', BOOTSTRAP_API_KEYS: 'acme=acme-key-1-0123456789abcdef0123456789' },
    });
  });
  afterAll(() => t.close());

  it('answers 413 with a detail body beyond BODY_LIMIT, and nothing is created', async () => {
    const res = await t
      .http()
      .post('/api/v1/campaigns')
      .set('X-API-Key', 'acme-key-1-0123456789abcdef0123456789')
      .send({ name: 'x'.repeat(4000), type: 'patient' });
    expect(res.status).toBe(413);
    expect(res.body).toEqual({ detail: 'Request body too large' });
    const list = await t
      .http()
      .get('/api/v1/campaigns')
      .set('X-API-Key', 'acme-key-1-0123456789abcdef0123456789');
    expect(list.body.campaigns).toEqual([]);
  });
});

describe('DELETE /api/v1/api-keys/{api_key_id}', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('revokes a key of the caller’s organization, and no other’s', async () => {
    const acme = await t.createOrganization();
    const globex = await t.createOrganization();
    const [acmeKey] = await t.sql<{ id: string }>(
      'SELECT id FROM api_keys WHERE organization_id = $1',
      [acme.organizationId],
    );
    const foreign = await t
      .http()
      .delete(`/api/v1/api-keys/${acmeKey.id}`)
      .set('X-API-Key', globex.apiKey);
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual({ detail: `API key ${acmeKey.id} not found` });

    const revoked = await t
      .http()
      .delete(`/api/v1/api-keys/${acmeKey.id}`)
      .set('X-API-Key', acme.apiKey);
    expect(revoked.status).toBe(200);
    expect(revoked.body).toEqual({ id: acmeKey.id, status: 'revoked' });
    expect((await t.http().get('/api/v1/campaigns').set('X-API-Key', acme.apiKey)).status).toBe(
      401,
    );
  });
});
