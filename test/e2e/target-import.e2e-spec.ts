import { randomUUID } from 'crypto';
import { spawn } from 'child_process';
import { createWriteStream, mkdtempSync, rmSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';
import { pipeline } from 'stream/promises';
import { ROOT, tsEntry } from '../support/run-process.js';
import { csvRows, listen, streamToString } from '../support/csv-upload.js';
import { PHONE_NUMBER_RULE } from '../../src/common/phone/phone-number.js';
import { createTestApp, TestApp, waitFor } from '../support/test-app.js';
import { WebhookReceivers } from '../support/webhook-receiver.js';
import { importReport, UUID } from '../support/import-report.js';

/**
 * CSV import over HTTP on a real database (PGlite, or PostgreSQL with DATABASE_URL). ROLE=all: import
 * jobs run in this process. The long jobs (100,000 rows, a worker killed, an upload cut off) are in
 * target-import-jobs.e2e-spec.ts, so that both files run beside each other on two workers.
 */
describe('CSV target import', () => {
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
    const as = (req: any) => req.set('X-API-Key', apiKey);
    return {
      organizationId,
      apiKey,
      campaignId,
      as,
      importCsv: (
        csv: string | Buffer,
        query: Record<string, string> = {},
        id = campaignId,
        contentType = 'text/csv',
      ) =>
        as(t.http().post(`/api/v1/campaigns/${id}/targets/import`))
          .query(query)
          .set('Content-Type', contentType)
          .send(typeof csv === 'string' ? Buffer.from(csv, 'utf8') : csv),
      getImport: (id: string) => as(t.http().get(`/api/v1/imports/${id}`)),
      targets: () =>
        t.sql(
          `SELECT external_id, phone_number, fallback_phone_number, patient, pre_call_data, input_data,
                  status, scheduled_time IS NOT NULL AS scheduled
           FROM targets WHERE campaign_id = $1 ORDER BY created_at, id`,
          [campaignId],
        ),
    };
  }

  // How the columns were read and the preview: asserted in target-import-ehr.e2e-spec.ts.
  const report = (overrides: Record<string, unknown>) =>
    importReport({ columns: expect.any(Array), preview: expect.any(Array), ...overrides });

  it('imports a good file: columns map to the fields, other columns to input_data', async () => {
    const a = await tenant();
    const csv =
      'phone_number,fallback_phone_number,external_id,patient.first_name,patient.last_name,' +
      'patient.date_of_birth,pre_call_data.reason,appointment_date\n' +
      '+1 (555) 010-0001,+1.555.010.0002,PAT-1,John,Doe,1990-01-15,checkup,2026-04-01\n' +
      '+15550100003,,PAT-2,Jane,,,,\n';
    const res = await a.importCsv(csv);
    expect(res.status).toBe(200);
    expect(res.body).toEqual(
      report({ campaign_id: a.campaignId, rows: 2, processed_rows: 2, created: 2 }),
    );
    expect(await a.targets()).toEqual([
      {
        external_id: 'PAT-1',
        phone_number: '+15550100001',
        fallback_phone_number: '+15550100002',
        patient: {
          first_name: 'John',
          last_name: 'Doe',
          date_of_birth: '1990-01-15',
          phone_number: null,
          external_id: null,
          extra_data: null,
        },
        pre_call_data: { reason: 'checkup' },
        input_data: { appointment_date: '2026-04-01' },
        status: 'Pending',
        scheduled: false,
      },
      {
        external_id: 'PAT-2',
        phone_number: '+15550100003',
        fallback_phone_number: null,
        patient: {
          first_name: 'Jane',
          last_name: null,
          date_of_birth: null,
          phone_number: null,
          external_id: null,
          extra_data: null,
        },
        pre_call_data: null,
        input_data: {},
        status: 'Pending',
        scheduled: false,
      },
    ]);
    // The report stays readable.
    const again = await a.getImport(res.body.id);
    expect(again.status).toBe(200);
    expect(again.body).toEqual(res.body);
  });

  it('reports every bad row with its row number, column and pydantic message; adds nothing', async () => {
    const a = await tenant();
    const csv = [
      'phone_number,external_id,patient.first_name,note',
      '+15550100001,A1,John,x', // row 2: good
      ',A2,Jane,y', // row 3: missing phone
      '12ab,A3,,', // row 4: bad phone
      '+15550100004,A4,Bob,z,extra', // row 5: too many columns
      '+15550100005,A5,Bad\u0000Name,', // row 6: bad patient field
      '+15550100006,A1,Dup,', // row 7: duplicate of row 2
    ].join('\n');
    const res = await a.importCsv(csv, { allow_duplicates: 'false' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual(
      report({
        campaign_id: a.campaignId,
        status: 'rejected',
        allow_duplicates: false,
        rows: 6,
        invalid_rows: 5,
        errors: [
          {
            row: 3,
            column: 'phone_number',
            loc: ['phone_number'],
            type: 'missing',
            msg: 'Field required',
            input: {
              external_id: 'A2',
              patient: { first_name: 'Jane' },
              input_data: { note: 'y' },
            },
          },
          {
            row: 4,
            column: 'phone_number',
            loc: ['phone_number'],
            type: 'value_error',
            msg: `Value error, ${PHONE_NUMBER_RULE}`,
            input: '12ab',
            ctx: { error: {} },
          },
          {
            row: 5,
            column: null,
            loc: [],
            type: 'value_error',
            msg: 'Value error, the row has 5 fields, the header has 4',
            input: ['extra'],
            ctx: { error: {} },
          },
          {
            row: 6,
            column: 'patient.first_name',
            loc: ['patient', 'first_name'],
            type: 'value_error',
            msg: expect.stringMatching(/^Value error, /),
            input: 'Bad\ufffdName',
            ctx: { error: {} },
          },
          {
            row: 7,
            column: 'external_id',
            loc: ['external_id'],
            type: 'value_error',
            msg: 'Value error, this external id repeats row 2',
            input: 'A1',
          },
        ],
      }),
    );
    expect(await a.targets()).toEqual([]);
  });

  it('reads quoted fields with commas and line breaks, a UTF-8 BOM and non-ASCII names', async () => {
    const a = await tenant();
    const csv =
      '\uFEFFphone_number,patient.first_name,patient.last_name,notes\n' +
      '+15550100001,"Doe, John",Zoë,"line one\nline two, with ""quotes"""\n' +
      '+15550100002,José,王小明,plain\n' +
      '+15550100003,Ånne,Müller-Lüdenscheidt,"a,b"\n';
    const res = await a.importCsv(csv);
    expect(res.body).toEqual(
      report({ campaign_id: a.campaignId, rows: 3, processed_rows: 3, created: 3 }),
    );
    const rows = await a.targets();
    expect(rows.map((r) => [r.patient.first_name, r.patient.last_name, r.input_data])).toEqual([
      ['Doe, John', 'Zoë', { notes: 'line one\nline two, with "quotes"' }],
      ['José', '王小明', { notes: 'plain' }],
      ['Ånne', 'Müller-Lüdenscheidt', { notes: 'a,b' }],
    ]);
  });

  it('numbers rows by record, so a multi-line field does not shift the next row', async () => {
    const a = await tenant();
    const csv = 'phone_number,notes\n+15550100001,"one\ntwo\nthree"\nnope,x\n';
    const res = await a.importCsv(csv);
    expect(res.body.status).toBe('rejected');
    expect(res.body.errors.map((e: any) => [e.row, e.column])).toEqual([[3, 'phone_number']]);
  });

  it('an id column is unique per organization: another organization’s target of that id does not count', async () => {
    const a = await tenant();
    const b = await tenant();
    const id = randomUUID();
    const first = await a.importCsv(`id,phone_number\n${id},+15550100001\n`);
    expect(first.body).toEqual(
      report({ campaign_id: a.campaignId, rows: 1, processed_rows: 1, created: 1 }),
    );
    // Issue 16: the same id in another organization is created, not reported as taken.
    const other = await b.importCsv(`id,phone_number\n${id},+15550100002\n`);
    expect(other.body).toEqual(
      report({ campaign_id: b.campaignId, rows: 1, processed_rows: 1, created: 1 }),
    );
    // Within the organization it is taken, as before.
    const again = await a.importCsv(`id,phone_number\n${id},+15550100003\n`);
    expect(again.body).toEqual(
      report({
        campaign_id: a.campaignId,
        status: 'rejected',
        rows: 1,
        invalid_rows: 1,
        errors: [
          {
            row: 2,
            column: 'id',
            loc: ['id'],
            type: 'value_error',
            msg: 'Value error, a target with this id already exists',
            input: id,
          },
        ],
      }),
    );
    expect(
      await t.sql(
        `SELECT organization_id, campaign_id, phone_number FROM targets WHERE id = $1 ORDER BY phone_number`,
        [id],
      ),
    ).toEqual([
      {
        organization_id: a.organizationId,
        campaign_id: a.campaignId,
        phone_number: '+15550100001',
      },
      {
        organization_id: b.organizationId,
        campaign_id: b.campaignId,
        phone_number: '+15550100002',
      },
    ]);
  });

  it('maps columns explicitly with the columns query parameter', async () => {
    const a = await tenant();
    const csv = 'Phone,MRN,First name,Visit\n+15550100001,M-1,Ann,2026-05-01\n';
    const res = await a.importCsv(csv, {
      columns: 'Phone:phone_number,MRN:external_id,First name:patient.first_name',
    });
    expect(res.body).toEqual(
      report({ campaign_id: a.campaignId, rows: 1, processed_rows: 1, created: 1 }),
    );
    const [row] = await a.targets();
    expect([row.external_id, row.patient.first_name, row.input_data]).toEqual([
      'M-1',
      'Ann',
      { Visit: '2026-05-01' },
    ]);
  });

  it('a dry run validates and reports duplicates but adds nothing', async () => {
    const a = await tenant();
    const csv = 'phone_number,external_id\n+15550100001,D1\n+15550100002,D1\n+15550100003,D2\n';
    const res = await a.importCsv(csv, { dry_run: 'true' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual(
      report({
        campaign_id: a.campaignId,
        dry_run: true,
        rows: 3,
        ignored_rows: 1,
        ignored: [{ row: 3, external_id: 'D1' }],
      }),
    );
    expect(await a.targets()).toEqual([]);
  });

  it('dedupes against the campaign and the file; allow_duplicates=false refuses the file', async () => {
    const a = await tenant();
    const added = await a
      .as(t.http().post(`/api/v1/campaigns/${a.campaignId}/targets`))
      .send({ targets: [{ phone_number: '+15550100009', external_id: 'X' }] });
    expect(added.status).toBe(200);
    const csv =
      'phone_number,external_id,patient.external_id\n' +
      '+15550100001,X,\n' + // row 2: already in the campaign
      '+15550100002,Y,\n' + // row 3
      '+15550100003,,Y\n' + // row 4: patient.external_id repeats row 3
      '+15550100004,,\n'; // row 5: no external id, never a duplicate
    const refused = await a.importCsv(csv, { allow_duplicates: 'false' });
    expect(refused.body).toEqual(
      report({
        campaign_id: a.campaignId,
        status: 'rejected',
        allow_duplicates: false,
        rows: 4,
        invalid_rows: 2,
        errors: [
          {
            row: 2,
            column: 'external_id',
            loc: ['external_id'],
            type: 'value_error',
            msg: 'Value error, this external id is already in the campaign',
            input: 'X',
          },
          {
            row: 4,
            column: 'patient.external_id',
            loc: ['external_id'],
            type: 'value_error',
            msg: 'Value error, this external id repeats row 3',
            input: 'Y',
          },
        ],
      }),
    );
    expect(await a.targets()).toHaveLength(1);

    const res = await a.importCsv(csv);
    expect(res.body).toEqual(
      report({
        campaign_id: a.campaignId,
        rows: 4,
        processed_rows: 4,
        created: 2,
        ignored_rows: 2,
        ignored: [
          { row: 2, external_id: 'X' },
          { row: 4, external_id: 'Y' },
        ],
      }),
    );
    expect((await a.targets()).map((r) => r.external_id)).toEqual(['X', 'Y', null]);
  });

  it('launch=true schedules the new targets', async () => {
    // A calling window that never opens: the calling engine in this process leaves them Scheduled.
    const a = await tenant({ calling_window: { tz: 'UTC' } });
    const res = await a.importCsv('phone_number\n+15550100001\n+15550100002\n', {
      launch: 'true',
    });
    expect(res.body).toEqual(
      report({ campaign_id: a.campaignId, launch: true, rows: 2, processed_rows: 2, created: 2 }),
    );
    expect((await a.targets()).map((r) => [r.status, r.scheduled])).toEqual([
      ['Scheduled', true],
      ['Scheduled', true],
    ]);
  });

  it('sends import.finished to the campaign webhook', async () => {
    const receiver = await receivers.start();
    const a = await tenant({ webhook_url: receiver.url });
    const res = await a.importCsv('phone_number,external_id\n+15550100001,W1\nbad,W2\n');
    expect(res.body.status).toBe('rejected');
    const [hook] = await receiver.waitForRequests(1);
    expect(JSON.parse(hook.body)).toEqual({
      type: 'import.finished',
      campaign_id: a.campaignId,
      import_id: res.body.id,
      status: 'rejected',
      dry_run: false,
      rows: 2,
      invalid_rows: 1,
      created: 0,
      ignored_rows: 0,
    });
    expect(hook.headers['webhook-id']).toEqual(UUID);
  });

  it('refuses what is not a CSV upload or lacks a phone_number column', async () => {
    const a = await tenant();
    const json = await a
      .as(t.http().post(`/api/v1/campaigns/${a.campaignId}/targets/import`))
      .send({ targets: [] });
    expect(json.status).toBe(415);
    expect(json.body).toEqual({ detail: 'Unsupported Media Type: send the file as text/csv' });

    const noPhone = await a.importCsv('external_id\nA\n');
    expect(noPhone.status).toBe(422);
    expect(noPhone.body).toEqual({
      detail: [
        {
          type: 'missing',
          loc: ['body', 'header', 'phone_number'],
          msg: 'Field required',
          input: ['external_id'],
        },
      ],
    });
    const empty = await a.importCsv('');
    expect(empty.status).toBe(422);
    expect(empty.body).toEqual({
      detail: [
        {
          type: 'value_error',
          loc: ['body'],
          msg: 'Value error, the file is empty: a header row is required',
          input: null,
          ctx: { error: {} },
        },
      ],
    });
    const unclosed = await a.importCsv('phone_number,notes\n+15550100001,"never closed\n');
    expect(unclosed.status).toBe(422);
    expect(unclosed.body.detail[0]).toEqual(
      expect.objectContaining({ type: 'value_error', loc: ['body'] }),
    );
    const huge = await a.importCsv(`phone_number,notes\n+15550100001,"${'x'.repeat(1_100_000)}"\n`);
    expect(huge.status).toBe(422);
    expect(huge.body.detail[0].msg).toMatch(/^Value error, the file is not valid CSV: /);
    expect(
      await t.sql(`SELECT id FROM target_imports WHERE campaign_id = $1`, [a.campaignId]),
    ).toEqual([]);
  });

  it('answers 422 naming the row for every CSV parser error, never a 500', async () => {
    const a = await tenant();
    const quote = await a.importCsv('phone_number,name\n+15550101115,Robert "Bob" Smith\n');
    expect([quote.status, quote.body]).toEqual([
      422,
      {
        detail: [
          {
            type: 'value_error',
            loc: ['body'],
            msg: 'Value error, the file is not valid CSV: row 2: Invalid Opening Quote: a quote is found on field 1 at line 2, value is "Robert "',
            input: null,
            ctx: { error: {} },
          },
        ],
      },
    ]);
    const closing = await a.importCsv('phone_number,name\n+15550101115,"Bob"x\n+15550101116,Al\n');
    expect(closing.status).toBe(422);
    expect(closing.body.detail[0].msg).toMatch(/^Value error, the file is not valid CSV: row 2: /);
    expect(
      await t.sql(`SELECT id FROM target_imports WHERE campaign_id = $1`, [a.campaignId]),
    ).toEqual([]);
  });

  it('refuses bytes that are not UTF-8 naming the first bad row, unless the charset says what they are', async () => {
    const a = await tenant();
    const latin1 = Buffer.from(
      'phone_number,patient.first_name\n+15550100001,Ana\n+15550100002,Jos\xe9\n+15550100003,Ren\xe9\n',
      'latin1',
    );
    const refused = await a.importCsv(latin1);
    expect([refused.status, refused.body]).toEqual([
      422,
      {
        detail: [
          {
            type: 'value_error',
            loc: ['body'],
            msg:
              'Value error, row 3 is not valid utf-8 text: send the file in UTF-8, or name its ' +
              'encoding in the Content-Type (text/csv; charset=windows-1252)',
            input: null,
            ctx: { error: {} },
          },
        ],
      },
    ]);
    expect(await a.targets()).toEqual([]);

    const declared = await a.importCsv(latin1, {}, a.campaignId, 'text/csv; charset=ISO-8859-1');
    expect(declared.status).toBe(200);
    expect(declared.body.created).toBe(3);
    // UTF-16 with its byte order mark, in either byte order.
    const utf16 = '\ufeffphone_number,patient.first_name\n+15550100004,Zoë\n';
    const le = await a.importCsv(Buffer.from(utf16, 'utf16le'));
    expect([le.status, le.body.created]).toEqual([200, 1]);
    const be = Buffer.from(utf16.replace('0004', '0005'), 'utf16le').swap16();
    expect((await a.importCsv(be)).body.created).toBe(1);
    expect((await a.targets()).map((row) => row.patient.first_name)).toEqual([
      'Ana',
      'José',
      'René',
      'Zoë',
      'Zoë',
    ]);

    const unknown = await a.importCsv(
      'phone_number\n',
      {},
      a.campaignId,
      'text/csv; charset=klingon',
    );
    expect([unknown.status, unknown.body]).toEqual([
      415,
      {
        detail:
          'Unsupported Media Type: charset klingon is not supported; send UTF-8 or name one such as windows-1252',
      },
    ]);
  });

  it("answers 404 for another organization's campaign and import", async () => {
    const a = await tenant();
    const b = await tenant();
    const res = await a.importCsv('phone_number\n+15550100001\n');
    const other = await b.importCsv('phone_number\n+15550100001\n', {}, a.campaignId);
    expect(other.status).toBe(404);
    expect(other.body).toEqual({ detail: `Campaign ${a.campaignId} not found` });
    const read = await b.getImport(res.body.id);
    expect(read.status).toBe(404);
    expect(read.body).toEqual({ detail: `Import ${res.body.id} not found` });
    expect((await b.getImport('not-a-uuid')).status).toBe(404);
    expect(await a.targets()).toHaveLength(1);
  });

  it('cli targets:import streams a file, shows progress and prints the report', async () => {
    const a = await tenant();
    const dir = mkdtempSync(join(tmpdir(), 'ccs-import-'));
    const file = join(dir, 'targets.csv');
    try {
      await pipeline(csvRows(12_000), createWriteStream(file));
      const port = await listen(t);
      const cli = await runAsync([
        'targets:import',
        '--campaign',
        a.campaignId,
        '--url',
        `http://127.0.0.1:${port}`,
        '--key',
        a.apiKey,
        file,
      ]);
      expect({ code: cli.code, report: JSON.parse(cli.stdout) }).toEqual({
        code: 0,
        report: report({
          campaign_id: a.campaignId,
          rows: 12_000,
          processed_rows: 12_000,
          created: 12_000,
        }),
      });
      expect(cli.stderr).toContain('uploading: 100%');
      expect(cli.stderr).toContain('importing: 12000 of 12000 rows (100%)');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  describe('allow_duplicates=false across chunks (12,000 rows: a job of three 5,000-row chunks)', () => {
    const ROWS = 12_000;
    const file = () => streamToString(csvRows(ROWS));
    const finished = (a: Awaited<ReturnType<typeof tenant>>, id: string) =>
      waitFor(
        async () => (await a.getImport(id)).body,
        (body) => !['queued', 'running'].includes(body.status),
        120_000,
        200,
      );
    /** What the check says of rows 2 to n+1 once the campaign holds their external ids (EXT-0...). */
    const takenErrors = (n: number) =>
      Array.from({ length: Math.min(n, 10_000) }, (_, i) => ({
        row: i + 2,
        column: 'external_id',
        loc: ['external_id'],
        type: 'value_error',
        msg: 'Value error, this external id is already in the campaign',
        input: `EXT-${i}`,
      }));

    it('two imports of the same file at once: one adds every row, the other ends rejected having added nothing', async () => {
      const a = await tenant();
      const csv = await file();
      const uploads = await Promise.all([
        a.importCsv(csv, { allow_duplicates: 'false' }),
        a.importCsv(csv, { allow_duplicates: 'false' }),
      ]);
      expect(uploads.map((u) => u.status)).toEqual([202, 202]);
      const ends = await Promise.all(uploads.map((u) => finished(a, u.body.id)));
      const winner = ends.find((e) => e.status === 'succeeded');
      const loser = ends.find((e) => e.status === 'rejected');
      expect(winner).toEqual(
        report({
          campaign_id: a.campaignId,
          allow_duplicates: false,
          rows: ROWS,
          processed_rows: ROWS,
          created: ROWS,
        }),
      );
      // The loser is rejected by the check, or by the chunk that met the winner's rows (its earlier
      // chunks withdrawn): its errors are then the rows the winner had committed, whole chunks of it.
      expect([5_000, 10_000, ROWS]).toContain(loser.invalid_rows);
      expect(loser).toEqual(
        report({
          campaign_id: a.campaignId,
          status: 'rejected',
          allow_duplicates: false,
          rows: ROWS,
          invalid_rows: loser.invalid_rows,
          errors: takenErrors(loser.invalid_rows),
        }),
      );
      const [{ count, distinct }] = await t.sql(
        `SELECT count(*)::int AS count, count(DISTINCT external_id)::int AS distinct
           FROM targets WHERE campaign_id = $1`,
        [a.campaignId],
      );
      expect([count, distinct]).toEqual([ROWS, ROWS]);
    }, 240_000);

    it('an add that commits an external id of a later chunk mid-import: the targets already added are withdrawn, nothing is called', async () => {
      const a = await tenant();
      // Another writer commits EXT-8000 (row 8,002, in the second chunk) right after the import claims
      // its first chunk: a trigger adds it in that chunk's transaction, so it commits with it.
      await t.sql(`
        CREATE OR REPLACE FUNCTION test_add_during_import() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
          INSERT INTO targets (id, organization_id, campaign_id, external_id, phone_number, input_data,
                               status, created_at, updated_at)
          VALUES (gen_random_uuid(), NEW.organization_id, NEW.campaign_id, 'EXT-8000', '+15550108000',
                  '{}', 'Pending', now(), now());
          RETURN NEW;
        END $$`);
      await t.sql(`
        CREATE TRIGGER test_add_during_import AFTER UPDATE OF processed_through ON target_imports
        FOR EACH ROW WHEN (NEW.campaign_id = '${a.campaignId}' AND OLD.processed_through = 0
                           AND NEW.processed_through > 0)
        EXECUTE FUNCTION test_add_during_import()`);
      try {
        const upload = await a.importCsv(await file(), {
          allow_duplicates: 'false',
          launch: 'true',
        });
        expect(upload.status).toBe(202);
        const done = await finished(a, upload.body.id);
        expect(done).toEqual(
          report({
            campaign_id: a.campaignId,
            status: 'rejected',
            allow_duplicates: false,
            launch: true,
            rows: ROWS,
            invalid_rows: 1,
            errors: [{ ...takenErrors(8_001)[8_000] }],
          }),
        );
      } finally {
        await t.sql(`DROP TRIGGER test_add_during_import ON target_imports`);
        await t.sql(`DROP FUNCTION test_add_during_import()`);
      }
      // Only the other writer's target is left, and the withdrawn targets left no history.
      expect(
        await t.sql(`SELECT external_id FROM targets WHERE campaign_id = $1`, [a.campaignId]),
      ).toEqual([{ external_id: 'EXT-8000' }]);
      expect(
        await t.sql(
          `SELECT e.kind, t.external_id FROM target_events e JOIN targets t ON t.id = e.target_id
            WHERE e.campaign_id = $1
           UNION ALL
           SELECT e.kind, NULL FROM target_events e
            WHERE e.campaign_id = $1 AND NOT EXISTS (SELECT 1 FROM targets t WHERE t.id = e.target_id)`,
          [a.campaignId],
        ),
      ).toEqual([{ kind: 'added', external_id: 'EXT-8000' }]);
      expect(
        await t.sql(`SELECT count(*)::int AS calls FROM call_logs WHERE campaign_id = $1`, [
          a.campaignId,
        ]),
      ).toEqual([{ calls: 0 }]);
    }, 240_000);
  });
});

/** The CLI as a child process, without blocking this process (the app it talks to runs here). */
function runAsync(
  args: string[],
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [...tsEntry('cli.ts'), ...args], {
      cwd: ROOT,
      env: { ...process.env, DATABASE_URL: '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}
