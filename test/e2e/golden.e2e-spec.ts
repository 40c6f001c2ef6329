import { readdirSync, readFileSync } from 'fs';
import { join } from 'path';
import { createTestApp, TestApp } from '../support/test-app.js';

/**
 * The service answers every catalogued request exactly as FastAPI does: same status, same body, byte for
 * byte. The goldens are FastAPI's own answers, recorded by `npm run golden:generate`
 * (scripts/fastapi-oracle); no Python runs here. For a valid request the oracle only stubs ("compare":
 * "status"), and where the service differs on purpose the golden says so (`service_differs`).
 */
interface GoldenCase {
  name: string;
  method: string;
  path: string;
  query?: string;
  body?: string;
  content_type?: string;
  compare: 'body' | 'status';
  fastapi: { status: number; body: string };
  service_differs?: { reason: string; status: number; body: string };
}

const GOLDEN_DIR = join(import.meta.dirname, '..', 'golden');
const groups = readdirSync(GOLDEN_DIR)
  .filter((f) => f.endsWith('.json'))
  .sort()
  .map((file) => ({
    group: file.replace(/\.json$/, ''),
    cases: JSON.parse(readFileSync(join(GOLDEN_DIR, file), 'utf8')) as GoldenCase[],
  }));

describe('FastAPI golden answers', () => {
  let t: TestApp;
  let apiKey: string;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    t = await createTestApp();
    ({ apiKey } = await t.createOrganization());
    const campaign = await t.createCampaign(apiKey, {
      steps: [{ friendly_id: 'intake', type: 'webhook' }],
    });
    const added = await t
      .http()
      .post(`/api/v1/campaigns/${campaign.id}/targets`)
      .set('X-API-Key', apiKey)
      .send({ targets: [{ phone_number: '+15550100000' }] })
      .expect(200);
    const blacklist = await t
      .http()
      .post('/api/v1/blacklists')
      .set('X-API-Key', apiKey)
      .send({ name: 'golden' })
      .expect(201);
    ids['{campaign_id}'] = campaign.id;
    ids['{target_id}'] = added.body.target_ids[0];
    ids['{blacklist_id}'] = blacklist.body.id;
    ids['{friendly_id}'] = 'intake';
  });

  afterAll(async () => {
    await t?.close();
  });

  async function send(c: GoldenCase) {
    let url = c.path;
    for (const [placeholder, value] of Object.entries(ids)) url = url.replace(placeholder, value);
    if (c.query !== undefined) url += `?${c.query}`;
    const method = c.method.toLowerCase() as 'get' | 'post' | 'patch' | 'delete';
    let req = t.http()[method](url).set('X-API-Key', apiKey);
    if (c.body !== undefined) {
      req = req.set('Content-Type', c.content_type ?? 'application/json').send(c.body);
    }
    const res = await req;
    return { status: res.status, body: res.text };
  }

  for (const { group, cases } of groups) {
    describe(group, () => {
      it.each(cases.map((c) => [c.name, c] as const))('%s', async (_name, c) => {
        const actual = await send(c);
        const expected = c.service_differs ?? c.fastapi;
        // Some cases compare the status alone (the body is the service's own words).
        const statusOnly = c.compare === 'status';
        expect(statusOnly ? actual.status : actual).toEqual(
          statusOnly ? expected.status : { status: expected.status, body: expected.body },
        );
      });
    });
  }
});
