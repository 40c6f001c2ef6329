import { request as httpRequest } from 'http';
import { Client } from 'pg';
import { createTestApp, TestApp, waitFor } from '../support/test-app.js';
import { csvRows, exposeGc, listen, streamUpload } from '../support/csv-upload.js';
import { WebhookReceivers } from '../support/webhook-receiver.js';
import { startWorkerProcess } from '../support/worker-process.js';
import { importReport, ISO } from '../support/import-report.js';

/**
 * CSV imports as long jobs: a file of 100,000 rows, a worker killed mid-import, an upload cut off.
 * The small files, the CLI and the chunk races are in target-import.e2e-spec.ts; these are apart so
 * that the two files, each with apps of their own, run beside each other on two workers.
 */
/** ROLE=all: the import job runs in this process, which is also what the memory bound measures. */
describe('CSV target import of a large file', () => {
  let t: TestApp;
  const receivers = new WebhookReceivers();
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await receivers.closeAll();
    await t.close();
  });

  async function tenant(campaign: Record<string, unknown> = {}) {
    const { organizationId, apiKey } = await t.createOrganization();
    const { id: campaignId } = await t.createCampaign(apiKey, campaign);
    return {
      organizationId,
      apiKey,
      campaignId,
      getImport: (id: string) => t.http().get(`/api/v1/imports/${id}`).set('X-API-Key', apiKey),
    };
  }

  // How the columns were read and the preview: asserted in target-import-ehr.e2e-spec.ts.
  const report = (overrides: Record<string, unknown>) =>
    importReport({ columns: expect.any(Array), preview: expect.any(Array), ...overrides });

  it('imports 100,000 rows as a job with bounded memory, progress and a webhook', async () => {
    const receiver = await receivers.start();
    const a = await tenant({ webhook_url: receiver.url });
    const ROWS = 100_000;
    // Live memory: the heap right after a full collection, sampled while the import runs. (Without the
    // collection, heapUsed and RSS mostly measure how lazily V8 collects the per-row garbage.)
    const gc = exposeGc();
    gc();
    const baseline = process.memoryUsage();
    let peakLive = baseline.heapUsed;
    let peakRss = baseline.rss;
    const sampler = setInterval(() => {
      peakRss = Math.max(peakRss, process.memoryUsage().rss);
      gc();
      peakLive = Math.max(peakLive, process.memoryUsage().heapUsed);
    }, 500);
    try {
      const upload = await streamUpload(t, a.apiKey, a.campaignId, csvRows(ROWS));
      expect(upload.status).toBe(202);
      expect(upload.headers.location).toBe(`/api/v1/imports/${upload.body.id}`);
      expect(upload.body).toEqual(
        report({ campaign_id: a.campaignId, status: 'queued', rows: ROWS, finished_at: null }),
      );
      const seen: number[] = [];
      const done = await waitFor(
        async () => {
          const res = await a.getImport(upload.body.id);
          seen.push(res.body.processed_rows);
          return res.body;
        },
        (body) => body.status === 'succeeded',
        110_000,
        200,
      );
      expect(done).toEqual(
        report({ campaign_id: a.campaignId, rows: ROWS, processed_rows: ROWS, created: ROWS }),
      );
      // Progress was visible and never went backwards.
      expect(seen).toEqual([...seen].sort((x, y) => x - y));
      const [{ count }] = await t.sql(
        `SELECT count(*)::int AS count FROM targets WHERE campaign_id = $1`,
        [a.campaignId],
      );
      expect(count).toBe(ROWS);
      // The staging rows of created targets are gone.
      expect(
        await t.sql(`SELECT 1 FROM target_import_rows WHERE import_id = $1`, [upload.body.id]),
      ).toEqual([]);
      const [hook] = await receiver.waitForRequests(1);
      expect(JSON.parse(hook.body)).toEqual(
        expect.objectContaining({ type: 'import.finished', status: 'succeeded', created: ROWS }),
      );
    } finally {
      clearInterval(sampler);
    }
    const liveMb = (peakLive - baseline.heapUsed) / 1024 / 1024;
    const rssMb = (peakRss - baseline.rss) / 1024 / 1024;
    process.stdout.write(
      `100k-row import: live heap growth ${liveMb.toFixed(0)} MB, RSS growth ${rssMb.toFixed(0)} MB\n`,
    );
    expect(liveMb).toBeLessThan(200);
    expect(rssMb).toBeLessThan(200);
  }, 240_000);
});

