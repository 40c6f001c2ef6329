import { SecretBox } from '../../src/common/secrets/secret-box.js';
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

  /**
   * A connection stored before the API checked `http` secrets, or whose credentials no longer open:
   * its campaign's due calls are held a minute at a time with the reason (not tried every round), and
   * its events route answers 409, never a 500.
   */
  describe('a connection that cannot be used', () => {
    const HOLD_WORDS = (connectionId: string, problem: string) =>
      new RegExp(
        `^provider connection ${connectionId} cannot be used: ${problem}; calls wait, next try \\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2} UTC$`,
      );

    async function heldCampaign(spoil: (connectionId: string) => Promise<void>) {
      const { apiKey } = await app.createOrganization();
      const connectionId = await app.connect(apiKey, {
        type: 'http',
        credentials: { secret: agents[0].secret },
        settings: { api_base_url: agents[0].url },
      });
      await spoil(connectionId);
      const campaign = await app.createCampaign(apiKey, {
        max_attempts: 1,
        caller_id: '+15550009999',
        provider_connection_id: connectionId,
      });
      const before = Date.now();
      const added = await app
        .http()
        .post(`/api/v1/campaigns/${campaign.id}/targets`)
        .set('X-API-Key', apiKey)
        .send({
          targets: [{ phone_number: '+15553100001' }, { phone_number: '+15553100002' }],
          launch: true,
        });
      expect(added.status).toBe(200);
      const held = await Promise.all(
        (added.body.target_ids as string[]).map((id) =>
          waitFor(
            () => app.target(apiKey, id),
            (x) => x.waiting_reason?.startsWith(`provider connection ${connectionId}`) ?? false,
          ),
        ),
      );
      for (const target of held) {
        expect(target.status).toBe('Scheduled');
        // Not due again for a minute: no dispatcher round takes it meanwhile.
        expect(Date.parse(target.scheduled_time)).toBeGreaterThanOrEqual(before + 59_000);
      }
      const stats = await app
        .http()
        .get(`/api/v1/campaigns/${campaign.id}/stats`)
        .set('X-API-Key', apiKey);
      expect(stats.body.held_by_rule).toEqual({ provider_connection: 2 });
      expect(
        await app.sql(`SELECT count(*)::int AS calls FROM call_logs WHERE campaign_id = $1`, [
          campaign.id,
        ]),
      ).toEqual([{ calls: 0 }]);
      // Held once each, not once a round.
      const events = await app.sql<{ target_id: string; reason: string }>(
        `SELECT target_id, reason FROM target_events WHERE campaign_id = $1 AND kind <> 'added'`,
        [campaign.id],
      );
      expect(events.map((e) => e.target_id).sort()).toEqual(held.map((x) => x.id as string).sort());
      const refused = await app
        .http()
        .post(`/api/v1/telephony/${connectionId}/events`)
        .set('Content-Type', 'application/json')
        .send({ type: 'call.ended', call_log_id: 1, outcome: 'GOOD' });
      return { connectionId, held, refused };
    }

    it('a stored http secret that is not a Standard Webhooks secret', async () => {
      const { connectionId, held, refused } = await heldCampaign(async (connectionId) => {
        const sealed = app.app
          .get(SecretBox)
          .seal(JSON.stringify({ secret: 'agent-shared-secret' }), connectionId);
        await app.sql(
          `UPDATE provider_connections SET credentials_ciphertext = $2, credentials_key_id = $3
            WHERE id = $1`,
          [connectionId, sealed.ciphertext, sealed.keyId],
        );
      });
      const problem =
        'its secret must be a Standard Webhooks secret: whsec_ followed by base64 \\(or the base64 alone\\), e\\.g\\. whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw; PATCH its credentials';
      for (const target of held) {
        expect(target.waiting_reason).toMatch(HOLD_WORDS(connectionId, problem));
      }
      expect([refused.status, refused.body.detail]).toEqual([
        409,
        expect.stringMatching(
          new RegExp(`^provider connection ${connectionId} cannot be used: its secret must be`),
        ),
      ]);
    });

    it('stored credentials that no longer open (sealed with another key)', async () => {
      const { connectionId, held, refused } = await heldCampaign(async (connectionId) => {
        await app.sql(
          `UPDATE provider_connections SET credentials_key_id = '0000000000000000' WHERE id = $1`,
          [connectionId],
        );
      });
      for (const target of held) {
        expect(target.waiting_reason).toMatch(
          HOLD_WORDS(connectionId, 'Stored credentials cannot be read: .+ \\(see SECRETS_KEY\\)'),
        );
      }
      expect(refused.status).toBe(409);
      expect(refused.body.detail).toMatch(
        new RegExp(
          `^provider connection ${connectionId} cannot be used: Stored credentials cannot be read: .+ \\(see SECRETS_KEY\\)$`,
        ),
      );
    });
  });
});
