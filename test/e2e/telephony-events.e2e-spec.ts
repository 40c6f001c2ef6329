import { createTestApp, TestApp, waitFor } from '../support/test-app.js';
import { LocalVoiceAgent } from '../support/voice-agent.js';
import { startWorkerProcess, WorkerProcess } from '../support/worker-process.js';

const FINAL = ['Finished', 'Failed', 'To review'];

/** The generic voice-agent adapter (CALL_PROVIDER=http) against a local agent, signed both ways. */
describe('telephony events (CALL_PROVIDER=http)', () => {
  let t: TestApp;
  let agent: LocalVoiceAgent;

  beforeAll(async () => {
    agent = await LocalVoiceAgent.start();
    t = await createTestApp({
      env: { CALL_PROVIDER: 'http', AGENT_URL: agent.url, AGENT_SECRET: agent.secret },
    });
  });
  afterAll(async () => {
    await t?.close();
    await agent?.close();
  });
  beforeEach(() => {
    agent.mode = 'answer';
  });

  let n = 0;
  /** A campaign with one target, triggered; resolves once the agent accepted the call. */
  async function placedCall(campaign: Record<string, unknown> = {}) {
    const { apiKey } = await t.createOrganization();
    const c = await t.createCampaign(apiKey, { max_attempts: 1, ...campaign });
    const res = await t
      .http()
      .post(`/api/v1/campaigns/${c.id}/targets`)
      .set('X-API-Key', apiKey)
      .send({
        targets: [{ phone_number: `+1555${String(2000000 + ++n)}`, input_data: { n } }],
        launch: true,
      });
    const targetId = res.body.target_ids[0] as string;
    const [log] = await waitFor(
      () =>
        t.sql(`SELECT * FROM call_logs WHERE target_id = $1 AND provider_call_id IS NOT NULL`, [
          targetId,
        ]),
      (rows) => rows.length === 1,
    );
    return { apiKey, campaignId: c.id as string, targetId, callLogId: Number(log.id), log };
  }

  const post = (body: string, headers: Record<string, string>, connection = 'http') =>
    t.http().post(`/api/v1/telephony/${connection}/events`).set(headers).send(body);
  const send = (event: Record<string, unknown>, at?: Date) => {
    const signed = agent.signEvent(event, at);
    return post(signed.body, signed.headers);
  };
  const target = async (apiKey: string, id: string) =>
    (await t.http().get(`/api/v1/targets/${id}`).set('X-API-Key', apiKey)).body;
  const ended = (callLogId: number, extra: Record<string, unknown> = {}) => ({
    type: 'call.ended',
    call_id: agent.callIdOf(callLogId),
    call_log_id: callLogId,
    outcome: 'GOOD',
    ended_reason: 'agent-hung-up',
    duration_seconds: 42,
    transcript: [{ role: 'assistant', message: 'Hello' }],
    recording_urls: ['https://agent.example/rec/1.wav'],
    output_data: { confirmed: true },
    summary: 'Confirmed.',
    ...extra,
  });

  it('places a signed call request, keeps the call In Progress, and ends it by signed events', async () => {
    const { apiKey, targetId, callLogId, log } = await placedCall();
    const request = agent.requests.find((r) => r.call_log_id === callLogId)!;
    expect(request).toEqual({
      type: 'call.requested',
      call_log_id: callLogId,
      target_id: targetId,
      campaign_id: log.campaign_id,
      campaign_type: 'patient',
      attempt: 1,
      to: log.to_number,
      from: 'DeprecatedLocalTest',
      input_data: { n },
      events_url: 'http://localhost:3000/api/v1/telephony/http/events',
    });
    expect(log).toMatchObject({
      provider: 'http',
      provider_call_id: agent.callIdOf(callLogId),
      ended_at: null,
    });
    expect(await target(apiKey, targetId)).toMatchObject({ status: 'In Progress' });

    const started = await send({
      type: 'call.started',
      call_id: agent.callIdOf(callLogId),
      call_log_id: callLogId,
    });
    expect(started.status).toBe(200);
    expect(started.body).toEqual({ status: 'ok' });
    expect(await target(apiKey, targetId)).toMatchObject({ status: 'In Progress' });

    const end = await send(ended(callLogId, { subcategory: 'CONFIRMED' }));
    expect([end.status, end.body]).toEqual([200, { status: 'ok' }]);
    expect(await target(apiKey, targetId)).toMatchObject({
      status: 'Finished',
      resolution: 'successful',
      subcategory: 'CONFIRMED',
      output_data: { confirmed: true },
      execution_minutes: 1,
    });
    const [closed] = await t.sql(`SELECT * FROM call_logs WHERE id = $1`, [callLogId]);
    expect(closed).toMatchObject({
      outcome: 'GOOD',
      ended_reason: 'agent-hung-up',
      duration_seconds: 42,
      transcripts: [{ role: 'assistant', message: 'Hello' }],
      recording_urls: ['https://agent.example/rec/1.wav'],
      post_call_data: { summary: 'Confirmed.' },
      deadline_at: null,
    });
  });

  it("an agent's DNC_REQUESTED finishes the target and lists the number for the organization", async () => {
    const { apiKey, targetId, callLogId, log } = await placedCall();
    const end = await send(ended(callLogId, { outcome: 'DNC_REQUESTED', output_data: {} }));
    expect([end.status, end.body]).toEqual([200, { status: 'ok' }]);
    expect(await target(apiKey, targetId)).toMatchObject({
      status: 'Finished',
      resolution: 'unsuccessful',
      category: 'DNC_REQUESTED',
      outcome: 'Asked not to be called again',
    });
    const listed = await t.http().get('/api/v1/compliance/do-not-call').set('X-API-Key', apiKey);
    expect(listed.body).toEqual({
      phone_numbers: [
        {
          phone_number: log.to_number,
          reason: 'Asked not to be called again during a call',
          source: {
            type: 'call',
            campaign_id: log.campaign_id,
            target_id: targetId,
            call_log_id: callLogId,
          },
          created_at: expect.any(String),
          removed: null,
        },
      ],
      total: 1,
    });
  });

  it('401 and no change for a forged, stale or missing signature', async () => {
    const { apiKey, targetId, callLogId } = await placedCall();
    const event = ended(callLogId);
    const forged = agent.signEvent(
      event,
      new Date(),
      'whsec_' + Buffer.from('not-it').toString('base64'),
    );
    const stale = agent.signEvent(event, new Date(Date.now() - 10 * 60_000));
    const tampered = agent.signEvent(event);
    for (const [body, headers] of [
      [forged.body, forged.headers],
      [stale.body, stale.headers],
      [tampered.body.replace('GOOD', 'VOICEMAIL'), tampered.headers],
      [forged.body, { 'content-type': 'application/json' }],
    ] as const) {
      const res = await post(body, headers);
      expect([res.status, res.body]).toEqual([401, { detail: 'Invalid or stale signature' }]);
    }
    expect(await target(apiKey, targetId)).toMatchObject({ status: 'In Progress' });
    expect(await t.sql(`SELECT * FROM call_events WHERE call_log_id = $1`, [callLogId])).toEqual(
      [],
    );
  });

  it('a duplicated, out-of-order stream applies the outcome once and never moves back', async () => {
    const { apiKey, targetId, callLogId } = await placedCall({ max_attempts: 3 });
    const final = ended(callLogId, { outcome: 'NO_RESPONSE', duration_seconds: 20 });
    // ended before started, twice; then a different final status; then the late started.
    for (const body of [final, final]) expect((await send(body)).status).toBe(200);
    const retrying = await target(apiKey, targetId);
    expect(retrying).toMatchObject({ status: 'Scheduled', retries: 0 });
    const other = agent.signEvent(ended(callLogId, { outcome: 'GOOD' }));
    expect((await post(other.body, other.headers)).status).toBe(200);
    const late = await send({ type: 'call.started', call_id: agent.callIdOf(callLogId) });
    expect(late.status).toBe(200);

    const after = await target(apiKey, targetId);
    expect(after).toMatchObject({ outcome: retrying.outcome, category: 'NO_RESPONSE' });
    expect(['Scheduled', 'In Progress']).toContain(after.status);
    const [log] = await t.sql(`SELECT outcome, duration_seconds FROM call_logs WHERE id = $1`, [
      callLogId,
    ]);
    expect(log).toEqual({ outcome: 'NO_RESPONSE', duration_seconds: 20 });
    const events = await t.sql(
      `SELECT key, kind FROM call_events WHERE call_log_id = $1 ORDER BY received_at`,
      [callLogId],
    );
    expect(events).toEqual([
      { key: `${agent.callIdOf(callLogId)}:ended`, kind: 'ended' },
      { key: `${agent.callIdOf(callLogId)}:started`, kind: 'started' },
    ]);
    const finished = await t.sql(
      `SELECT count(*)::int AS n FROM webhook_events WHERE target_id = $1`,
      [targetId],
    );
    expect(finished[0].n).toBeLessThanOrEqual(1);
  });

  it('404 for an unknown connection and for an event naming no call; 422 for a signed non-event', async () => {
    const unknownConnection = await post('{}', { 'content-type': 'application/json' }, 'twilio');
    expect([unknownConnection.status, unknownConnection.body]).toEqual([
      404,
      { detail: "Unknown telephony connection 'twilio'" },
    ]);
    const unknownCall = await send({ type: 'call.ended', call_id: 'nobody', outcome: 'GOOD' });
    expect([unknownCall.status, unknownCall.body]).toEqual([404, { detail: 'Call not found' }]);
    expect(await t.sql(`SELECT * FROM call_events WHERE key LIKE 'nobody%'`)).toEqual([]);
    const bad = await send({ type: 'call.exploded', call_id: 'x' });
    expect(bad.status).toBe(422);
  });

  it('accepts application/x-www-form-urlencoded events', async () => {
    const { apiKey, targetId, callLogId } = await placedCall();
    const form = new URLSearchParams({
      type: 'call.ended',
      call_id: agent.callIdOf(callLogId),
      outcome: 'VOICEMAIL',
      duration_seconds: '9',
    }).toString();
    const signed = agent.sign(form, 'application/x-www-form-urlencoded');
    const res = await post(signed.body, signed.headers);
    expect([res.status, res.body]).toEqual([200, { status: 'ok' }]);
    expect(await target(apiKey, targetId)).toMatchObject({
      status: 'Finished',
      category: 'VOICEMAIL',
    });
  });

  it('a placement the agent refuses ends the attempt as a technical failure', async () => {
    agent.mode = 'fail';
    const { apiKey } = await t.createOrganization();
    const c = await t.createCampaign(apiKey, { max_attempts: 1 });
    const res = await t
      .http()
      .post(`/api/v1/campaigns/${c.id}/targets`)
      .set('X-API-Key', apiKey)
      .send({ targets: [{ phone_number: '+15553000001' }], launch: true });
    const [id] = res.body.target_ids;
    const final = await waitFor(
      () => target(apiKey, id),
      (x) => FINAL.includes(x.status),
    );
    expect(final).toMatchObject({ status: 'Failed', retries: 0 });
    expect(
      await t.sql(`SELECT ended_reason, provider_call_id FROM call_logs WHERE target_id = $1`, [
        id,
      ]),
    ).toEqual([{ ended_reason: 'provider-error', provider_call_id: null }]);
  });

  it('past its deadline a call is asked of the agent and its answer applied; else To review', async () => {
    const answered = await placedCall();
    const unknown = await placedCall();
    agent.calls.set(
      agent.callIdOf(answered.callLogId),
      ended(answered.callLogId, { outcome: 'HUMAN_ONLY' }),
    );
    await t.sql(
      `UPDATE call_logs SET deadline_at = now() - interval '1 second' WHERE id = ANY($1)`,
      [[answered.callLogId, unknown.callLogId]],
    );
    const [a, b] = await waitFor(
      () =>
        Promise.all([
          target(answered.apiKey, answered.targetId),
          target(unknown.apiKey, unknown.targetId),
        ]),
      (xs) => xs.every((x) => FINAL.includes(x.status)),
    );
    expect(a).toMatchObject({ status: 'To review', category: 'HUMAN_ONLY' });
    expect(b).toMatchObject({ status: 'To review', outcome: 'Call outcome unknown' });
    expect(
      await t.sql(`SELECT ended_reason FROM call_logs WHERE id = $1`, [unknown.callLogId]),
    ).toEqual([{ ended_reason: 'deadline-expired' }]);
  });
});

