import { createTestApp, TestApp } from '../support/test-app.js';

/**
 * Issue 16, "No input makes a 5xx": keys that JavaScript objects treat specially and JSON nested far
 * deeper than any request needs get a 4xx like any other bad input, and the process stays up.
 */
describe('hostile JSON', () => {
  let t: TestApp;
  let apiKey: string;
  let campaignId: string;

  beforeAll(async () => {
    t = await createTestApp({ env: { ROLE: 'api' } });
    ({ apiKey } = await t.createOrganization());
    campaignId = (await t.createCampaign(apiKey)).id;
  });
  afterAll(() => t?.close());

  const post = (path: string, text: string) =>
    t.http().post(path).set('X-API-Key', apiKey).set('Content-Type', 'application/json').send(text);

  it.each(['constructor', '__proto__', 'toString', 'hasOwnProperty'])(
    'a %s key where a string belongs is string_type, like any other object there',
    async (key) => {
      const value = { [key]: 'x' };
      const res = await post(
        '/api/v1/campaigns',
        `{"name": {${JSON.stringify(key)}: "x"}, "type": "patient"}`,
      );
      expect(res.status).toBe(422);
      expect(res.body).toEqual({
        detail: [
          {
            type: 'string_type',
            loc: ['body', 'name'],
            msg: 'Input should be a valid string',
            input: value,
          },
        ],
      });
    },
  );

  it.each(['constructor', '__proto__'])(
    'a %s key where a provider connection takes a string is string_type too',
    async (key) => {
      const res = await post(
        '/api/v1/provider-connections',
        `{"type": "simulated", "name": {${JSON.stringify(key)}: "x"}}`,
      );
      expect(res.status).toBe(422);
      expect(res.body).toEqual({
        detail: [
          {
            type: 'string_type',
            loc: ['body', 'name'],
            msg: 'Input should be a valid string',
            input: JSON.parse(`{${JSON.stringify(key)}: "x"}`),
          },
        ],
      });
    },
  );

  it('constructor and __proto__ keys inside free-form data are kept as data', async () => {
    const res = await post(
      `/api/v1/campaigns/${campaignId}/targets`,
      '{"targets": [{"phone_number": "+15550100000", "input_data": {"constructor": "c", "__proto__": {"p": 1}}}]}',
    );
    expect(res.status).toBe(200);
    const target = await t
      .http()
      .get(`/api/v1/targets/${res.body.target_ids[0]}`)
      .set('X-API-Key', apiKey);
    expect(target.body.input_data).toEqual(
      JSON.parse('{"constructor": "c", "__proto__": {"p": 1}}'),
    );
  });

  it('a __proto__ key never becomes the prototype of a request model', async () => {
    const res = await post(
      `/api/v1/campaigns/${campaignId}/targets`,
      '{"__proto__": {"targets": [{"phone_number": "+15550100000"}]}}',
    );
    expect(res.status).toBe(422);
    expect(res.body.detail).toEqual([
      {
        type: 'missing',
        loc: ['body', 'targets'],
        msg: 'Field required',
        input: JSON.parse('{"__proto__": {"targets": [{"phone_number": "+15550100000"}]}}'),
      },
    ]);
  });

  it.each([65, 2_000, 200_000])(
    'JSON nested %i levels deep is refused naming the limit, and the process stays up',
    async (depth) => {
      const text = `{"name": ${'['.repeat(depth)}${']'.repeat(depth)}, "type": "patient"}`;
      const res = await post('/api/v1/campaigns', text);
      expect(res.status).toBe(422);
      expect(res.body).toEqual({
        detail: [
          {
            type: 'json_invalid',
            loc: ['body', 9 + 63],
            msg: 'JSON decode error',
            input: {},
            ctx: { error: 'JSON must not be nested more than 64 levels deep' },
          },
        ],
      });
      await t.http().get('/api/v1/health').expect(200);
    },
  );

  it('64 levels are the limit: free-form data may nest up to it', async () => {
    const deep = `${'{"a":'.repeat(62)}1${'}'.repeat(62)}`;
    const res = await post(
      `/api/v1/campaigns/${campaignId}/targets`,
      `{"targets": [{"phone_number": "+15550100000", "input_data": ${deep}}]}`,
    );
    // The root object, targets, the target and input_data are levels 1 to 4: 62 objects from
    // input_data down reach level 65, refused ...
    expect(res.status).toBe(422);
    const shallower = `${'{"a":'.repeat(61)}1${'}'.repeat(61)}`;
    const ok = await post(
      `/api/v1/campaigns/${campaignId}/targets`,
      `{"targets": [{"phone_number": "+15550100000", "input_data": ${shallower}}]}`,
    );
    // ... and 61 reach level 64, taken.
    expect(ok.status).toBe(200);
  });
});
