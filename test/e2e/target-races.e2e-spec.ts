import { Client } from 'pg';
import { createTestApp, TestApp, waitFor } from '../support/test-app.js';
import { usesPglite } from '../support/test-database.js';

describe('a delete racing a call that starts', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { ROLE: 'api' } });
  });
  afterAll(() => t.close());

  /**
   * On PostgreSQL, until the request under test waits on the open transaction's lock, so the two really
   * race. PGlite is one session: its server holds every other statement back until the open
   * transaction ends, so there is no lock to observe and the request runs after the commit.
   */
  const untilAStatementWaitsOnALock = async () => {
    if (usesPglite()) return;
    await waitFor(
      () =>
        t.sql<{ waiting: number }>(
          `SELECT count(*)::int AS waiting FROM pg_stat_activity
            WHERE datname = current_database() AND wait_event_type = 'Lock'`,
        ),
      ([row]) => row.waiting > 0,
    );
  };

  /** Another request adding a target of this external id, not yet committed: COMMIT and end it. */
  const addingUncommitted = async (
    organizationId: string,
    campaignId: string,
    externalId: string,
  ) => {
    const other = new Client({ connectionString: t.databaseUrl });
    await other.connect();
    await other.query('BEGIN');
    await other.query(
      `INSERT INTO targets (id, organization_id, campaign_id, external_id, phone_number, input_data,
                            status, created_at, updated_at)
       VALUES (gen_random_uuid(), $1, $2, $3, '+15550101000', '{}', 'Pending', now(), now())`,
      [organizationId, campaignId, externalId],
    );
    return other;
  };

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
    // Commit once the delete waits on the dispatcher's row lock (on PGlite the delete then sees the
    // committed row).
    await untilAStatementWaitsOnALock();
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

  it('allow_duplicates=false: a request racing an add of the same external id is refused, adding nothing', async () => {
    const { apiKey, organizationId } = await t.createOrganization();
    const campaign = await t.createCampaign(apiKey);

    const other = await addingUncommitted(organizationId, campaign.id, 'RACE');

    const adding = t
      .http()
      .post(`/api/v1/campaigns/${campaign.id}/targets`)
      .set('X-API-Key', apiKey)
      .send({
        targets: [
          { phone_number: '+15550101001', external_id: 'NEW' },
          { phone_number: '+15550101002', external_id: 'RACE' },
        ],
        allow_duplicates: false,
      })
      .then((res) => res);
    // On PostgreSQL the insert waits on the other transaction's entry in the unique index (its lookup
    // did not see the uncommitted row); on PGlite the request waits for the transaction to end and
    // its lookup sees the row. Refused the same way either way.
    await untilAStatementWaitsOnALock();
    await other.query('COMMIT');
    await other.end();

    const res = await adding;
    expect([res.status, res.body]).toEqual([
      409,
      {
        detail: 'Duplicate external ids (already in the campaign or repeated in the request): RACE',
      },
    ]);
    expect(
      await t.sql(`SELECT external_id FROM targets WHERE campaign_id = $1`, [campaign.id]),
    ).toEqual([{ external_id: 'RACE' }]);
  });

  it('allow_duplicates=false: an import racing an add of the same external id ends rejected, adding nothing', async () => {
    const { apiKey, organizationId } = await t.createOrganization();
    const campaign = await t.createCampaign(apiKey);

    const other = await addingUncommitted(organizationId, campaign.id, 'RACE');

    const importing = t
      .http()
      .post(`/api/v1/campaigns/${campaign.id}/targets/import`)
      .query({ allow_duplicates: 'false' })
      .set('X-API-Key', apiKey)
      .set('Content-Type', 'text/csv')
      .send('phone_number,external_id\n+15550101001,NEW\n+15550101002,RACE\n')
      .then((res) => res);
    // On PostgreSQL the check does not see the uncommitted row and the insert waits on it in the
    // unique index; on PGlite the request waits for the transaction to end and its check sees it.
    // Rejected the same way either way, as the import would be alone.
    await untilAStatementWaitsOnALock();
    await other.query('COMMIT');
    await other.end();

    const res = await importing;
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      status: 'rejected',
      allow_duplicates: false,
      rows: 2,
      invalid_rows: 1,
      created: 0,
      ignored_rows: 0,
      errors: [
        {
          row: 3,
          column: 'external_id',
          loc: ['external_id'],
          type: 'value_error',
          msg: 'Value error, this external id is already in the campaign',
          input: 'RACE',
        },
      ],
      ignored: [],
    });
    expect(
      await t.sql(`SELECT external_id FROM targets WHERE campaign_id = $1`, [campaign.id]),
    ).toEqual([{ external_id: 'RACE' }]);
  });
});
