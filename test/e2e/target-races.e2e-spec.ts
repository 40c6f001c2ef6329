import { Client } from 'pg';
import { createTestApp, TestApp, waitFor } from '../support/test-app';
import { usesPglite } from '../support/test-database';

describe('a delete racing a call that starts', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { ROLE: 'api' } });
  });
  afterAll(() => t.close());

  it('reports the target in flight (skipped), not missing, and keeps it', async () => {
    const { apiKey } = await t.createOrganization();
    const campaign = await t.createCampaign(apiKey);
    const [id] = await t.addTargets(apiKey, campaign.id, {
      targets: [{ phone_number: '+15550101234' }],
      launch: true,
    });

    // A dispatcher moving the target to In Progress, not yet committed.
    const dispatcher = new Client({ connectionString: t.databaseUrl });
    await dispatcher.connect();
    await dispatcher.query('BEGIN');
    await dispatcher.query(
      `UPDATE targets SET status = 'In Progress', attempts = 1 WHERE id = $1`,
      [id],
    );

    const deletion = t
      .http()
      .delete(`/api/v1/campaigns/${campaign.id}/targets`)
      .set('X-API-Key', apiKey)
      .send({ target_ids: [id] })
      .then((res) => res);
    // On PostgreSQL, commit only once the delete waits on the dispatcher's row lock, so the two
    // really race. PGlite is one session: its server holds every other statement back until the open
    // transaction ends, there is no lock to observe, and the delete sees the committed row either way.
    if (!usesPglite()) {
      await waitFor(
        () =>
          t.sql<{ waiting: number }>(
            `SELECT count(*)::int AS waiting FROM pg_stat_activity
              WHERE datname = current_database() AND wait_event_type = 'Lock'`,
          ),
        ([row]) => row.waiting > 0,
      );
    }
    await dispatcher.query('COMMIT');
    await dispatcher.end();

    const res = await deletion;
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      deleted: [],
      not_found: [],
      skipped: [{ id, reason: 'in_progress' }],
    });
    expect(await t.sql('SELECT status FROM targets WHERE id = $1', [id])).toEqual([
      { status: 'In Progress' },
    ]);
  });
});
