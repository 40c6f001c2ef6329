import { createTestApp, TestApp } from '../support/test-app.js';

/**
 * DECISIONS: a date-only upper bound includes that whole day. Rows carry microseconds, JS dates only
 * milliseconds: a row at 23:59:59.999500 must still be in `to_date` of its day, and not in the next.
 */
describe('date-only upper bounds take in the last microseconds of the day', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { ROLE: 'api' } });
  });
  afterAll(() => t.close());

  it('lists a target created at 23:59:59.9995 on its day, and not on the next', async () => {
    const { apiKey } = await t.createOrganization();
    const campaign = await t.createCampaign(apiKey);
    const [id] = await t.addTargets(apiKey, campaign.id, {
      targets: [{ phone_number: '+15550101234' }],
    });
    await t.sql(
      `UPDATE targets SET created_at = '2026-01-31 23:59:59.9995+00', last_call_date = '2026-01-31 23:59:59.9995+00' WHERE id = $1`,
      [id],
    );
    const list = (query: string) =>
      t.http().get(`/api/v1/campaigns/${campaign.id}/targets?${query}`).set('X-API-Key', apiKey);

    const sameDay = await list('from_date=2026-01-31&to_date=2026-01-31');
    expect(sameDay.body.targets.map((x: { id: string }) => x.id)).toEqual([id]);
    const lastCall = await list('to_last_call_date=2026-01-31');
    expect(lastCall.body.targets.map((x: { id: string }) => x.id)).toEqual([id]);
    const nextDay = await list('from_date=2026-02-01&to_date=2026-02-01');
    expect(nextDay.body).toEqual({
      targets: [],
      page_count: 0,
      next_page: null,
      next_cursor: null,
    });
    const dayBefore = await list('to_date=2026-01-30');
    expect(dayBefore.body).toEqual({
      targets: [],
      page_count: 0,
      next_page: null,
      next_cursor: null,
    });
  });
});
