import { Pool } from 'pg';
import { CallLogRepository } from '../../src/modules/call-log/application/ports/call-log.repository.js';
import { createTestApp, TestApp, waitFor } from '../support/test-app.js';

const FINAL = ['Finished', 'Failed', 'To review'];

/** GET /api/v1/call-logs and /api/v1/call-logs/{id}: fields, paging, filters, tenancy, 422s. */
describe('call logs', () => {
  let t: TestApp;
  let apiKey: string;
  let campaignId: string;
  let otherCampaignId: string;
  let targetIds: string[];
  let logIds: number[];

  beforeAll(async () => {
    t = await createTestApp();
    ({ apiKey } = await t.createOrganization());
    const campaign = await t.createCampaign(apiKey, { max_attempts: 1, caller_id: '+15550009999' });
    const other = await t.createCampaign(apiKey, { max_attempts: 1 });
    campaignId = campaign.id;
    otherCampaignId = other.id;
    targetIds = await addAndCall(campaignId, ['+15550101111', '+15550100000', '+15550100004']);
    await addAndCall(otherCampaignId, ['+15550102222']);
    const logs = await t.sql(`SELECT id FROM call_logs WHERE target_id = ANY($1) ORDER BY id`, [
      targetIds,
    ]);
    logIds = logs.map((l) => Number(l.id));
  });
  afterAll(async () => {
    await t?.close();
  });

  async function addAndCall(campaign: string, phones: string[]): Promise<string[]> {
    const res = await t
      .http()
      .post(`/api/v1/campaigns/${campaign}/targets`)
      .set('X-API-Key', apiKey)
      .send({
        targets: phones.map((phone_number) => ({ phone_number, input_data: { plan: 'gold' } })),
      });
    const ids: string[] = res.body.target_ids;
    // One at a time, so call log ids follow the phone order.
    for (const id of ids) {
      await t
        .http()
        .post(`/api/v1/campaigns/${campaign}/calls`)
        .set('X-API-Key', apiKey)
        .send({ target_ids: [id] });
      await waitFor(
        () => t.sql(`SELECT status FROM targets WHERE id = $1`, [id]),
        (rows) => FINAL.includes(rows[0].status),
      );
    }
    return ids;
  }

  const list = (query = '', key = apiKey) =>
    t.http().get(`/api/v1/call-logs${query}`).set('X-API-Key', key);
  const get = (id: string | number, query = '', key = apiKey) =>
    t.http().get(`/api/v1/call-logs/${id}${query}`).set('X-API-Key', key);

  function expectedGood(id: number, createdAt: string) {
    return {
      id: String(id),
      to: '+15550101111',
      from_: '+15550009999',
      created_at: createdAt,
      call_length: '00:00:00',
      call_ended_reason: 'assistant-ended-call',
      call_categorization: { category: 'GOOD', subcategory: null, outcome: 'GOOD' },
      agent_data: { agent: 'simulated-agent', input_data: { plan: 'gold' }, attempt: 1 },
      campaign_target_id: targetIds[0],
      post_call_data: { summary: 'The callee confirmed the information.', confirmed: true },
      qa: {
        score: 100,
        passed: true,
        checks: { greeting: true, identity_verified: true, closing: true },
      },
      transcripts: [
        {
          role: 'assistant',
          message: 'Hello, this is an automated assistant calling on behalf of your provider.',
        },
        { role: 'user', message: 'Yes, that works for me.' },
        { role: 'assistant', message: 'Thank you, everything is confirmed. Goodbye.' },
      ],
    };
  }

  it('reads one call log with every field; recordings only on request', async () => {
    const [row] = await t.sql(`SELECT created_at FROM call_logs WHERE id = $1`, [logIds[0]]);
    const createdAt = row.created_at.toISOString();
    const res = await get(logIds[0]);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ...expectedGood(logIds[0], createdAt), recording_urls: [] });
    const withRecordings = await get(logIds[0], '?include_recordings=true');
    expect(withRecordings.body).toEqual({
      ...expectedGood(logIds[0], createdAt),
      recording_urls: [`https://recordings.invalid/simulated/${logIds[0]}.wav`],
    });
  });

  it('a call that was not answered has an empty transcript and no QA', async () => {
    const res = await get(logIds[1]);
    expect(res.body).toEqual({
      id: String(logIds[1]),
      to: '+15550100000',
      from_: '+15550009999',
      created_at: expect.any(String),
      call_length: '00:00:00',
      call_ended_reason: 'customer-did-not-answer',
      call_categorization: { category: 'NO_RESPONSE', subcategory: null, outcome: 'NO_RESPONSE' },
      agent_data: { agent: 'simulated-agent', input_data: { plan: 'gold' }, attempt: 1 },
      campaign_target_id: targetIds[1],
      post_call_data: null,
      qa: null,
      transcripts: [],
      recording_urls: [],
    });
  });

  it("lists the organization's call logs in id order with paging", async () => {
    const all = await list();
    expect(all.status).toBe(200);
    expect(all.body.page_count).toBe(1);
    expect(all.body.next_page).toBeNull();
    expect(all.body.call_logs.map((l: any) => l.id)).toEqual([
      ...logIds.map(String),
      expect.any(String),
    ]);
    const [row] = await t.sql(`SELECT created_at FROM call_logs WHERE id = $1`, [logIds[0]]);
    expect(all.body.call_logs[0]).toEqual(expectedGood(logIds[0], row.created_at.toISOString()));
    expect(all.body.call_logs[0]).not.toHaveProperty('recording_urls');

    const page0 = await list('?limit=2');
    expect(page0.body).toMatchObject({ page_count: 2, next_page: 1 });
    expect(page0.body.call_logs.map((l: any) => l.id)).toEqual(logIds.slice(0, 2).map(String));
    const page1 = await list('?limit=2&page=1');
    expect(page1.body).toMatchObject({ page_count: 2, next_page: null });
    expect(page1.body.call_logs).toHaveLength(2);
    const beyond = await list('?limit=2&page=5');
    expect(beyond.body).toEqual({ call_logs: [], page_count: 2, next_page: null });
  });

  it('filters by campaign and by date (a date-only to_date covers the whole day)', async () => {
    const byCampaign = await list(`?campaign_id=${campaignId}`);
    expect(byCampaign.body.call_logs.map((l: any) => l.id)).toEqual(logIds.map(String));
    const malformed = await list('?campaign_id=nope');
    expect(malformed.body).toEqual({ call_logs: [], page_count: 0, next_page: null });
    const [row] = await t.sql(`SELECT created_at FROM call_logs WHERE id = $1`, [logIds[0]]);
    const today = (row.created_at as Date).toISOString().slice(0, 10);
    const todayOnly = await list(`?from_date=${today}&to_date=${today}&campaign_id=${campaignId}`);
    expect(todayOnly.body.call_logs.map((l: any) => l.id)).toContain(String(logIds[0]));
    const future = await list(`?from_date=2999-01-01`);
    expect(future.body).toEqual({ call_logs: [], page_count: 0, next_page: null });
    const past = await list(`?to_date=2000-01-01T00:00:00Z`);
    expect(past.body.call_logs).toEqual([]);
  });

  it('another organization sees none of them (404 on read)', async () => {
    const other = await t.createOrganization();
    const res = await list('', other.apiKey);
    expect(res.body).toEqual({ call_logs: [], page_count: 0, next_page: null });
    const read = await get(logIds[0], '', other.apiKey);
    expect(read.status).toBe(404);
    expect(read.body).toEqual({ detail: 'Call log not found' });
    const unknown = await get(999999999);
    expect(unknown.status).toBe(404);
  });

  it('call logs outlive their target', async () => {
    const res = await t
      .http()
      .delete(`/api/v1/campaigns/${campaignId}/targets`)
      .set('X-API-Key', apiKey)
      .send({ target_ids: [targetIds[2]] });
    expect(res.status).toBe(200);
    const read = await get(logIds[2]);
    expect(read.status).toBe(200);
    expect(read.body.campaign_target_id).toBe(targetIds[2]);
  });

  it('422 for a call_log_id that is not a non-negative integer, and for bad query values', async () => {
    const text = await get('abc');
    expect(text.status).toBe(422);
    expect(text.body).toEqual({
      detail: [
        {
          type: 'int_parsing',
          loc: ['path', 'call_log_id'],
          msg: 'Input should be a valid integer, unable to parse string as an integer',
          input: 'abc',
        },
      ],
    });
    const negative = await get('-1');
    expect(negative.body).toEqual({
      detail: [
        {
          type: 'greater_than_equal',
          loc: ['path', 'call_log_id'],
          msg: 'Input should be greater than or equal to 0',
          input: '-1',
          ctx: { ge: 0 },
        },
      ],
    });
    const flag = await get(logIds[0], '?include_recordings=perhaps');
    expect(flag.body).toEqual({
      detail: [
        {
          type: 'bool_parsing',
          loc: ['query', 'include_recordings'],
          msg: 'Input should be a valid boolean, unable to interpret input',
          input: 'perhaps',
        },
      ],
    });
    const paging = await list('?limit=0&page=-1&from_date=yesterday');
    expect(paging.status).toBe(422);
    expect(paging.body).toEqual({
      detail: [
        {
          type: 'greater_than_equal',
          loc: ['query', 'page'],
          msg: 'Input should be greater than or equal to 0',
          input: '-1',
          ctx: { ge: 0 },
        },
        {
          type: 'greater_than_equal',
          loc: ['query', 'limit'],
          msg: 'Input should be greater than or equal to 1',
          input: '0',
          ctx: { ge: 1 },
        },
        {
          type: 'datetime_from_date_parsing',
          loc: ['query', 'from_date'],
          msg: 'Input should be a valid datetime or date, input is too short',
          input: 'yesterday',
          ctx: { error: 'input is too short' },
        },
      ],
    });
  });

  it('401 without an API key', async () => {
    const res = await t.http().get('/api/v1/call-logs');
    expect(res.status).toBe(401);
  });

  it('date windows are counted from the hours of creation: exact at any bound, after deletes and moves', async () => {
    const tenant = await t.createOrganization();
    // 600 logs, one every 37 seconds from 06:00:00.250 over about six hours, in three statements
    // (three delta rows per campaign and hour to fold), a third in the other campaign.
    for (let part = 0; part < 3; part++) {
      await t.sql(
        `INSERT INTO call_logs (organization_id, campaign_id, target_id, attempt, to_number,
           from_number, provider, started_at, created_at)
         SELECT $1, CASE WHEN n % 3 = 0 THEN $4::uuid ELSE $3::uuid END, target_id, attempt,
                to_number, from_number, provider, started_at,
                timestamptz '2026-03-02 06:00:00.250+00' + n * interval '37 seconds'
           FROM call_logs, generate_series($5::int, $5::int + 199) n WHERE id = $2`,
        [tenant.organizationId, logIds[0], campaignId, otherCampaignId, part * 200],
      );
    }
    const hourly = async () => {
      const hour = `date_bin('1 hour', created_at, timestamptz 'epoch')`;
      const [fromDeltas, fromLogs] = await Promise.all([
        t.sql(
          `SELECT campaign_id, created_hour AS hour, sum(delta)::int AS n FROM call_log_hour_deltas
            WHERE organization_id = $1 GROUP BY 1, 2 HAVING sum(delta) <> 0 ORDER BY 1, 2`,
          [tenant.organizationId],
        ),
        t.sql(
          `SELECT campaign_id, ${hour} AS hour, count(*)::int AS n FROM call_logs
            WHERE organization_id = $1 GROUP BY 1, 2 ORDER BY 1, 2`,
          [tenant.organizationId],
        ),
      ]);
      expect(fromDeltas).toEqual(fromLogs);
    };
    const windows: [string, string | null][] = [
      // Bounds inside hours, on an hour, date-only, one bound, inside one hour, across one boundary,
      // the bounds' own milliseconds (a log at 06:00:37.250), and none matching.
      ['2026-03-02T06:20:00.000Z', '2026-03-02T10:40:00.000Z'],
      ['2026-03-02T07:00:00.000Z', '2026-03-02T10:00:00.000Z'],
      ['2026-03-02', '2026-03-02'],
      ['2026-03-02T08:30:00Z', null],
      ['', '2026-03-02T09:15:00Z'],
      ['2026-03-02T07:10:00Z', '2026-03-02T07:50:00Z'],
      ['2026-03-02T07:40:00Z', '2026-03-02T08:20:00Z'],
      ['2026-03-02T06:00:37.250Z', '2026-03-02T06:00:37.250Z'],
      ['2026-03-02T06:00:37.251Z', '2026-03-02T11:59:59.999Z'],
      ['2026-03-02T10:00:00Z', '2026-03-02T09:00:00Z'],
      ['0001-01-01', '9999-12-31'],
    ];
    const expectWindows = async () => {
      for (const [from, to] of windows) {
        for (const campaign of [null, otherCampaignId]) {
          const want = (
            await t.sql(
              `SELECT id FROM call_logs WHERE organization_id = $1
                  AND ($2::uuid IS NULL OR campaign_id = $2)
                  AND created_at >= coalesce($3::timestamptz, '-infinity')
                  AND created_at < coalesce($4::timestamptz + interval '1 millisecond', 'infinity')
                ORDER BY id`,
              [
                tenant.organizationId,
                campaign,
                from ? (from.length === 10 ? `${from}T00:00:00Z` : from) : null,
                to ? (to.length === 10 ? `${to}T23:59:59.999Z` : to) : null,
              ],
            )
          ).map((r) => String(r.id));
          const query = `${from ? `&from_date=${from}` : ''}${to ? `&to_date=${to}` : ''}${
            campaign ? `&campaign_id=${campaign}` : ''
          }`;
          const limit = 50;
          const pages = Math.ceil(want.length / limit);
          const listed: string[] = [];
          for (let page = 0; page < Math.max(pages, 1); page++) {
            const res = await list(`?limit=${limit}&page=${page}${query}`, tenant.apiKey);
            expect([query, page, res.body.page_count]).toEqual([query, page, pages]);
            listed.push(...res.body.call_logs.map((l: any) => l.id));
          }
          expect([query, listed]).toEqual([query, want]);
        }
      }
    };
    await hourly();
    await expectWindows();
    // Deleted logs and a log moved to another hour by hand keep the hours exact.
    await t.sql(`DELETE FROM call_logs WHERE organization_id = $1 AND id % 7 = 0`, [
      tenant.organizationId,
    ]);
    await t.sql(
      `UPDATE call_logs SET created_at = created_at + interval '2 hours'
        WHERE id = (SELECT min(id) FROM call_logs WHERE organization_id = $1)`,
      [tenant.organizationId],
    );
    await hourly();
    await expectWindows();

    // Calls placed in many small statements pile up rows: a windowed list reads them as they are
    // (reads never write), and the folding job folds the organization's hours to a row per campaign
    // and hour (zero-sum rows go).
    await t.sql(
      `INSERT INTO call_log_hour_deltas (organization_id, campaign_id, created_hour, delta)
       SELECT $1, $2, timestamptz '2026-03-02 07:00:00+00', 0 FROM generate_series(1, 1001)`,
      [tenant.organizationId, campaignId],
    );
    const hourRows = async () =>
      (
        await t.sql(
          `SELECT count(*)::int AS n FROM call_log_hour_deltas WHERE organization_id = $1`,
          [tenant.organizationId],
        )
      )[0].n;
    const piled = await hourRows();
    expect((await list('?from_date=2026-03-02T06:30:00Z', tenant.apiKey)).status).toBe(200);
    expect(await hourRows()).toBe(piled);
    expect(await t.app.get(CallLogRepository).foldCounts()).toMatchObject({
      call_log_hour_deltas: 1,
    });
    const [{ rows, groups }] = await t.sql(
      `SELECT count(*)::int AS rows,
              (SELECT count(DISTINCT (campaign_id, date_bin('1 hour', created_at, timestamptz 'epoch')))::int
                 FROM call_logs WHERE organization_id = $1) AS groups
         FROM call_log_hour_deltas WHERE organization_id = $1`,
      [tenant.organizationId],
    );
    expect(rows).toBe(groups);
    await hourly();
    await expectWindows();
  });

  it('page_count stays exact and pages agree from both ends under concurrent inserts and deletes', async () => {
    const tenant = await t.createOrganization();
    const campaigns = [campaignId, otherCampaignId];
    const pool = new Pool({ connectionString: t.databaseUrl, max: 3 });
    // Copies of a real log into the new organization, one statement each (more than the 64 delta
    // rows after which the folding job folds them), some deleted again, while lists read and the
    // job folds.
    const copy = (n: number, campaign: string) =>
      pool.query(
        `INSERT INTO call_logs (organization_id, campaign_id, target_id, attempt, to_number,
           from_number, provider, started_at)
         SELECT $1, $3, target_id, attempt, to_number, from_number, provider, started_at
         FROM call_logs, generate_series(1, $4) WHERE id = $2`,
        [tenant.organizationId, logIds[0], campaign, n],
      );
    try {
      const writer = async (k: number) => {
        for (let round = 0; round < 30; round++) {
          await copy(1 + ((round + k) % 3), campaigns[(round + k) % 2]);
          if (round % 5 === 4) {
            await pool.query(
              `DELETE FROM call_logs WHERE id = (SELECT max(id) FROM call_logs WHERE organization_id = $1)`,
              [tenant.organizationId],
            );
          }
        }
      };
      const reader = async () => {
        for (let round = 0; round < 20; round++) {
          const window = round % 2 ? `&from_date=${new Date(Date.now() - 1000).toISOString()}` : '';
          expect((await list(`?limit=5${window}`, tenant.apiKey)).status).toBe(200);
        }
      };
      let folding = true;
      const folder = async () => {
        while (folding) await t.app.get(CallLogRepository).foldCounts();
      };
      const folds = folder();
      try {
        await Promise.all([writer(0), writer(1), writer(2), reader()]);
      } finally {
        folding = false;
        await folds;
      }
    } finally {
      await pool.end();
    }

    const ids = (
      await t.sql(`SELECT id FROM call_logs WHERE organization_id = $1 ORDER BY id`, [
        tenant.organizationId,
      ])
    ).map((r) => String(r.id));
    // A window from the middle log's instant: its count comes from the hour deltas the writers appended.
    const [{ middle }] = await t.sql(
      `SELECT created_at AS middle FROM call_logs WHERE organization_id = $1
        ORDER BY created_at OFFSET $2 LIMIT 1`,
      [tenant.organizationId, Math.floor(ids.length / 2)],
    );
    const from = (middle as Date).toISOString();
    for (const [query, expected] of [
      ['', ids],
      [`&campaign_id=${otherCampaignId}`, null],
      [`&from_date=${from}`, null],
    ] as const) {
      const want =
        expected ??
        (
          await t.sql(
            `SELECT id FROM call_logs WHERE organization_id = $1
                AND ($2::uuid IS NULL OR campaign_id = $2) AND ($3::timestamptz IS NULL OR created_at >= $3)
              ORDER BY id`,
            [
              tenant.organizationId,
              query.startsWith('&campaign_id') ? otherCampaignId : null,
              query.startsWith('&from_date') ? from : null,
            ],
          )
        ).map((r) => String(r.id));
      const pages = Math.ceil(want.length / 7);
      const listed: string[] = [];
      for (let page = 0; page < pages; page++) {
        const res = await list(`?limit=7&page=${page}${query}`, tenant.apiKey);
        expect(res.body.page_count).toBe(pages);
        listed.push(...res.body.call_logs.map((l: any) => l.id));
      }
      expect(listed).toEqual(want);
    }
  });

  it('shows a campaign-limited key only its campaigns’ call logs: others are 404', async () => {
    const created = await t
      .http()
      .post('/api/v1/api-keys')
      .set('X-API-Key', apiKey)
      .send({ name: 'limited', role: 'viewer', campaign_ids: [otherCampaignId] });
    expect(created.status).toBe(201);
    const limited = created.body.key;
    // Earlier tests add logs to that campaign too (some under another organization).
    const otherIds = (
      await t.sql(
        `SELECT id FROM call_logs WHERE campaign_id = $1 AND organization_id = (SELECT organization_id FROM campaigns WHERE id = $1) ORDER BY id`,
        [otherCampaignId],
      )
    ).map((r) => String(r.id));
    expect(otherIds.length).toBeGreaterThan(0);
    const today = new Date().toISOString().slice(0, 10);
    const todayIds = (
      await t.sql(
        `SELECT id FROM call_logs WHERE campaign_id = $1 AND created_at >= $2
            AND organization_id = (SELECT organization_id FROM campaigns WHERE id = $1) ORDER BY id`,
        [otherCampaignId, `${today}T00:00:00Z`],
      )
    ).map((r) => String(r.id));
    for (const [query, want] of [
      ['', otherIds],
      [`?from_date=${today}`, todayIds],
      [`?campaign_id=${otherCampaignId}`, otherIds],
    ] as const) {
      const res = await list(`${query}${query ? '&' : '?'}limit=100`, limited);
      expect([
        query,
        res.status,
        res.body.call_logs.map((l: any) => l.id),
        res.body.page_count,
      ]).toEqual([query, 200, want.slice(0, 100), Math.ceil(want.length / 100)]);
    }
    const mine = await list(`?campaign_id=${campaignId}`, limited);
    expect(mine.body).toEqual({ call_logs: [], page_count: 0, next_page: null });

    expect((await get(otherIds[0], '', limited)).status).toBe(200);
    const refused = await get(logIds[0], '', limited);
    expect(refused.status).toBe(404);
    expect(refused.body).toEqual({ detail: 'Call log not found' });
  });
});
