import Retell from 'retell-sdk';
import { RetellEmulator } from '../support/emulators/retell-emulator.js';
import { ProviderApp, startProviderApp } from '../support/provider-app.js';
import { waitFor } from '../support/test-app.js';

/**
 * Retell connections end to end: phone calls created through the emulator's API, webhooks posted
 * to the connection's events URL signed with the connection's API key (`x-retell-signature`).
 */
describe('Retell provider connections', () => {
  let app: ProviderApp;
  const apiKeys = ['key_retell_of_acme', 'key_retell_of_globex'];
  let emulators: RetellEmulator[];
  let orgs: { apiKey: string; connectionId: string }[];
  let endedAtCallEnded: string;

  beforeAll(async () => {
    emulators = await Promise.all(apiKeys.map((key) => new RetellEmulator(key).start()));
    app = await startProviderApp();
    orgs = [];
    for (const [i, key] of apiKeys.entries()) {
      const { apiKey } = await app.createOrganization();
      const connectionId = await app.connect(apiKey, {
        type: 'retell',
        credentials: { api_key: key },
        settings: { api_base_url: emulators[i].baseUrl, agent_id: `agent_${i}` },
        is_default: true,
      });
      orgs.push({ apiKey, connectionId });
    }
    // Post-call analysis off: the outcome is final at call_ended.
    endedAtCallEnded = await app.connect(orgs[0].apiKey, {
      type: 'retell',
      credentials: { api_key: apiKeys[0] },
      settings: {
        api_base_url: emulators[0].baseUrl,
        agent_id: 'agent_0',
        final_event: 'call_ended',
      },
    });
  });
  afterAll(async () => {
    await app?.close();
    await Promise.all((emulators ?? []).map((e) => e.stop()));
  });

  const place = (org = orgs[0]) => app.placeCall(org.apiKey);

  it('places a good call; the outcome is final at call_analyzed, with its custom analysis data', async () => {
    const { apiKey, connectionId } = orgs[0];
    const call = await place();
    expect(emulators[0].calls.get(call.providerCallId)!.request).toEqual({
      from_number: '+15550009999',
      to_number: expect.stringMatching(/^\+1555/),
      override_agent_id: 'agent_0',
      agent_override: {
        agent: { webhook_url: `${app.baseUrl}/api/v1/telephony/${connectionId}/events` },
      },
      retell_llm_dynamic_variables: { first_name: 'Ada' },
      metadata: {
        call_log_id: call.callLogId,
        target_id: call.targetId,
        campaign_id: call.campaignId,
        attempt: 1,
      },
    });
    const posted = await emulators[0].finish(call.providerCallId, {
      disconnectionReason: 'agent_hangup',
      durationSeconds: 50,
      transcript: [
        { role: 'agent', content: 'Hello Ada.' },
        { role: 'user', content: 'Hi.' },
      ],
      recordingUrl: 'https://retell.example/rec.wav',
      analysis: { call_summary: 'Greeted.', custom_analysis_data: { confirmed: true } },
    });
    expect(posted.map((p) => p.status)).toEqual([200, 200, 200]);
    expect(await app.target(apiKey, call.targetId)).toMatchObject({
      status: 'Finished',
      resolution: 'successful',
      category: 'GOOD',
      output_data: { confirmed: true },
    });
    expect(await app.callLog(call.callLogId)).toMatchObject({
      provider: connectionId,
      outcome: 'GOOD',
      ended_reason: 'agent_hangup',
      duration_seconds: 50,
      recording_urls: ['https://retell.example/rec.wav'],
    });
  });

  it('with analysis off, the outcome is final at call_ended', async () => {
    const call = await app.placeCall(orgs[0].apiKey, { provider_connection_id: endedAtCallEnded });
    await emulators[0].finish(call.providerCallId, { disconnectionReason: 'user_hangup' }, false);
    expect(await app.target(orgs[0].apiKey, call.targetId)).toMatchObject({
      status: 'Finished',
      category: 'GOOD',
    });
    expect(await app.callLog(call.callLogId)).toMatchObject({ provider: endedAtCallEnded });
  });

  it.each([
    ['voicemail', 'voicemail_reached', 'Finished', 'VOICEMAIL'],
    ['no answer', 'dial_no_answer', 'Finished', 'NO_RESPONSE'],
    ['busy', 'dial_busy', 'Finished', 'NO_RESPONSE'],
    ['failed', 'dial_failed', 'Finished', 'DISCONNECTED'],
    ['a transfer to a person', 'call_transfer', 'To review', 'HUMAN_ONLY'],
  ])('%s: the target ends with its category', async (_, disconnectionReason, status, category) => {
    const call = await place();
    await emulators[0].finish(call.providerCallId, { disconnectionReason });
    expect(await app.target(orgs[0].apiKey, call.targetId)).toMatchObject({ status, category });
    expect(await app.callLog(call.callLogId)).toMatchObject({
      outcome: category,
      ended_reason: disconnectionReason,
    });
  });

  it('a call whose webhooks never come is read back with get-call after its deadline', async () => {
    const call = await place();
    Object.assign(emulators[0].calls.get(call.providerCallId)!, {
      call_status: 'ended',
      start_timestamp: Date.now() - 20_000,
      end_timestamp: Date.now(),
      disconnection_reason: 'user_hangup',
      call_analysis: { custom_analysis_data: { confirmed: false } },
    });
    await app.expireDeadline(call.callLogId);
    const target = await waitFor(
      () => app.target(orgs[0].apiKey, call.targetId),
      (t) => t.status !== 'In Progress',
    );
    expect(target).toMatchObject({ status: 'Finished', category: 'GOOD' });
  });

  it('401 and nothing changes for a forged signature', async () => {
    const call = await place();
    await emulators[0].postEvent(call.providerCallId, 'call_started');
    const forged = await emulators[0].postEvent(call.providerCallId, 'call_analyzed', {
      apiKey: 'key_not_it',
    });
    expect(forged.status).toBe(401);
    const garbled = await fetch(`${app.baseUrl}/api/v1/telephony/${orgs[0].connectionId}/events`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'x-retell-signature': 'garbage' },
      body: '{}',
    });
    expect(garbled.status).toBe(401);
    expect(await app.target(orgs[0].apiKey, call.targetId)).toMatchObject({
      status: 'In Progress',
    });
    expect(await app.storedEvents(call.callLogId)).toBe(1);
  });

  it('duplicated and reordered webhooks change nothing after the final one', async () => {
    const call = await place();
    await emulators[0].finish(call.providerCallId, { disconnectionReason: 'user_hangup' });
    const finished = await app.target(orgs[0].apiKey, call.targetId);
    const late = [
      await emulators[0].postEvent(call.providerCallId, 'call_analyzed'),
      await emulators[0].postEvent(call.providerCallId, 'call_started'),
      await emulators[0].postEvent(call.providerCallId, 'call_ended'),
    ];
    expect(late.map((p) => p.status)).toEqual([200, 200, 200]);
    expect(await app.target(orgs[0].apiKey, call.targetId)).toEqual(finished);
    expect(await app.callLog(call.callLogId)).toMatchObject({ outcome: 'GOOD' });
  });

  it('an absurd timestamp or duration, a NUL or a javascript: recording URL is never a 500', async () => {
    const call = await place();
    const post = async (payload: object) => {
      const body = JSON.stringify(payload);
      const res = await fetch(`${app.baseUrl}/api/v1/telephony/${orgs[0].connectionId}/events`, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          'x-retell-signature': await Retell.sign(body, apiKeys[0]),
        },
        body,
      });
      return [res.status, await res.json()];
    };
    const known = { call_id: call.providerCallId, metadata: { call_log_id: call.callLogId } };
    const before = Date.now();
    expect(
      await post({ event: 'call_started', call: { ...known, start_timestamp: 1e20 } }),
    ).toEqual([200, { status: 'ok' }]);
    // Not a real date: the event is recorded at the time it was received.
    expect(await app.eventsTimedSince(call.callLogId, before)).toEqual([true]);

    expect(
      await post({
        event: 'call_analyzed',
        call: {
          ...known,
          call_status: 'ended',
          disconnection_reason: 'user_hangup',
          start_timestamp: -8.6e15,
          end_timestamp: 1e20,
          duration_ms: 1e300,
          recording_url: 'javascript:alert(document.cookie)',
          transcript_object: [{ role: 'agent', content: 'hi\u0000there' }],
          call_analysis: { custom_analysis_data: { note: 'a\u0000b' } },
        },
      }),
    ).toEqual([200, { status: 'ok' }]);
    const log = await app.callLog(call.callLogId);
    expect(log).toMatchObject({ outcome: 'GOOD', recording_urls: [], duration_seconds: 604800 });
    expect(await app.target(orgs[0].apiKey, call.targetId)).toMatchObject({ status: 'Finished' });
  });

  it("one organization's Retell key cannot touch another's calls", async () => {
    const [a, b] = orgs;
    const call = await place(b);
    const body = JSON.stringify({
      event: 'call_analyzed',
      call: {
        call_id: call.providerCallId,
        call_status: 'ended',
        disconnection_reason: 'dial_busy',
        metadata: { call_log_id: call.callLogId },
        call_analysis: {},
      },
    });
    const signature = await Retell.sign(body, apiKeys[0]);
    const post = async (connectionId: string) =>
      (
        await fetch(`${app.baseUrl}/api/v1/telephony/${connectionId}/events`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', 'x-retell-signature': signature },
          body,
        })
      ).status;
    expect(await post(b.connectionId)).toBe(401);
    expect(await post(a.connectionId)).toBe(404);
    expect(await app.target(b.apiKey, call.targetId)).toMatchObject({ status: 'In Progress' });
    expect(await app.storedEvents(call.callLogId)).toBe(0);

    await emulators[1].finish(call.providerCallId, { disconnectionReason: 'user_hangup' });
    expect(await app.target(b.apiKey, call.targetId)).toMatchObject({ status: 'Finished' });
  });
});
