import { readFileSync } from 'fs';
import { join } from 'path';
import { createTestApp, TestApp } from '../support/test-app.js';

/**
 * openapi.json at the repository root is what integrators generate clients from; this fails when the
 * running service serves anything else, so every contract change shows in review. Regenerate it with
 * `npm run openapi:write`.
 */
describe('the committed OpenAPI document', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ env: { ROLE: 'api' } });
  });
  afterAll(() => t?.close());

  it('is the document the service serves at /openapi.json (else: npm run openapi:write)', async () => {
    const committed = JSON.parse(
      readFileSync(join(import.meta.dirname, '..', '..', 'openapi.json'), 'utf8'),
    );
    const served = await t.http().get('/openapi.json').expect(200);
    expect(served.body).toEqual(committed);
  });
});