/**
 * The staging table outlives a worker: an import whose worker is killed (SIGKILL) mid-way is taken up
 * by another worker after IMPORT_RECOVERY_SECONDS without progress, resumes after its last chunk, and
 * adds every row exactly once.
 */
describe('CSV import across a worker restart', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { ROLE: 'api', IMPORT_RECOVERY_SECONDS: '2' } });
  });
  afterAll(() => t.close());

  it('resumes after a killed worker and creates each row once', async () => {
    const { apiKey } = await t.createOrganization();
    const { id: campaignId } = await t.createCampaign(apiKey);
    // Five chunks of IMPORT_CHUNK_ROWS (5,000): the worker is killed once the first has committed
    // (below), with the most of the file still to do.
    const ROWS = 25_000;
    const upload = await streamUpload(t, apiKey, campaignId, csvRows(ROWS));
    expect(upload.status).toBe(202);
    const importId = upload.body.id;
    const progress = () =>
      t.sql<{ status: string; processed_rows: number; created: number }>(
        `SELECT status, processed_rows, created FROM target_imports WHERE id = $1`,
        [importId],
      );

    // Each chunk's transaction first claims the import's row (target-import.service.ts): the progress
    // is read holding that row's lock, and the worker killed before it is let go once a chunk has
    // committed, so no chunk commits between the read and the kill, on PostgreSQL or PGlite (where a
    // read that waited behind the worker's statements let it run several chunks further before the
    // kill, so the file had to be 60,000 rows). Read from the start: the worker takes the job up
    // before it reports itself ready.
    const first = startWorkerProcess(t);
    const reader = new Client({ connectionString: t.databaseUrl });
    await reader.connect();
    try {
      await waitFor(
        async () => {
          await reader.query('BEGIN');
          try {
            const { rows } = await reader.query<{ processed_rows: number }>(
              `SELECT processed_rows FROM target_imports WHERE id = $1 FOR UPDATE`,
              [importId],
            );
            if (rows[0].processed_rows > 0) await first.kill();
            return rows[0].processed_rows;
          } finally {
            await reader.query('COMMIT');
          }
        },
        (processed) => processed > 0,
        60_000,
        // Each read holds PGlite's one session for three statements: read often enough to stop the
        // worker within a chunk or two (5,000 rows take longer than this), not so often that the reads
        // hold its start and its chunks back.
        100,
      );
    } finally {
      await first.kill();
      await reader.end();
    }
    const [atKill] = await progress();
    // Killed mid-import, between two chunks.
    expect(atKill.processed_rows % 5_000).toBe(0);
    expect(atKill.processed_rows).toBeGreaterThan(0);
    expect(atKill.processed_rows).toBeLessThan(ROWS);

    const second = startWorkerProcess(t);
    try {
      await second.ready;
      const [done] = await waitFor(progress, ([p]) => p.status === 'succeeded', 100_000, 200);
      expect(done).toEqual({ status: 'succeeded', processed_rows: ROWS, created: ROWS });
    } finally {
      await second.stop();
    }
    const [{ count, distinct }] = await t.sql(
      `SELECT count(*)::int AS count, count(DISTINCT external_id)::int AS distinct
       FROM targets WHERE campaign_id = $1`,
      [campaignId],
    );
    expect({ count, distinct }).toEqual({ count: ROWS, distinct: ROWS });
    const events = await t.sql(
      `SELECT payload->>'status' AS status FROM webhook_events
       WHERE type = 'import.finished' AND payload->>'import_id' = $1`,
      [importId],
    );
    expect(events).toEqual([{ status: 'succeeded' }]);
    process.stdout.write(`restart: killed at ${atKill.processed_rows} of ${ROWS} rows\n`);
  }, 240_000);
});

/**
 * An upload that stops before its end never stays `receiving`: cut off in a live process, it ends
 * `failed` at once; left by a process that died, the worker's sweep ends it after
 * IMPORT_UPLOAD_STALL_SECONDS without a row.
 */
