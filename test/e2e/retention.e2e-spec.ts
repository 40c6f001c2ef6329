import { Clock } from '../../src/common/clock/clock.js';
import { MessagingService } from '../../src/modules/messaging/application/messaging.service.js';
import { RetentionPurge } from '../../src/modules/retention/application/retention-purge.js';
import { PART_REMOVES } from '../../src/modules/retention/domain/retention-policy.js';
import { FakeClock } from '../../src/testing/fake-clock.js';
import { createTestApp, TestApp, waitFor } from '../support/test-app.js';

const DAY = 86_400_000;
const KEEP = {
  transcripts: null,
  recordings: null,
  input_data: null,
  messages: null,
  finished_targets: null,
};
const UUID = /^[0-9a-f-]{36}$/;
const ISO = /^\d{4}-\d{2}-\d{2}T/;

/**
 * Retention end to end (docs/compliance.md, "Retention"): the policy, the purge of each window alone
 * and together over every copy, a purge killed mid-run and resumed, redaction before storage, and one
 * patient read and erased across campaigns. Time is the service's Clock: calls end at T0, and the
 * windows pass by moving it.
 */
describe('retention, redaction and the patient record', () => {
  let t: TestApp;
  const clock = new FakeClock(new Date());

  beforeAll(async () => {
    t = await createTestApp({ customize: (b) => b.overrideProvider(Clock).useValue(clock) });
  });
  afterAll(() => t?.close());

  const as = (apiKey: string) => ({
    get: (path: string) => t.http().get(path).set('X-API-Key', apiKey),
    put: (path: string, body: object) => t.http().put(path).set('X-API-Key', apiKey).send(body),
    post: (path: string, body: object = {}) =>
      t.http().post(path).set('X-API-Key', apiKey).send(body),
    del: (path: string) => t.http().delete(path).set('X-API-Key', apiKey),
  });

  /** Targets launched and called by the simulator (a GOOD call: transcript, summary, recording). */
  async function calledTargets(apiKey: string, campaignId: string, targets: object[]) {
    const ids = await t.addTargets(apiKey, campaignId, { targets, launch: true });
    await waitFor(
      () =>
        t.sql<{ n: number }>(
          `SELECT count(*)::int AS n FROM targets WHERE id = ANY($1) AND status = 'Finished'`,
          [ids],
        ),
      (rows) => rows[0].n === ids.length,
      30_000,
    );
    return ids;
  }

  /** Numbers ending 0010 and up: the simulator answers them (a GOOD call). */
  const patient = (n: number) => ({
    phone_number: `+1555010${String(n).padStart(4, '0')}`,
    external_id: `MRN-${n}`,
    patient: { first_name: 'Rosalind', last_name: `Franklin${n}`, date_of_birth: '1920-07-25' },
    input_data: { appointment: 'Cardiology follow-up', room: 'B12' },
  });

  const callLogsOf = (ids: string[]) =>
    t.sql(
      `SELECT target_id, transcripts, post_call_data, recording_urls, agent_data, to_number
         FROM call_logs WHERE target_id = ANY($1) ORDER BY target_id`,
      [ids],
    );

  describe('GET and PUT /api/v1/compliance/retention', () => {
    it('keeps everything until set, replaces the whole policy, and refuses a bad window at its field', async () => {
      const { apiKey } = await t.createOrganization();
      const api = as(apiKey);
      const before = await api.get('/api/v1/compliance/retention');
      expect([before.status, before.body]).toEqual([
        200,
        { windows: KEEP, redact_transcripts: false, removes: PART_REMOVES, campaigns: [] },
      ]);
      const body = {
        windows: { ...KEEP, transcripts: 30, recordings: 0, finished_targets: 3650 },
        redact_transcripts: true,
      };
      const put = await api.put('/api/v1/compliance/retention', body);
      expect([put.status, put.body]).toEqual([
        200,
        { ...body, removes: PART_REMOVES, campaigns: [] },
      ]);
      const bad = await api.put('/api/v1/compliance/retention', {
        windows: { ...KEEP, transcripts: -1, messages: 1.5, input_data: 'seven' },
        redact_transcripts: 'maybe',
      });
      expect(bad.status).toBe(422);
      expect(bad.body.detail.map((d: { loc: unknown[]; type: string }) => [d.loc, d.type])).toEqual(
        [
          [['body', 'windows', 'transcripts'], 'greater_than_equal'],
          [['body', 'windows', 'input_data'], 'int_parsing'],
          [['body', 'windows', 'messages'], 'int_from_float'],
          [['body', 'redact_transcripts'], 'bool_parsing'],
        ],
      );
      const missing = await api.put('/api/v1/compliance/retention', {
        windows: { transcripts: 1 },
      });
      expect(missing.status).toBe(422);
      expect(missing.body.detail.map((d: { loc: unknown[] }) => d.loc)).toEqual([
        ['body', 'windows', 'recordings'],
        ['body', 'windows', 'input_data'],
        ['body', 'windows', 'messages'],
        ['body', 'windows', 'finished_targets'],
        ['body', 'redact_transcripts'],
      ]);
      // Unchanged by the refusals.
      expect((await api.get('/api/v1/compliance/retention')).body.windows).toEqual(body.windows);
    });

    it("gives a campaign its own policy, and refuses a stranger's campaign and a non-admin", async () => {
      const { apiKey } = await t.createOrganization();
      const api = as(apiKey);
      const campaign = await t.createCampaign(apiKey);
      const path = `/api/v1/compliance/retention/campaigns/${campaign.id}`;
      const inherited = await api.get(path);
      expect([inherited.status, inherited.body]).toEqual([
        200,
        {
          campaign_id: campaign.id,
          own: false,
          windows: KEEP,
          redact_transcripts: false,
          removes: PART_REMOVES,
        },
      ]);
      const own = { windows: { ...KEEP, messages: 7 }, redact_transcripts: true };
      const put = await api.put(path, own);
      expect([put.status, put.body]).toEqual([
        200,
        { campaign_id: campaign.id, own: true, ...own, removes: PART_REMOVES },
      ]);
      expect((await api.get('/api/v1/compliance/retention')).body.campaigns).toEqual([
        { campaign_id: campaign.id, ...own },
      ]);
      const removed = await api.del(path);
      expect([removed.status, removed.body.own]).toEqual([200, false]);

      const stranger = await t.createOrganization();
      const foreign = await as(stranger.apiKey).put(path, own);
      expect([foreign.status, foreign.body]).toEqual([
        404,
        { detail: `Campaign ${campaign.id} not found` },
      ]);
      const operator = (await api.post('/api/v1/api-keys', { name: 'op', role: 'operator' })).body
        .key as string;
      const refused = await as(operator).put('/api/v1/compliance/retention', own);
      expect(refused.status).toBe(403);
      expect((await as(operator).post('/api/v1/compliance/retention/run')).status).toBe(403);
      expect((await as(operator).get('/api/v1/compliance/retention/runs')).status).toBe(200);
    });
  });

  describe('the purge', () => {
    it('removes each window alone, then together, everywhere; numbers, statuses and dates stay', async () => {
      const { apiKey } = await t.createOrganization();
      const api = as(apiKey);
      const campaign = await t.createCampaign(apiKey, { max_attempts: 1 });
      const kept = await t.createCampaign(apiKey, { name: 'Kept', max_attempts: 1 });
      const ids = await calledTargets(apiKey, campaign.id, [patient(31), patient(32)]);
      const [keptId] = await calledTargets(apiKey, kept.id, [patient(33)]);
      // The kept campaign's own policy keeps everything whatever the organization's says.
      await api.put(`/api/v1/compliance/retention/campaigns/${kept.id}`, {
        windows: KEEP,
        redact_transcripts: false,
      });
      // The campaign's numbers, without the instant they are read at.
      const stats = async () => {
        const { as_of: _at, ...numbers } = (await api.get(`/api/v1/campaigns/${campaign.id}/stats`))
          .body;
        return numbers;
      };
      const targetBefore = (await api.get(`/api/v1/targets/${ids[0]}`)).body;
      const logsBefore = await callLogsOf(ids);
      expect(logsBefore[0]).toMatchObject({
        transcripts: expect.arrayContaining([expect.objectContaining({ role: 'user' })]),
        post_call_data: { summary: 'The callee confirmed the information.', confirmed: true },
        recording_urls: [expect.stringMatching(/^https:\/\/recordings\.invalid\//)],
      });
      const setPolicy = (windows: object) =>
        api.put('/api/v1/compliance/retention', {
          windows: { ...KEEP, ...windows },
          redact_transcripts: false,
        });
      const run = async () => {
        const res = await api.post('/api/v1/compliance/retention/run');
        expect(res.status).toBe(200);
        return res.body;
      };

      // Within its window nothing goes.
      await setPolicy({ transcripts: 30 });
      clock.advance(29 * DAY);
      const statsBefore = await stats();
      expect((await run()).counts).toEqual({});
      expect(await callLogsOf(ids)).toEqual(logsBefore);

      // Transcripts alone.
      clock.advance(2 * DAY);
      const first = await run();
      expect(first).toEqual({
        id: expect.stringMatching(UUID),
        kind: 'purge',
        trigger: 'api',
        status: 'finished',
        policies: [
          {
            campaign_id: null,
            windows: { ...KEEP, transcripts: 30 },
            redact_transcripts: false,
          },
          { campaign_id: kept.id, windows: KEEP, redact_transcripts: false },
        ],
        subject: null,
        reason: null,
        counts: { transcripts: 2, 'rows.call_logs': 2 },
        started_at: clock.now().toISOString(),
        finished_at: clock.now().toISOString(),
      });
      let logs = await callLogsOf(ids);
      expect(logs.map((l) => [l.transcripts, l.post_call_data])).toEqual([
        [[], null],
        [[], null],
      ]);
      expect(logs.map((l) => l.recording_urls)).toEqual(logsBefore.map((l) => l.recording_urls));
      const afterTranscripts = (await api.get(`/api/v1/targets/${ids[0]}`)).body;
      expect(afterTranscripts).toEqual({
        ...targetBefore,
        purged_at: clock.now().toISOString(),
        purged_parts: ['transcripts'],
      });
      // Run again: nothing is due twice.
      expect((await run()).counts).toEqual({});

      // Recordings alone.
      await setPolicy({ transcripts: 30, recordings: 30 });
      expect((await run()).counts).toEqual({ recordings: 2, 'rows.call_logs': 2 });
      logs = await callLogsOf(ids);
      expect(logs.map((l) => l.recording_urls)).toEqual([[], []]);
      expect(logs[0].agent_data).toEqual(logsBefore[0].agent_data);

      // Input data, texts and the target row together; the row's window has not passed yet.
      await setPolicy({
        transcripts: 30,
        recordings: 30,
        input_data: 30,
        messages: 30,
        finished_targets: 60,
      });
      expect((await run()).counts).toEqual({
        input_data: 2,
        messages: 2,
        'rows.call_logs': 2,
        'rows.targets': 2,
        'rows.target_step_events': 0,
        'rows.target_events': 0,
        'rows.target_import_rows': 0,
        'rows.messages': 0,
      });
      const inputGone = (await api.get(`/api/v1/targets/${ids[0]}`)).body;
      expect(inputGone).toEqual({
        ...targetBefore,
        input_data: null,
        output_data: null,
        // The patient fields are input data: the name, date of birth and MRN go with it.
        patient: null,
        purged_at: clock.now().toISOString(),
        purged_parts: ['input_data', 'messages', 'recordings', 'transcripts'],
      });
      expect((await callLogsOf(ids))[0].agent_data).toEqual({});
      const [row] = await t.sql(`SELECT patient, input_data FROM targets WHERE id = $1`, [ids[0]]);
      expect(row).toEqual({ patient: null, input_data: {} });
      // The timeline says why the input data went.
      const timeline = await t.sql(
        `SELECT reason FROM target_events WHERE target_id = $1 AND kind = 'input_edited'`,
        [ids[0]],
      );
      expect(timeline).toEqual([{ reason: 'retention purge: input_data' }]);

      clock.advance(30 * DAY);
      expect((await run()).counts).toMatchObject({ finished_targets: 2 });
      const anonymous = (await api.get(`/api/v1/targets/${ids[0]}`)).body;
      expect(anonymous).toEqual({
        ...inputGone,
        phone_number: null,
        external_id: null,
        purged_at: clock.now().toISOString(),
        purged_parts: ['finished_targets', 'input_data', 'messages', 'recordings', 'transcripts'],
      });
      expect((await callLogsOf(ids)).map((l) => l.to_number)).toEqual(['', '']);
      // The campaign's numbers are what they were; the kept campaign's target is untouched.
      expect(await stats()).toEqual(statsBefore);
      const [untouched] = await t.sql(
        `SELECT purged_at, phone_number, jsonb_array_length(c.transcripts) AS lines
           FROM targets t JOIN call_logs c ON c.target_id = t.id WHERE t.id = $1`,
        [keptId],
      );
      expect(untouched).toEqual({
        purged_at: null,
        phone_number: patient(33).phone_number,
        lines: 3,
      });
      const runs = await api.get('/api/v1/compliance/retention/runs');
      expect(runs.status).toBe(200);
      expect(runs.body.total).toBe(6);
      expect(runs.body.runs[0].counts.finished_targets).toBe(2);
    });

    it('resumes a purge killed mid-run: nothing purged twice, nothing skipped', async () => {
      const { organizationId, apiKey } = await t.createOrganization();
      const api = as(apiKey);
      const campaign = await t.createCampaign(apiKey, { max_attempts: 1 });
      const ids = await calledTargets(
        apiKey,
        campaign.id,
        [11, 12, 13, 14, 15].map((n) => patient(n)),
      );
      await api.put('/api/v1/compliance/retention', {
        windows: { ...KEEP, input_data: 0 },
        redact_transcripts: false,
      });
      const purge = t.app.get(RetentionPurge);
      const killedAt = clock.now();
      await expect(
        purge.purgeOrganization(organizationId, {
          trigger: 'schedule',
          batchSize: 2,
          afterBatch: () => {
            throw new Error('killed');
          },
        }),
      ).rejects.toThrow('killed');
      const [stopped] = (await api.get('/api/v1/compliance/retention/runs')).body.runs;
      expect([stopped.status, stopped.counts.input_data]).toEqual(['running', 2]);

      clock.advance(60_000);
      const resumed = await purge.purgeOrganization(organizationId, {
        trigger: 'schedule',
        batchSize: 2,
      });
      expect([resumed.id, resumed.status, resumed.counts.input_data]).toEqual([
        stopped.id,
        'finished',
        5,
      ]);
      const purgedAt = await t.sql<{ id: string; purged_at: Date }>(
        `SELECT id, purged_at FROM targets WHERE id = ANY($1) ORDER BY created_at, id`,
        [ids],
      );
      expect(purgedAt.map((r) => r.purged_at.toISOString())).toEqual([
        killedAt.toISOString(),
        killedAt.toISOString(),
        clock.now().toISOString(),
        clock.now().toISOString(),
        clock.now().toISOString(),
      ]);
      const events = await t.sql<{ n: number }>(
        `SELECT count(*)::int AS n FROM target_events
          WHERE target_id = ANY($1) AND reason = 'retention purge: input_data'`,
        [ids],
      );
      expect(events[0].n).toBe(5);
      expect((await api.get('/api/v1/compliance/retention/runs')).body.total).toBe(1);
    });
  });

  describe('redaction before storage', () => {
    it("redacts the target's values in transcripts and summaries, and patterns in inbound texts", async () => {
      const { organizationId, apiKey } = await t.createOrganization();
      const api = as(apiKey);
      await api.put('/api/v1/compliance/retention', { windows: KEEP, redact_transcripts: true });
      const campaign = await t.createCampaign(apiKey, { max_attempts: 1 });
      // Values the simulator's transcript and summary happen to say.
      const [id] = await calledTargets(apiKey, campaign.id, [
        {
          phone_number: '+15550109999',
          input_data: { phrase: 'everything is confirmed', topic: 'the information', tag: 'Yes' },
        },
      ]);
      const [log] = await callLogsOf([id]);
      expect(log.transcripts.map((l: { message: string }) => l.message)).toEqual([
        'Hello, this is an automated assistant calling on behalf of your provider.',
        // "Yes" is shorter than a known value: a word, not redacted.
        'Yes, that works for me.',
        'Thank you, [REDACTED]. Goodbye.',
      ]);
      expect(log.post_call_data).toEqual({
        summary: 'The callee confirmed [REDACTED].',
        confirmed: true,
      });

      const text = await t.app.get(MessagingService).receive({
        organizationId,
        connectionId: null,
        provider: 'simulated',
        providerMessageId: `SM-${Date.now()}`,
        from: '+15550107777',
        to: '+15550000000',
        body:
          'Born 03/14/1961, SSN 123-45-6789, card 4111 1111 1111 1111, mail me at a.b@example.org ' +
          'or call (555) 010-7777 or 555-222-3333. Order 1234 5678 9012 3456 is my annual plan.',
      } as never);
      const [stored] = await t.sql(`SELECT body FROM messages WHERE id = $1`, [text!.id]);
      expect(stored.body).toBe(
        'Born [DATE], SSN [SSN], card [CARD], mail me at [EMAIL] ' +
          'or call [REDACTED] or [PHONE]. Order 1234 5678 9012 3456 is my annual plan.',
      );
    });
  });

  describe('one patient across campaigns', () => {
    it('reads and erases one person in three campaigns, and says when nobody matched', async () => {
      const { apiKey } = await t.createOrganization();
      const api = as(apiKey);
      const campaigns = [
        await t.createCampaign(apiKey, { name: 'A', max_attempts: 1 }),
        await t.createCampaign(apiKey, { name: 'B', max_attempts: 1 }),
        await t.createCampaign(apiKey, { name: 'C', max_attempts: 1 }),
      ];
      const person = patient(21);
      const ids: string[] = [];
      for (const c of campaigns) {
        // One second apart: the record lists targets by creation.
        clock.advance(1000);
        ids.push(...(await calledTargets(apiKey, c.id, [person])));
      }
      const [otherId] = await calledTargets(apiKey, campaigns[0].id, [patient(22)]);
      const listed = await api.post('/api/v1/compliance/do-not-call', {
        phone_numbers: [{ phone_number: person.phone_number, reason: 'asked by letter' }],
      });
      expect(listed.status).toBe(200);

      const read = await api.get(
        `/api/v1/patients?phone_number=${encodeURIComponent(person.phone_number)}&limit=2`,
      );
      expect(read.status).toBe(200);
      expect(read.body).toMatchObject({
        subject: { phone_number: person.phone_number },
        skip: 0,
        limit: 2,
        total_targets: 3,
      });
      expect(read.body.targets.map((x: { id: string }) => x.id)).toEqual(ids.slice(0, 2));
      expect(read.body.targets[0]).toEqual({
        id: ids[0],
        campaign_id: campaigns[0].id,
        external_id: 'MRN-21',
        phone_number: person.phone_number,
        fallback_phone_number: null,
        patient: { ...person.patient, phone_number: null, external_id: null, extra_data: null },
        input_data: person.input_data,
        output_data: expect.any(Object),
        status: 'Finished',
        category: expect.any(String),
        resolution: expect.any(String),
        created_at: expect.stringMatching(ISO),
        purged_at: null,
        purged_parts: [],
      });
      expect(read.body.call_logs.map((c: { target_id: string }) => c.target_id)).toEqual(
        ids.slice(0, 2),
      );
      expect(read.body.do_not_call).toEqual([
        expect.objectContaining({ phone_number: person.phone_number, removed_at: null }),
      ]);
      const byExternalId = await api.get('/api/v1/patients?external_id=MRN-21');
      expect(byExternalId.body.total_targets).toBe(3);
      const csv = await api.get(
        `/api/v1/patients?phone_number=${encodeURIComponent(person.phone_number)}&format=csv`,
      );
      expect(csv.headers['content-type']).toMatch(/^text\/csv/);
      const lines = csv.text.trim().split('\n');
      expect(lines[0]).toBe('kind,id,campaign_id,target_id,at,status,data');
      expect(lines.filter((l) => l.startsWith('target,'))).toHaveLength(3);
      expect(lines.filter((l) => l.startsWith('call_log,'))).toHaveLength(3);

      const both = await api.get('/api/v1/patients?phone_number=%2B15550100021&external_id=x');
      expect([both.status, both.body.detail[0].msg]).toEqual([
        422,
        'Value error, give exactly one of phone_number and external_id',
      ]);

      const erase = await api.post('/api/v1/patients/erase', {
        phone_number: person.phone_number,
        reason: 'patient request, ticket 4411',
      });
      expect(erase.status).toBe(200);
      expect(erase.body).toMatchObject({
        subject: { phone_number: person.phone_number },
        erased: true,
        detail: 'Erased the data of 3 target(s)',
        in_call_target_ids: [],
        run: {
          kind: 'erasure',
          status: 'finished',
          reason: 'patient request, ticket 4411',
          subject: { phone_number: person.phone_number },
          counts: { targets: 3, do_not_call_entries: 0 },
        },
      });
      expect([...erase.body.target_ids].sort()).toEqual([...ids].sort());
      const afterIds = await t.sql(
        `SELECT phone_number, external_id, patient, input_data, purged_parts FROM targets
          WHERE id = ANY($1)`,
        [ids],
      );
      expect(afterIds).toEqual(
        ids.map(() => ({
          phone_number: null,
          external_id: null,
          patient: null,
          input_data: {},
          purged_parts: ['finished_targets', 'input_data', 'messages', 'recordings', 'transcripts'],
        })),
      );
      expect(
        (await callLogsOf(ids)).map((l) => [l.transcripts, l.recording_urls, l.to_number]),
      ).toEqual(ids.map(() => [[], [], '']));
      // The other person is untouched; the do-not-call entry stays (a legal record).
      const [other] = await t.sql(`SELECT purged_at, patient FROM targets WHERE id = $1`, [
        otherId,
      ]);
      expect(other).toEqual({
        purged_at: null,
        patient: {
          ...patient(22).patient,
          phone_number: null,
          external_id: null,
          extra_data: null,
        },
      });
      const again = await api.get(
        `/api/v1/patients?phone_number=${encodeURIComponent(person.phone_number)}`,
      );
      expect([again.body.total_targets, again.body.do_not_call.length]).toEqual([0, 1]);

      const withList = await api.post('/api/v1/patients/erase', {
        phone_number: person.phone_number,
        reason: 'and the list entry',
        include_do_not_call: true,
      });
      expect([withList.body.erased, withList.body.run.counts.do_not_call_entries]).toEqual([
        true,
        1,
      ]);
      const nobody = await api.post('/api/v1/patients/erase', {
        external_id: 'MRN-nobody',
        reason: 'request',
      });
      expect(nobody.status).toBe(200);
      expect(nobody.body).toMatchObject({
        erased: false,
        detail: 'Nothing matched: nothing was erased',
        target_ids: [],
      });
    });
  });
});
