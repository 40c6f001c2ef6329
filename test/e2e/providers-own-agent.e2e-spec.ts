import { ProviderApp, startProviderApp } from '../support/provider-app.js';
import { waitFor } from '../support/test-app.js';
import { LocalVoiceAgent } from '../support/voice-agent.js';

/**
 * The two connection types the engine serves itself: an organization's own voice agent (`http`,
 * named by its connection id, with its own secret) and the simulator, next to the service-wide
 * CALL_PROVIDER (the simulator here) for organizations without a connection.
 */
describe('own-agent and simulated connections', () => {
  let app: ProviderApp;
  let agents: LocalVoiceAgent[];

  beforeAll(async () => {
    agents = [await LocalVoiceAgent.start(), await LocalVoiceAgent.start()];
    app = await startProviderApp();
  });
  afterAll(async () => {
    await app?.close();
    await Promise.all((agents ?? []).map((a) => a.close()));
  });

  const ownAgent = async (agent: LocalVoiceAgent) => {
    const { apiKey } = await app.createOrganization();
    const connectionId = await app.connect(apiKey, {
      type: 'http',
      credentials: { secret: agent.secret },
      settings: { api_base_url: agent.url },
      is_default: true,
    });
    return { apiKey, connectionId };
  };

  it("places through the organization's own agent, whose events are checked with its own secret", async () => {
    const a = await ownAgent(agents[0]);
    const b = await ownAgent(agents[1]);
    const call = await app.placeCall(a.apiKey);
    const [request] = await agents[0].waitForRequests(1);
    expect(request).toMatchObject({
      call_log_id: call.callLogId,
      events_url: `${app.baseUrl}/api/v1/telephony/${a.connectionId}/events`,
    });
    expect(await app.callLog(call.callLogId)).toMatchObject({ provider: a.connectionId });

    const ended = {
      type: 'call.ended',
      call_id: call.providerCallId,
      call_log_id: call.callLogId,
      outcome: 'GOOD',
      ended_reason: 'agent-hung-up',
      duration_seconds: 12,
    };
    const post = (
      connectionId: string,
      signed: { body: string; headers: Record<string, string> },
    ) =>
      app
        .http()
        .post(`/api/v1/telephony/${connectionId}/events`)
        .set(signed.headers)
        .send(signed.body);
    // B's agent signs for A's call: wrong secret on A's URL, unknown call on B's.
    expect((await post(a.connectionId, agents[1].signEvent(ended))).status).toBe(401);
    expect((await post(b.connectionId, agents[1].signEvent(ended))).status).toBe(404);
    expect(await app.target(a.apiKey, call.targetId)).toMatchObject({ status: 'In Progress' });

    expect((await post(a.connectionId, agents[0].signEvent(ended))).status).toBe(200);
    expect(await app.target(a.apiKey, call.targetId)).toMatchObject({
      status: 'Finished',
      category: 'GOOD',
    });
  });

  it('a simulated connection and no connection at all both place through the simulator', async () => {
    const { apiKey } = await app.createOrganization();
    const simulated = await app.connect(apiKey, { type: 'simulated' });
    // The simulator picks the outcome by the last four digits: these are good calls.
    const named = await app.placeCall(
      apiKey,
      { provider_connection_id: simulated },
      { phone_number: '+15553011234' },
    );
    const { apiKey: bareKey } = await app.createOrganization();
    const bare = await app.placeCall(bareKey, {}, { phone_number: '+15553015678' });
    for (const [key, call] of [
      [apiKey, named],
      [bareKey, bare],
    ] as const) {
      const target = await waitFor(
        () => app.target(key, call.targetId),
        (t) => t.status === 'Finished',
      );
      expect(target).toMatchObject({ category: 'GOOD' });
      expect(await app.callLog(call.callLogId)).toMatchObject({ provider: 'simulated' });
    }
  });
});