describe('CSV upload interrupted', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({
      env: { IMPORT_UPLOAD_STALL_SECONDS: '1', IMPORT_RECOVERY_SECONDS: '1' },
    });
  });
  afterAll(() => t.close());

  const importsOf = (campaignId: string) =>
    t.sql<{ id: string; status: string; staged: number }>(
      `SELECT i.id, i.status,
              (SELECT count(*)::int FROM target_import_rows r WHERE r.import_id = i.id) AS staged
         FROM target_imports i WHERE campaign_id = $1`,
      [campaignId],
    );

  it('a client that goes away mid-upload leaves a failed import saying so, and adds nothing', async () => {
    const { apiKey } = await t.createOrganization();
    const { id: campaignId } = await t.createCampaign(apiKey);
    const port = await listen(t);
    const req = httpRequest({
      host: '127.0.0.1',
      port,
      method: 'POST',
      path: `/api/v1/campaigns/${campaignId}/targets/import`,
      headers: { 'Content-Type': 'text/csv', 'X-API-Key': apiKey },
    });
    const gone = new Promise<void>((resolve) => req.on('error', () => resolve()));
    // Part of a file (chunked, no end), until the service has staged some of it; then the socket goes.
    const rows = csvRows(3000);
    for await (const chunk of rows) req.write(chunk);
    const [receiving] = await waitFor(
      () => importsOf(campaignId),
      (found) => found.length === 1 && found[0].staged >= 1000,
      30_000,
      20,
    );
    expect(receiving.status).toBe('receiving');
    req.destroy();
    await gone;

    const [ended] = await waitFor(
      () => importsOf(campaignId),
      (found) => found[0].status !== 'receiving',
      30_000,
      20,
    );
    const read = await t.http().get(`/api/v1/imports/${ended.id}`).set('X-API-Key', apiKey);
    expect(read.status).toBe(200);
    const received = Number(/after (\d+) rows/.exec(read.body.failure)?.[1]);
    expect(received).toBeGreaterThanOrEqual(1000);
    expect(read.body).toEqual({
      id: ended.id,
      campaign_id: campaignId,
      status: 'failed',
      dry_run: false,
      launch: false,
      allow_duplicates: true,
      on_error: 'reject',
      // The file was not read to its end: no mapping or preview is reported.
      columns: null,
      preview: null,
      rows: received,
      invalid_rows: 0,
      processed_rows: 0,
      created: 0,
      ignored_rows: 0,
      errors: [],
      ignored: [],
      created_at: ISO,
      updated_at: ISO,
      finished_at: ISO,
      failure: `The upload was interrupted after ${received} rows, before the end of the file: nothing was added. Send the file again.`,
    });
    expect(await importsOf(campaignId)).toEqual([{ id: ended.id, status: 'failed', staged: 0 }]);
    const [{ n }] = await t.sql(`SELECT count(*)::int AS n FROM targets WHERE campaign_id = $1`, [
      campaignId,
    ]);
    expect(n).toBe(0);
  });

  it('an upload left receiving by a process that died is ended failed by the sweep', async () => {
    const { apiKey, organizationId } = await t.createOrganization();
    const { id: campaignId } = await t.createCampaign(apiKey);
    // What a process killed mid-upload leaves behind: a receiving import, its last rows a while ago.
    const [{ id }] = await t.sql<{ id: string }>(
      `INSERT INTO target_imports (id, organization_id, campaign_id, status, dry_run, launch,
                                   allow_duplicates, created_at, updated_at)
       VALUES (gen_random_uuid(), $1, $2, 'receiving', false, false, true,
               now() - interval '1 minute', now() - interval '1 minute')
       RETURNING id`,
      [organizationId, campaignId],
    );
    await waitFor(
      () => importsOf(campaignId),
      ([imp]) => imp.status === 'failed',
      30_000,
      50,
    );
    const read = await t.http().get(`/api/v1/imports/${id}`).set('X-API-Key', apiKey);
    expect(read.body).toMatchObject({
      status: 'failed',
      rows: 0,
      created: 0,
      finished_at: ISO,
      failure:
        'The upload was interrupted, before the end of the file: nothing was added. Send the file again.',
    });
  });
});
