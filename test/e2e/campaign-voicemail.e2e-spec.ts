import { createTestApp, TestApp, waitFor } from '../support/test-app.js';

const ISO = expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
const MESSAGE = 'Hi {{input_data.first_name}}, this is your clinic about {{input_data.visit.day}}.';

/**
 * A campaign's own voicemail message (issue 44): set with the campaign's settings by whoever may
 * change the campaign (an operator, who may not change provider connections), refused at its field
 * when it cannot be left as written, and left on the mailbox by the simulator (its one transcript turn
 * shows which message it was). A campaign with none leaves the connection's (test/e2e/voicemail-drop
 * shows both on Twilio).
 */
describe("a campaign's voicemail message", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { SIMULATED_CALL_SECONDS: '0' } });
  });
  afterAll(() => t?.close());

  const as = (apiKey: string) => ({
    post: (path: string, body: unknown) =>
      t
        .http()
        .post(path)
        .set('X-API-Key', apiKey)
        .send(body as object),
    patch: (path: string, body: unknown) =>
      t
        .http()
        .patch(path)
        .set('X-API-Key', apiKey)
        .send(body as object),
    get: (path: string) => t.http().get(path).set('X-API-Key', apiKey),
  });

  it('is set and cleared by an operator with the campaign, an added field the reads answer', async () => {
    const { apiKey } = await t.createOrganization();
    const operator = (await as(apiKey).post('/api/v1/api-keys', { name: 'op', role: 'operator' }))
      .body.key as string;
    const created = await as(operator).post('/api/v1/campaigns', {
      name: 'Flu shots',
      type: 'patient',
      voicemail_message: MESSAGE,
    });
    expect(created.status).toBe(201);
    const expected = {
      id: created.body.id,
      organization_id: expect.any(String),
      name: 'Flu shots',
      type: 'patient',
      caller_id: null,
      max_attempts: 3,
      retry_delay_minutes: 60,
      max_concurrent_calls: 10,
      calling_window: null,
      steps: [],
      entry_step: null,
      blacklist_ids: [],
      webhook_url: null,
      provider_connection_id: null,
      state: 'active',
      state_changed_at: null,
      auto_pause: null,
      sms_follow_up: null,
      default_country: null,
      voicemail_message: MESSAGE,
      paused_reason: null,
      created_at: ISO,
      updated_at: ISO,
    };
    expect(created.body).toEqual({ ...expected, webhook_secret: expect.stringMatching(/^whsec_/) });
    const path = `/api/v1/campaigns/${created.body.id}`;
    expect((await as(operator).get(path)).body).toEqual(expected);

    const changed = await as(operator).patch(path, { voicemail_message: 'Please call us back.' });
    expect(changed.status).toBe(200);
    expect(changed.body).toEqual({ ...expected, voicemail_message: 'Please call us back.' });
    const cleared = await as(operator).patch(path, { voicemail_message: null });
    expect(cleared.body).toEqual({ ...expected, voicemail_message: null });
    const listed = await as(operator).get('/api/v1/campaigns');
    expect(listed.body.campaigns).toEqual([{ ...expected, voicemail_message: null }]);

    // The connection's message is an administrator's setting; the campaign's is the operator's way.
    const connection = await as(apiKey).post('/api/v1/provider-connections', {
      type: 'simulated',
      name: 'Main line',
    });
    const refused = await as(operator).patch(`/api/v1/provider-connections/${connection.body.id}`, {
      name: 'Renamed',
    });
    expect(refused.status).toBe(403);
  });

  it('is refused at its field when it cannot be left as written (422)', async () => {
    const { apiKey } = await t.createOrganization();
    const refusals: [unknown, Record<string, unknown>][] = [
      [
        '',
        {
          type: 'string_too_short',
          loc: ['body', 'voicemail_message'],
          msg: 'String should have at least 1 character',
          input: '',
          ctx: { min_length: 1 },
        },
      ],
      [
        'x'.repeat(501),
        {
          type: 'string_too_long',
          loc: ['body', 'voicemail_message'],
          msg: 'String should have at most 500 characters',
          input: 'x'.repeat(501),
          ctx: { max_length: 500 },
        },
      ],
      [
        'Hi {{first_name}}, please call us.',
        {
          type: 'value_error',
          loc: ['body', 'voicemail_message'],
          msg: "Value error, placeholder {{first_name}} is not one: write a patient's data as {{input_data.<field>}} or {{patient.<field>}} (first_name, last_name, date_of_birth, external_id, phone_number), such as {{patient.first_name}}",
          input: 'Hi {{first_name}}, please call us.',
          ctx: { error: {} },
        },
      ],
      [
        42,
        {
          type: 'string_type',
          loc: ['body', 'voicemail_message'],
          msg: 'Input should be a valid string',
          input: 42,
        },
      ],
    ];
    for (const [message, detail] of refusals) {
      const res = await as(apiKey).post('/api/v1/campaigns', {
        name: 'Bad message',
        type: 'patient',
        voicemail_message: message,
      });
      expect([res.status, res.body]).toEqual([422, { detail: [detail] }]);
    }
    const { id } = await t.createCampaign(apiKey);
    const patched = await as(apiKey).patch(`/api/v1/campaigns/${id}`, {
      voicemail_message: 'Hi {{ input_data.first_name }}, and {{input_data.}}',
    });
    expect([patched.status, patched.body]).toEqual([
      422,
      {
        detail: [
          {
            type: 'value_error',
            loc: ['body', 'voicemail_message'],
            msg: "Value error, placeholder {{input_data.}} is not one: write a patient's data as {{input_data.<field>}} or {{patient.<field>}} (first_name, last_name, date_of_birth, external_id, phone_number), such as {{patient.first_name}}",
            input: 'Hi {{ input_data.first_name }}, and {{input_data.}}',
            ctx: { error: {} },
          },
        ],
      },
    ]);
  });

  it('is the message the simulator leaves, filled in; none without one, and none when there is no mailbox', async () => {
    const { apiKey } = await t.createOrganization();
    const withMessage = await t.createCampaign(apiKey, {
      voicemail_message: MESSAGE,
      max_attempts: 1,
    });
    const without = await t.createCampaign(apiKey, { max_attempts: 1 });
    const add = async (campaignId: string, phone: string) =>
      (
        await as(apiKey).post(`/api/v1/campaigns/${campaignId}/targets`, {
          targets: [
            { phone_number: phone, input_data: { first_name: 'Ada', visit: { day: 'Tuesday' } } },
          ],
          launch: true,
        })
      ).body.target_ids[0] as string;
    const delivered = await add(withMessage.id, '+15550170001');
    const noMailbox = await add(withMessage.id, '+15550170008');
    const plain = await add(without.id, '+15550180001');
    const finished = await waitFor(
      () =>
        Promise.all(
          [delivered, noMailbox, plain].map((id) => as(apiKey).get(`/api/v1/targets/${id}`)),
        ),
      (res) => res.every((r) => r.body.status === 'Finished'),
      30_000,
    );
    const logs = await Promise.all(
      finished.map(
        async (r) =>
          (await as(apiKey).get(`/api/v1/call-logs/${r.body.call_log_ids[0]}`)).body as Record<
            string,
            unknown
          >,
      ),
    );
    expect(
      logs.map((l) => ({ categorization: l.call_categorization, transcripts: l.transcripts })),
    ).toEqual([
      {
        categorization: { outcome: 'VOICEMAIL', category: 'VOICEMAIL', subcategory: 'DELIVERED' },
        transcripts: [{ role: 'assistant', message: 'Hi Ada, this is your clinic about Tuesday.' }],
      },
      {
        categorization: { outcome: 'VOICEMAIL', category: 'VOICEMAIL', subcategory: 'NO_MAILBOX' },
        transcripts: [],
      },
      {
        categorization: { outcome: 'VOICEMAIL', category: 'VOICEMAIL', subcategory: 'DELIVERED' },
        transcripts: [],
      },
    ]);
  });

  it('fills {{patient.<field>}} from an imported patient: the voicemail left and the follow-up text carry the name', async () => {
    const { apiKey } = await t.createOrganization();
    const campaign = await t.createCampaign(apiKey, {
      max_attempts: 1,
      voicemail_message: 'Hi {{patient.first_name}} {{ patient.last_name }}, this is your clinic.',
      sms_follow_up: {
        on_categories: ['VOICEMAIL'],
        template: 'Hi {{patient.first_name}}, we left you a message (MRN {{patient.external_id}}).',
      },
    });
    // Paused, so the imported target is still awaiting its call when the variables are checked;
    // launched, its call could start before that read.
    await as(apiKey).post(`/api/v1/campaigns/${campaign.id}/pause`, {}).expect(200);
    // An EHR export: the names and MRN go to the target's patient, none to its input data.
    const imported = await t
      .http()
      .post(`/api/v1/campaigns/${campaign.id}/targets/import?launch=true`)
      .set('X-API-Key', apiKey)
      .set('Content-Type', 'text/csv')
      .send('Phone,MRN,First Name,Last Name,DOB\n+15550170001,MRN-1007,Maria,Lopez,03/14/1962\n');
    expect(imported.body).toMatchObject({ status: 'succeeded', created: 1 });
    const variables = await as(apiKey).get(`/api/v1/campaigns/${campaign.id}/variables`);
    expect(variables.body).toEqual({
      campaign_id: campaign.id,
      provider_connection_id: null,
      targets_checked: 1,
      variables: ['first_name', 'last_name', 'external_id'].map((field) => ({
        name: `patient.${field}`,
        used_in:
          field === 'last_name'
            ? ['voicemail_message']
            : field === 'first_name'
              ? ['voicemail_message', 'sms_follow_up.template']
              : ['sms_follow_up.template'],
        targets_missing: 0,
        missing_target_ids: [],
      })),
    });
    await as(apiKey).post(`/api/v1/campaigns/${campaign.id}/resume`, {}).expect(200);
    const [targetId] = (
      (await as(apiKey).get(`/api/v1/campaigns/${campaign.id}/targets`)).body.targets as {
        id: string;
      }[]
    ).map((x) => x.id);
    const target = await waitFor(
      async () => (await as(apiKey).get(`/api/v1/targets/${targetId}`)).body,
      (b) => b.status === 'Finished',
      30_000,
    );
    expect(target.input_data).toEqual({});
    const log = (await as(apiKey).get(`/api/v1/call-logs/${target.call_log_ids[0]}`)).body;
    expect({ categorization: log.call_categorization, transcripts: log.transcripts }).toEqual({
      categorization: { outcome: 'VOICEMAIL', category: 'VOICEMAIL', subcategory: 'DELIVERED' },
      transcripts: [{ role: 'assistant', message: 'Hi Maria Lopez, this is your clinic.' }],
    });
    const messages = await as(apiKey).get(`/api/v1/targets/${targetId}/messages`);
    expect([messages.status, messages.body]).toEqual([
      200,
      {
        messages: [
          {
            id: expect.any(String),
            campaign_id: campaign.id,
            target_id: targetId,
            call_log_id: target.call_log_ids[0],
            direction: 'outbound',
            to: '+15550170001',
            from: '+15550000000',
            body: 'Hi Maria, we left you a message (MRN MRN-1007).',
            status: 'delivered',
            provider: 'simulated',
            provider_connection_id: null,
            provider_message_id: expect.stringMatching(/^SM[0-9a-f]{32}$/),
            error_code: null,
            error_message: null,
            keyword: null,
            send_after: null,
            created_at: ISO,
            updated_at: ISO,
            sent_at: ISO,
            settled_at: ISO,
          },
        ],
      },
    ]);
    // An unknown patient field is refused at the follow-up text's field as at the voicemail's.
    const refused = await as(apiKey).patch(`/api/v1/campaigns/${campaign.id}`, {
      sms_follow_up: { on_categories: ['VOICEMAIL'], template: 'Hi {{patient.mrn}}' },
    });
    expect([refused.status, refused.body]).toEqual([
      422,
      {
        detail: [
          {
            type: 'value_error',
            loc: ['body', 'sms_follow_up', 'template'],
            msg: "Value error, placeholder {{patient.mrn}} is not one: write a patient's data as {{input_data.<field>}} or {{patient.<field>}} (first_name, last_name, date_of_birth, external_id, phone_number), such as {{patient.first_name}}",
            input: 'Hi {{patient.mrn}}',
            ctx: { error: {} },
          },
        ],
      },
    ]);
  });

  it('counts, among its variables, the targets still to be called whose patient lacks a field', async () => {
    const { apiKey } = await t.createOrganization();
    const { id } = await t.createCampaign(apiKey, {
      voicemail_message: 'Hi {{patient.first_name}}, about {{input_data.visit.day}}.',
    });
    const added = await as(apiKey).post(`/api/v1/campaigns/${id}/targets`, {
      targets: [
        { phone_number: '+15550170011', patient: { first_name: 'Maria' } },
        { phone_number: '+15550170012', patient: { last_name: 'Kahale' } },
        { phone_number: '+15550170013', input_data: { first_name: 'Ada' } },
      ],
    });
    const [, noFirst, noPatient] = added.body.target_ids as string[];
    const res = await as(apiKey).get(`/api/v1/campaigns/${id}/variables`);
    expect([res.status, res.body]).toEqual([
      200,
      {
        campaign_id: id,
        provider_connection_id: null,
        targets_checked: 3,
        variables: [
          {
            name: 'patient.first_name',
            used_in: ['voicemail_message'],
            targets_missing: 2,
            missing_target_ids: [noFirst, noPatient],
          },
          {
            name: 'input_data.visit.day',
            used_in: ['voicemail_message'],
            targets_missing: 3,
            missing_target_ids: added.body.target_ids,
          },
        ],
      },
    ]);
  });

  it('is named among the variables its targets need, in place of the connection’s', async () => {
    const { apiKey } = await t.createOrganization();
    const { id } = await t.createCampaign(apiKey, { voicemail_message: MESSAGE });
    const res = await as(apiKey).get(`/api/v1/campaigns/${id}/variables`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      campaign_id: id,
      provider_connection_id: null,
      targets_checked: 0,
      variables: [
        {
          name: 'input_data.first_name',
          used_in: ['voicemail_message'],
          targets_missing: 0,
          missing_target_ids: [],
        },
        {
          name: 'input_data.visit.day',
          used_in: ['voicemail_message'],
          targets_missing: 0,
          missing_target_ids: [],
        },
      ],
    });
  });
});
