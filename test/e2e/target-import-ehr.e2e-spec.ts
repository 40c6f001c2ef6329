import { createTestApp, TestApp } from '../support/test-app.js';
import { importReport } from '../support/import-report.js';

/** A file as an EHR exports it: its own headers, national numbers, US dates of birth. */
const EHR_CSV = [
  'Patient ID,First Name,Last Name,DOB,Home Phone,Cell,Visit Reason',
  'MRN-1001,Maria,Lopez,03/14/1962,(617) 253-1217,808-956-8111,follow-up',
  'MRN-1002,Keoni,Kahale,1948-07-01,808.956.8111,,labs',
].join('\n');

/** The reason a seven-digit local number is refused: the reference's rule, then what to do. */
const SEVEN_DIGITS =
  'phone number must be + followed by 7 to 15 digits (spaces, dashes, dots and parentheses are ignored): 253-1217 has only 7 digits, add the area code';

/**
 * CSV imports of the files people have (issue 44): headers recognised, national numbers and US dates
 * of birth read, the mapping and a preview reported, and bad rows skipped when asked.
 */
describe('CSV import of EHR exports', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { ROLE: 'api' } });
  });
  afterAll(() => t.close());

  async function tenant() {
    const { apiKey } = await t.createOrganization();
    const { id: campaignId } = await t.createCampaign(apiKey, {});
    const as = (req: any) => req.set('X-API-Key', apiKey);
    return {
      campaignId,
      as,
      importCsv: (csv: string, query: Record<string, string> = {}) =>
        as(t.http().post(`/api/v1/campaigns/${campaignId}/targets/import`))
          .query(query)
          .set('Content-Type', 'text/csv')
          .send(csv),
      targets: () =>
        t.sql(
          `SELECT external_id, phone_number, fallback_phone_number, patient, input_data
           FROM targets WHERE campaign_id = $1 ORDER BY created_at, id`,
          [campaignId],
        ),
    };
  }

  const report = importReport;

  const RECOGNISED = [
    { column: 'Patient ID', field: 'patient.external_id', source: 'recognised' },
    { column: 'First Name', field: 'patient.first_name', source: 'recognised' },
    { column: 'Last Name', field: 'patient.last_name', source: 'recognised' },
    { column: 'DOB', field: 'patient.date_of_birth', source: 'recognised' },
    { column: 'Home Phone', field: 'phone_number', source: 'recognised' },
    { column: 'Cell', field: 'fallback_phone_number', source: 'recognised' },
    { column: 'Visit Reason', field: 'input_data.Visit Reason', source: 'input_data' },
  ];
  const MARIA = {
    row: 2,
    phone_number: '+16172531217',
    fallback_phone_number: '+18089568111',
    external_id: 'MRN-1001',
    time_zone: null,
    patient: {
      first_name: 'Maria',
      last_name: 'Lopez',
      date_of_birth: '1962-03-14',
      external_id: 'MRN-1001',
    },
    input_data: { 'Visit Reason': 'follow-up' },
  };
  const KEONI = {
    row: 3,
    phone_number: '+18089568111',
    fallback_phone_number: null,
    external_id: 'MRN-1002',
    time_zone: null,
    patient: {
      first_name: 'Keoni',
      last_name: 'Kahale',
      date_of_birth: '1948-07-01',
      external_id: 'MRN-1002',
    },
    input_data: { 'Visit Reason': 'labs' },
  };

  it('recognises the headers, proposes the mapping in a dry run with a preview as stored, then imports', async () => {
    const c = await tenant();
    const dry = await c.importCsv(EHR_CSV, { dry_run: 'true' });
    expect([dry.status, dry.body]).toEqual([
      200,
      report({
        campaign_id: c.campaignId,
        dry_run: true,
        rows: 2,
        columns: RECOGNISED,
        preview: [MARIA, KEONI],
      }),
    ]);
    expect(await c.targets()).toEqual([]);

    // The console sends the mapping it shows: here, the cell phone kept as input data instead.
    const res = await c.importCsv(EHR_CSV, { columns: 'Cell:input_data.Cell' });
    expect([res.status, res.body]).toEqual([
      200,
      report({
        campaign_id: c.campaignId,
        rows: 2,
        processed_rows: 2,
        created: 2,
        columns: [
          ...RECOGNISED.slice(0, 5),
          { column: 'Cell', field: 'input_data.Cell', source: 'explicit' },
          RECOGNISED[6],
        ],
        preview: [
          {
            ...MARIA,
            fallback_phone_number: null,
            input_data: { ...MARIA.input_data, Cell: '808-956-8111' },
          },
          KEONI,
        ],
      }),
    ]);
    expect(await c.targets()).toEqual([
      {
        external_id: 'MRN-1001',
        phone_number: '+16172531217',
        fallback_phone_number: null,
        patient: {
          first_name: 'Maria',
          last_name: 'Lopez',
          date_of_birth: '1962-03-14',
          external_id: 'MRN-1001',
          phone_number: null,
          extra_data: null,
        },
        input_data: { 'Visit Reason': 'follow-up', Cell: '808-956-8111' },
      },
      {
        external_id: 'MRN-1002',
        phone_number: '+18089568111',
        fallback_phone_number: null,
        patient: {
          first_name: 'Keoni',
          last_name: 'Kahale',
          date_of_birth: '1948-07-01',
          external_id: 'MRN-1002',
          phone_number: null,
          extra_data: null,
        },
        input_data: { 'Visit Reason': 'labs' },
      },
    ]);
  });

  it('recognises headers in any case and spacing; an exact field name comes first', async () => {
    const c = await tenant();
    const csv = 'phone_number,MOBILE,date_of_birth, mrn ,first_name\n+16172531217,,,M-1,Ann\n';
    const res = await c.importCsv(csv, { dry_run: 'true' });
    expect(res.body.columns).toEqual([
      { column: 'phone_number', field: 'phone_number', source: 'field_name' },
      { column: 'MOBILE', field: 'fallback_phone_number', source: 'recognised' },
      { column: 'date_of_birth', field: 'patient.date_of_birth', source: 'recognised' },
      { column: 'mrn', field: 'patient.external_id', source: 'recognised' },
      { column: 'first_name', field: 'patient.first_name', source: 'recognised' },
    ]);
  });

  it('by default refuses a file with a bad row; on_error=skip adds the good rows and reports the bad with their value', async () => {
    const c = await tenant();
    const csv = [
      'MRN,First Name,DOB,Phone',
      'MRN-1,Maria,3/4/1962,617 253 1217',
      'MRN-2,Keoni,02/30/1950,808-956-8111', // no such day
      'MRN-3,Marcus,1950-01-01,617-253-121', // too short
      'MRN-4,Ana,,(555) 010-0000', // no such area code
      'MRN-5,Lee,,253-1217', // a local number: no area code
    ].join('\n');
    const errors = [
      {
        row: 3,
        column: 'DOB',
        loc: ['patient', 'date_of_birth'],
        type: 'value_error',
        msg: 'Value error, a date of birth must be a date such as 03/14/1962 or 1962-03-14',
        input: '02/30/1950',
        ctx: { error: {} },
      },
      {
        row: 4,
        column: 'Phone',
        loc: ['phone_number'],
        type: 'value_error',
        msg: 'Value error, 617-253-121 is too short for a number in US',
        input: '617-253-121',
      },
      {
        row: 5,
        column: 'Phone',
        loc: ['phone_number'],
        type: 'value_error',
        msg: 'Value error, (555) 010-0000 is not a valid number in US: area code 555 or its exchange is not in use',
        input: '(555) 010-0000',
      },
      {
        row: 6,
        column: 'Phone',
        loc: ['phone_number'],
        type: 'value_error',
        msg: `Value error, ${SEVEN_DIGITS}`,
        input: '253-1217',
        ctx: { error: {} },
      },
    ];
    const columns = [
      { column: 'MRN', field: 'patient.external_id', source: 'recognised' },
      { column: 'First Name', field: 'patient.first_name', source: 'recognised' },
      { column: 'DOB', field: 'patient.date_of_birth', source: 'recognised' },
      { column: 'Phone', field: 'phone_number', source: 'recognised' },
    ];
    const preview = [
      {
        row: 2,
        phone_number: '+16172531217',
        fallback_phone_number: null,
        external_id: 'MRN-1',
        time_zone: null,
        patient: {
          first_name: 'Maria',
          last_name: null,
          date_of_birth: '1962-03-04',
          external_id: 'MRN-1',
        },
        input_data: {},
      },
    ];
    const refused = await c.importCsv(csv);
    expect([refused.status, refused.body]).toEqual([
      200,
      report({
        campaign_id: c.campaignId,
        status: 'rejected',
        rows: 5,
        invalid_rows: 4,
        errors,
        columns,
        preview,
      }),
    ]);
    expect(await c.targets()).toEqual([]);

    const skipped = await c.importCsv(csv, { on_error: 'skip' });
    expect([skipped.status, skipped.body]).toEqual([
      200,
      report({
        campaign_id: c.campaignId,
        on_error: 'skip',
        rows: 5,
        invalid_rows: 4,
        processed_rows: 1,
        created: 1,
        errors,
        columns,
        preview,
      }),
    ]);
    expect((await c.targets()).map((r) => r.phone_number)).toEqual(['+16172531217']);

    const file = await c.as(t.http().get(`/api/v1/imports/${skipped.body.id}/errors`));
    expect(file.status).toBe(200);
    expect(file.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(file.headers['content-disposition']).toBe(
      `attachment; filename="import-${skipped.body.id}-errors.csv"`,
    );
    expect(file.text).toBe(
      [
        'row,column,value,reason',
        '3,DOB,02/30/1950,a date of birth must be a date such as 03/14/1962 or 1962-03-14',
        '4,Phone,617-253-121,617-253-121 is too short for a number in US',
        '5,Phone,(555) 010-0000,(555) 010-0000 is not a valid number in US: area code 555 or its exchange is not in use',
        `6,Phone,253-1217,"${SEVEN_DIGITS}"`,
        '',
      ].join('\n'),
    );
    const bad = await c.importCsv(csv, { on_error: 'maybe' });
    expect(bad.status).toBe(422);
    expect(bad.body.detail[0]).toMatchObject({ type: 'enum', loc: ['query', 'on_error'] });
    const other = await t.createOrganization();
    const hidden = await t
      .http()
      .get(`/api/v1/imports/${skipped.body.id}/errors`)
      .set('X-API-Key', other.apiKey);
    expect([hidden.status, hidden.body]).toEqual([
      404,
      { detail: `Import ${skipped.body.id} not found` },
    ]);
  });
});