/** Placing and receiving in different processes, and a worker killed while placing. */
describe('telephony events across processes (CALL_PROVIDER=http)', () => {
  let t: TestApp;
  let agent: LocalVoiceAgent;
  const workers: WorkerProcess[] = [];

  beforeAll(async () => {
    agent = await LocalVoiceAgent.start();
    t = await createTestApp({
      env: {
        ROLE: 'api',
        CALL_PROVIDER: 'http',
        AGENT_URL: agent.url,
        AGENT_SECRET: agent.secret,
        CALL_PLACING_DEADLINE_SECONDS: '2',
      },
    });
  });
  afterAll(async () => {
    await Promise.all(workers.map((w) => w.kill()));
    await t?.close();
    await agent?.close();
  });

  async function launch(count: number) {
    const { apiKey } = await t.createOrganization();
    const c = await t.createCampaign(apiKey, { max_attempts: 3, retry_delay_minutes: 0 });
    const res = await t
      .http()
      .post(`/api/v1/campaigns/${c.id}/targets`)
      .set('X-API-Key', apiKey)
      .send({
        targets: Array.from({ length: count }, (_, i) => ({
          phone_number: `+1555${String(4000000 + i + Math.floor(Math.random() * 900000))}`,
        })),
        launch: true,
      });
    return { apiKey, campaignId: c.id as string, ids: res.body.target_ids as string[] };
  }

  it('a call placed by a worker process is ended by an event posted to another (API) process', async () => {
    const worker = startWorkerProcess(t);
    workers.push(worker);
    await worker.ready;
    const { apiKey, ids } = await launch(1);
    const [log] = await waitFor(
      () =>
        t.sql(`SELECT id FROM call_logs WHERE target_id = $1 AND provider_call_id IS NOT NULL`, [
          ids[0],
        ]),
      (rows) => rows.length === 1,
    );
    await worker.stop();
    const callLogId = Number(log.id);
    const signed = agent.signEvent({
      type: 'call.ended',
      call_id: agent.callIdOf(callLogId),
      outcome: 'GOOD',
      duration_seconds: 30,
    });
    const res = await t
      .http()
      .post('/api/v1/telephony/http/events')
      .set(signed.headers)
      .send(signed.body);
    expect([res.status, res.body]).toEqual([200, { status: 'ok' }]);
    const read = await t.http().get(`/api/v1/targets/${ids[0]}`).set('X-API-Key', apiKey);
    expect(read.body).toMatchObject({ status: 'Finished' });
  });

  it('a worker killed between claim and provider acceptance: never dialled again, ends To review', async () => {
    agent.mode = 'hang';
    const before = agent.requests.length;
    const a = startWorkerProcess(t);
    workers.push(a);
    await a.ready;
    const { apiKey, ids } = await launch(3);
    await agent.waitForRequests(before + 3);
    await a.kill();
    agent.mode = 'answer';
    const b = startWorkerProcess(t);
    workers.push(b);
    await b.ready;
    const finals = await waitFor(
      () =>
        Promise.all(
          ids.map(
            async (id) =>
              (await t.http().get(`/api/v1/targets/${id}`).set('X-API-Key', apiKey)).body,
          ),
        ),
      (xs) => xs.every((x) => FINAL.includes(x.status)),
      30_000,
    );
    expect(finals.map((x) => [x.status, x.retries])).toEqual(ids.map(() => ['To review', 0]));
    const logs = await t.sql(
      `SELECT target_id, ended_reason, provider_call_id FROM call_logs WHERE target_id = ANY($1)`,
      [ids],
    );
    expect(logs.map((l) => [l.ended_reason, l.provider_call_id])).toEqual(
      ids.map(() => ['worker-lost', null]),
    );
    // Each target's request reached the agent once: nobody dialled it again.
    const requested = agent.requests.slice(before).map((r) => r.target_id);
    expect(requested.sort()).toEqual([...ids].sort());
    await b.stop();
  });
});
