import { VapiEmulator } from '../support/emulators/vapi-emulator.js';
import { ProviderApp, startProviderApp } from '../support/provider-app.js';
import { waitFor } from '../support/test-app.js';

/**
 * Vapi connections end to end: calls created through the emulator's API, server messages posted by
 * the emulator to the connection's events URL with the connection's server secret.
 */
describe('Vapi provider connections', () => {
  let app: ProviderApp;
  const secrets = ['vapi-server-secret-of-acme', 'vapi-server-secret-of-globex'];
  let emulators: VapiEmulator[];
  let orgs: { apiKey: string; connectionId: string }[];

  beforeAll(async () => {
    emulators = await Promise.all(
      secrets.map((secret, i) => new VapiEmulator(`vapi-api-key-${i}`, secret).start()),
    );
    app = await startProviderApp();
    orgs = [];
    for (const [i, secret] of secrets.entries()) {
      const { apiKey } = await app.createOrganization();
      // Not the default: each campaign names it.
      const connectionId = await app.connect(apiKey, {
        type: 'vapi',
        credentials: { api_key: `vapi-api-key-${i}`, server_secret: secret },
        settings: {
          api_base_url: emulators[i].baseUrl,
          assistant_id: `asst-${i}`,
          phone_number_id: `pn-${i}`,
        },
      });
      orgs.push({ apiKey, connectionId });
    }
  });
  afterAll(async () => {
    await app?.close();
    await Promise.all((emulators ?? []).map((e) => e.stop()));
  });

  const place = (org = orgs[0]) =>
    app.placeCall(org.apiKey, { provider_connection_id: org.connectionId });

  it("places a good call through the campaign's connection; transcript, recording, analysis land in the call log and target", async () => {
    const { apiKey, connectionId } = orgs[0];
    const call = await place();
    expect(emulators[0].calls.get(call.providerCallId)!.request).toEqual({
      assistantId: 'asst-0',
      phoneNumberId: 'pn-0',
      customer: { number: expect.stringMatching(/^\+1555/) },
      assistantOverrides: {
        variableValues: { first_name: 'Ada' },
        metadata: {
          call_log_id: call.callLogId,
          target_id: call.targetId,
          campaign_id: call.campaignId,
          attempt: 1,
        },
        server: { url: `${app.baseUrl}/api/v1/telephony/${connectionId}/events` },
      },
    });
    const posted = await emulators[0].finish(call.providerCallId, {
      endedReason: 'customer-ended-call',
      durationSeconds: 95,
      transcript: [
        { role: 'bot', message: 'Hello Ada, calling about Tuesday.' },
        { role: 'user', message: 'Tuesday works.' },
      ],
      recordingUrl: 'https://storage.vapi.example/rec.wav',
      analysis: {
        summary: 'Confirmed Tuesday.',
        structuredData: { confirmed: true },
        successEvaluation: 'true',
      },
    });
    expect(posted.map((p) => p.status)).toEqual([200, 200, 200, 200]);
    expect(await app.target(apiKey, call.targetId)).toMatchObject({
      status: 'Finished',
      resolution: 'successful',
      category: 'GOOD',
      output_data: { confirmed: true },
    });
    expect(await app.callLog(call.callLogId)).toMatchObject({
      provider: connectionId,
      outcome: 'GOOD',
      ended_reason: 'customer-ended-call',
      duration_seconds: 95,
      transcripts: [
        { role: 'assistant', message: 'Hello Ada, calling about Tuesday.' },
        { role: 'user', message: 'Tuesday works.' },
      ],
      recording_urls: ['https://storage.vapi.example/rec.wav'],
      post_call_data: { summary: 'Confirmed Tuesday.' },
      qa: { success_evaluation: 'true' },
    });
  });

  it.each([
    ['voicemail', 'voicemail', 'Finished', 'VOICEMAIL'],
    ['no answer', 'customer-did-not-answer', 'Finished', 'NO_RESPONSE'],
    ['busy', 'customer-busy', 'Finished', 'NO_RESPONSE'],
    ['failed', 'twilio-failed-to-connect-call', 'Finished', 'DISCONNECTED'],
    ['a transfer to a person', 'assistant-forwarded-call', 'To review', 'HUMAN_ONLY'],
  ])('%s: the target ends with its category', async (_, endedReason, status, category) => {
    const call = await place();
    await emulators[0].finish(call.providerCallId, { endedReason });
    expect(await app.target(orgs[0].apiKey, call.targetId)).toMatchObject({ status, category });
    expect(await app.callLog(call.callLogId)).toMatchObject({
      outcome: category,
      ended_reason: endedReason,
    });
  });

  it('a call whose messages never come is read back with GET /call after its deadline', async () => {
    const call = await place();
    Object.assign(emulators[0].calls.get(call.providerCallId)!, {
      status: 'ended',
      endedReason: 'customer-ended-call',
      startedAt: '2026-01-05T10:00:00.000Z',
      endedAt: '2026-01-05T10:00:40.000Z',
      analysis: { structuredData: { confirmed: false } },
    });
    await app.expireDeadline(call.callLogId);
    const target = await waitFor(
      () => app.target(orgs[0].apiKey, call.targetId),
      (t) => t.status !== 'In Progress',
    );
    expect(target).toMatchObject({ status: 'Finished', category: 'GOOD' });
    expect(await app.callLog(call.callLogId)).toMatchObject({ duration_seconds: 40 });
  });

  it('401 and nothing changes for a wrong server secret; 422 for a body that is not JSON', async () => {
    const call = await place();
    const forged = await emulators[0].postEndOfCallReport(call.providerCallId, {
      secret: 'not-the-secret',
    });
    expect(forged.status).toBe(401);
    const malformed = await fetch(
      `${app.baseUrl}/api/v1/telephony/${orgs[0].connectionId}/events`,
      {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-Vapi-Secret': secrets[0] },
        body: '{"message": ',
      },
    );
    expect(malformed.status).toBe(422);
    expect(await app.target(orgs[0].apiKey, call.targetId)).toMatchObject({
      status: 'In Progress',
    });
    expect(await app.storedEvents(call.callLogId)).toBe(0);
  });

  it('an absurd timestamp, unreadable start and end, or a javascript: recording URL is never a 500', async () => {
    const call = await place();
    const post = async (message: object) => {
      const res = await fetch(`${app.baseUrl}/api/v1/telephony/${orgs[0].connectionId}/events`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-Vapi-Secret': secrets[0] },
        body: JSON.stringify({ message }),
      });
      return [res.status, await res.json()];
    };
    const vapiCall = {
      id: call.providerCallId,
      assistantOverrides: { metadata: { call_log_id: call.callLogId } },
    };
    const before = Date.now();
    expect(
      await post({ type: 'status-update', status: 'in-progress', timestamp: 1e20, call: vapiCall }),
    ).toEqual([200, { status: 'ok' }]);
    // Not a real date: the event is recorded at the time it was received.
    expect(await app.eventsTimedSince(call.callLogId, before)).toEqual([true]);

    expect(
      await post({
        type: 'end-of-call-report',
        endedReason: 'customer-ended-call',
        timestamp: -1e20,
        startedAt: 'yesterday',
        endedAt: '+275760-09-13T00:00:00.000Z',
        artifact: {
          recordingUrl: 'javascript:alert(document.cookie)',
          stereoRecordingUrl: 'https://storage.vapi.ai/stereo.wav',
        },
        call: vapiCall,
      }),
    ).toEqual([200, { status: 'ok' }]);
    expect(await app.callLog(call.callLogId)).toMatchObject({
      duration_seconds: 0,
      recording_urls: ['https://storage.vapi.ai/stereo.wav'],
    });
    expect(await app.target(orgs[0].apiKey, call.targetId)).toMatchObject({ status: 'Finished' });
  });

  it('duplicated and reordered messages change nothing after the report', async () => {
    const call = await place();
    await emulators[0].finish(call.providerCallId, { endedReason: 'customer-ended-call' });
    const finished = await app.target(orgs[0].apiKey, call.targetId);
    const late = [
      await emulators[0].postEndOfCallReport(call.providerCallId),
      await emulators[0].postStatus(call.providerCallId, 'in-progress'),
    ];
    expect(late.map((p) => p.status)).toEqual([200, 200]);
    expect(await app.target(orgs[0].apiKey, call.targetId)).toEqual(finished);
    expect(await app.storedEvents(call.callLogId)).toBe(2);
  });

  it("one organization's server secret cannot touch another's calls", async () => {
    const [a, b] = orgs;
    const call = await place(b);
    const report = JSON.stringify({
      message: {
        type: 'end-of-call-report',
        endedReason: 'customer-busy',
        call: {
          id: call.providerCallId,
          assistantOverrides: { metadata: { call_log_id: call.callLogId } },
        },
      },
    });
    const post = async (connectionId: string) =>
      (
        await fetch(`${app.baseUrl}/api/v1/telephony/${connectionId}/events`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', 'X-Vapi-Secret': secrets[0] },
          body: report,
        })
      ).status;
    expect(await post(b.connectionId)).toBe(401);
    expect(await post(a.connectionId)).toBe(404);
    expect(await app.target(b.apiKey, call.targetId)).toMatchObject({ status: 'In Progress' });
    expect(await app.storedEvents(call.callLogId)).toBe(0);

    await emulators[1].finish(call.providerCallId, { endedReason: 'customer-ended-call' });
    expect(await app.target(b.apiKey, call.targetId)).toMatchObject({ status: 'Finished' });
  });
});
