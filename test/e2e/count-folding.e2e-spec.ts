import { foldingDue } from '../../src/common/persistence/count-folding.js';
import { createTestApp, TestApp, waitFor } from '../support/test-app.js';

/**
 * The folding job on its own timer (docs/architecture.md, "Count folding"): rows appended past the
 * policy are folded in the background, with no request asking, the counts read the same before
 * and after, and the table folded is vacuumed.
 */
describe('the count folding job', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { ROLE: 'api', COUNT_FOLD_INTERVAL_SECONDS: '0.2' } });
  });
  afterAll(() => t?.close());

  it('folds a campaign whose count rows pile up past the policy, and the list counts the same', async () => {
    const { apiKey } = await t.createOrganization();
    const { id: campaignId } = await t.createCampaign(apiKey);
    const [id] = await t.addTargets(apiKey, campaignId, {
      targets: [{ phone_number: '+15550100001' }, { phone_number: '+15550100002' }],
    });
    const rows = async () =>
      (
        await t.sql<{ appended: number; folded: number; targets: number }>(
          `SELECT count(*) FILTER (WHERE NOT folded)::int AS appended,
                  count(*) FILTER (WHERE folded)::int AS folded, sum(delta)::int AS targets
             FROM target_count_deltas WHERE campaign_id = $1`,
          [campaignId],
        )
      )[0];
    // 41 statements, each moving the target back or forth (ending Failed): two rows appended each
    // (its old group -1, its new one +1), 83 with the add's: past the policy's 64.
    for (let i = 0; i < 41; i++)
      await t.sql(`UPDATE targets SET status = $2 WHERE id = $1`, [
        id,
        i % 2 ? 'Pending' : 'Failed',
      ]);
    const list = async () =>
      (
        await t
          .http()
          .get(`/api/v1/campaigns/${campaignId}/targets?status=Failed`)
          .set('X-API-Key', apiKey)
      ).body.page_count;
    const before = await list();
    // The job folds (perhaps while the statements still ran: the rows appended after its last
    // pass are then within the policy, and stay until more pile up).
    const after = await waitFor(rows, (r) => r.folded > 0 && !foldingDue(r.appended, r.folded));
    expect([after.targets, after.appended + after.folded < 83]).toEqual([2, true]);
    expect([before, await list()]).toEqual([1, 1]);
    // And vacuums the table it folded (vacuum_count counts VACUUM statements, not autovacuum's).
    const vacuums = async () =>
      (
        await t.sql<{ vacuums: number }>(
          `SELECT vacuum_count::int AS vacuums FROM pg_stat_user_tables
            WHERE relname = 'target_count_deltas'`,
        )
      )[0].vacuums;
    expect(await waitFor(vacuums, (n) => n > 0)).toBeGreaterThan(0);
  });
});
