import { randomBytes } from 'crypto';
import { ProviderCallClients, ProviderTextClients } from '../../src/index.js';
import {
  nodePackageLoader,
  PROVIDER_SDK_PACKAGES,
  ProviderSdks,
} from '../../src/modules/provider-connection/infrastructure/clients/provider-sdks.js';
import { SdkProviderCallClients } from '../../src/modules/provider-connection/infrastructure/clients/sdk-provider-call-clients.js';
import { SdkProviderTextClients } from '../../src/modules/provider-connection/infrastructure/clients/sdk-provider-text-clients.js';
import { createTestApp, TestApp, waitFor } from '../support/test-app.js';

/**
 * An installation without a provider's SDK (an optional peer dependency): the packages' names are
 * swapped for one that no registry holds, so the runner's real resolution fails as it does for a
 * `twilio` that was never installed.
 */
const ABSENT = 'campaign-calling-service-absent-sdk';
const policy = { allowPrivate: true, setting: 'PROVIDER_ALLOW_PRIVATE' };

describe('a provider SDK that is not installed', () => {
  let t: TestApp;
  let key: string;
  const packages: Record<keyof typeof PROVIDER_SDK_PACKAGES, string> = { ...PROVIDER_SDK_PACKAGES };
  const sdks = new ProviderSdks(nodePackageLoader, packages);
  beforeAll(async () => {
    t = await createTestApp({
      env: { SECRETS_KEY: randomBytes(32).toString('base64') },
      module: {
        adapters: [
          [ProviderCallClients, { useValue: new SdkProviderCallClients(policy, sdks) }],
          [ProviderTextClients, { useValue: new SdkProviderTextClients(policy, sdks) }],
        ],
      },
    });
    ({ apiKey: key } = await t.createOrganization());
  });
  afterAll(() => t.close());

  const twilio = {
    type: 'twilio',
    name: 'Twilio',
    credentials: { account_sid: 'AC0123456789abcdef0123456789abcdef', auth_token: 'token-5e1d' },
    settings: { from_number: '+15550100000', twiml_url: 'https://example.com/t.xml' },
  };

  it('refuses to create a connection of its type with a 422 naming the package', async () => {
    packages.vapi = ABSENT;
    const res = await t
      .http()
      .post('/api/v1/provider-connections')
      .set('X-API-Key', key)
      .send({
        type: 'vapi',
        name: 'Vapi',
        credentials: { api_key: 'vapi-key-1', server_secret: 'vapi-secret-1' },
        settings: { assistant_id: 'asst-1', phone_number_id: 'pn-1' },
      });
    expect(res.status).toBe(422);
    expect(res.body).toEqual({
      detail: [
        {
          type: 'value_error',
          loc: ['body', 'type'],
          msg:
            `Value error, connections of type 'vapi' need the npm package '${ABSENT}', which is ` +
            `not installed: run \`npm install ${ABSENT}\` where the service runs`,
          input: 'vapi',
          // As FastAPI serializes a ValueError: an empty object.
          ctx: { error: {} },
        },
      ],
    });
    const list = await t.http().get('/api/v1/provider-connections').set('X-API-Key', key);
    expect(list.body).toEqual({ provider_connections: [], page_count: 0, next_page: null });
  });

  it("answers a provider's webhook to an existing connection with a 503 naming the package", async () => {
    // Created while the SDK was installed; the package is gone by the time Twilio calls back.
    const created = await t
      .http()
      .post('/api/v1/provider-connections')
      .set('X-API-Key', key)
      .send(twilio);
    expect(created.status).toBe(201);
    packages.twilio = ABSENT;

    const res = await t
      .http()
      .post(`/api/v1/telephony/${created.body.id}/events?call_log_id=1`)
      .set('X-Twilio-Signature', 'c2lnbmF0dXJl')
      .type('form')
      .send('CallSid=CA1&CallStatus=completed');
    expect(res.status).toBe(503);
    expect(res.body).toEqual({
      detail:
        `connections of type 'twilio' need the npm package '${ABSENT}', which is not installed: ` +
        `run \`npm install ${ABSENT}\` where the service runs`,
    });
  });
  it('ends a call placed through an existing connection as a provider error', async () => {
    const created = await t
      .http()
      .post('/api/v1/provider-connections')
      .set('X-API-Key', key)
      .send({
        type: 'retell',
        name: 'Retell',
        credentials: { api_key: 'key_retell_1' },
        settings: { agent_id: 'agent_1', from_number: '+15550100001' },
      });
    expect(created.status).toBe(201);
    packages.retell = ABSENT;

    const campaign = await t.createCampaign(key, {
      max_attempts: 1,
      caller_id: '+15550009999',
      provider_connection_id: created.body.id,
    });
    const [targetId] = await t.addTargets(key, campaign.id, {
      targets: [{ phone_number: '+15553000001' }],
      launch: true,
    });
    const [log] = await waitFor(
      () =>
        t.sql<{ provider: string; ended_reason: string | null }>(
          `SELECT provider, ended_reason FROM call_logs WHERE target_id = $1 AND ended_at IS NOT NULL`,
          [targetId],
        ),
      (rows) => rows.length === 1,
    );
    expect(log).toEqual({ provider: created.body.id, ended_reason: 'provider-error' });
  });
});
