import { InMemorySimulatedCallStore } from '../../../testing/in-memory-simulated-call.store.js';
import { FakeClock } from '../../../testing/fake-clock.js';
import { inMemoryProviderConnections } from '../../../testing/in-memory-provider-connection.repository.js';
import { ScriptedCallProvider } from '../../../testing/scripted-call-provider.js';
import { SdkProviderCallClients } from '../../provider-connection/infrastructure/clients/sdk-provider-call-clients.js';
import { ConnectionCallProviders } from './connection-call-providers.js';
import { VoiceProviders } from '../../provider-connection/application/ports/voice-provider.js';
import { RetellVoiceProvider } from '../../provider-connection/infrastructure/clients/retell-voice-provider.js';
import { TwilioVoiceProvider } from '../../provider-connection/infrastructure/clients/twilio-voice-provider.js';
import { VapiVoiceProvider } from '../../provider-connection/infrastructure/clients/vapi-voice-provider.js';
import { HttpAgentVoiceProvider } from './http-agent-voice-provider.js';
import { SimulatedVoiceProvider } from './simulated-voice-provider.js';
import { TwilioCallClient } from '../../provider-connection/infrastructure/clients/twilio-call-client.js';
import { HttpCallProvider } from './http-call-provider.js';
import { SimulatedCallProvider } from './simulated-call-provider.js';
import { randomBytes } from 'crypto';
import { ProviderConnectionService } from '../../provider-connection/application/provider-connection.service.js';
import { AesGcmSecretBox } from '../../../common/secrets/aes-gcm-secret-box.js';
import { ResolvingProviderDestinations } from '../../provider-connection/infrastructure/resolving-provider-destinations.js';
import { ConnectionUnusableError } from '../../telephony/application/ports/call-provider.js';

/** The built-in types' registry, as the root module fills it (src/extensions.ts). */
function builtIns(simulator: SimulatedCallProvider): VoiceProviders {
  const clients = new SdkProviderCallClients({
    allowPrivate: true,
    setting: 'PROVIDER_ALLOW_PRIVATE',
  });
  return new VoiceProviders(
    [],
    [
      new SimulatedVoiceProvider(simulator),
      new HttpAgentVoiceProvider(clients),
      new TwilioVoiceProvider(clients),
      new VapiVoiceProvider(clients),
      new RetellVoiceProvider(clients),
    ],
  );
}

const ORG = '00000000-0000-4000-8000-000000000001';
const OTHER_ORG = '00000000-0000-4000-8000-000000000002';

describe('ConnectionCallProviders', () => {
  function build() {
    const { service, repository } = inMemoryProviderConnections();
    const processWide = new ScriptedCallProvider('http');
    const simulator = new SimulatedCallProvider(
      new InMemorySimulatedCallStore(),
      new FakeClock(),
      0,
    );
    const providers = new ConnectionCallProviders(
      processWide,
      simulator,
      service,
      builtIns(simulator),
    );
    return { service, repository, processWide, simulator, providers };
  }
  const twilio = {
    type: 'twilio' as const,
    name: 'Twilio',
    credentials: { account_sid: 'AC' + '1'.repeat(32), auth_token: 'token-token-token' },
    settings: { twiml_url: 'https://example.com/t.xml' },
    isDefault: false,
  };

  it("places through the campaign's connection, else the organization default, else CALL_PROVIDER", async () => {
    const { service, processWide, providers } = build();
    expect(await providers.forCampaign({ organizationId: ORG, providerConnectionId: null })).toBe(
      processWide,
    );
    const named = await service.create(ORG, twilio);
    const fallback = await service.create(ORG, {
      type: 'http',
      name: 'Own agent',
      credentials: { secret: 'whsec_c2VjcmV0LXNlY3JldC1zZWNyZXQ=' },
      settings: { api_base_url: 'https://agent.example/calls' },
      isDefault: true,
    });
    const viaNamed = await providers.forCampaign({
      organizationId: ORG,
      providerConnectionId: named.id,
    });
    expect(viaNamed).toBeInstanceOf(TwilioCallClient);
    expect(viaNamed.name).toBe(named.id);
    const viaDefault = await providers.forCampaign({
      organizationId: ORG,
      providerConnectionId: null,
    });
    expect(viaDefault).toBeInstanceOf(HttpCallProvider);
    expect(viaDefault.name).toBe(fallback.id);
    expect(
      await providers.forCampaign({ organizationId: OTHER_ORG, providerConnectionId: null }),
    ).toBe(processWide);
  });

  it('finds a connection by the name on its call logs and events route; simulated ones share the simulator', async () => {
    const { service, processWide, simulator, providers } = build();
    const sim = await service.create(ORG, {
      type: 'simulated',
      name: 'Sim',
      credentials: {},
      settings: {},
      isDefault: false,
    });
    const connection = await service.create(OTHER_ORG, twilio);
    expect(await providers.get('http')).toBe(processWide);
    expect(await providers.get('simulated')).toBe(simulator);
    expect(await providers.get(sim.id)).toBe(simulator);
    expect((await providers.get(connection.id))?.name).toBe(connection.id);
    expect(await providers.get('00000000-0000-4000-8000-0000000000ff')).toBeNull();
    expect(await providers.get('not-a-connection')).toBeNull();
  });

  it('a connection that cannot be used as stored is ConnectionUnusableError, saying why', async () => {
    const { service, repository, providers } = build();
    // A secret stored before the API checked it.
    const badSecret = await service.create(ORG, {
      type: 'http',
      name: 'Agent',
      credentials: { secret: 'agent-shared-secret' },
      settings: { api_base_url: 'https://agent.example/calls' },
      isDefault: false,
    });
    const unusable = new ConnectionUnusableError(
      badSecret.id,
      'its secret must be a Standard Webhooks secret: whsec_ followed by base64 (or the base64 alone), e.g. whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw; PATCH its credentials',
    );
    await expect(
      providers.forCampaign({ organizationId: ORG, providerConnectionId: badSecret.id }),
    ).rejects.toEqual(unusable);
    await expect(providers.get(badSecret.id)).rejects.toEqual(unusable);

    // Credentials sealed with another key (SECRETS_KEY changed).
    const otherSimulator = new SimulatedCallProvider(
      new InMemorySimulatedCallStore(),
      new FakeClock(),
      0,
    );
    const otherKey = new ConnectionCallProviders(
      new ScriptedCallProvider('http'),
      otherSimulator,
      new ProviderConnectionService(
        repository,
        new AesGcmSecretBox({ kind: 'configured', key: randomBytes(32) }),
        new ResolvingProviderDestinations({
          allowPrivate: true,
          setting: 'PROVIDER_ALLOW_PRIVATE',
        }),
      ),
      builtIns(otherSimulator),
    );
    const unreadable = await otherKey
      .forCampaign({ organizationId: ORG, providerConnectionId: badSecret.id })
      .catch((err: unknown) => err);
    expect(unreadable).toBeInstanceOf(ConnectionUnusableError);
    expect((unreadable as ConnectionUnusableError).message).toMatch(
      new RegExp(
        `^provider connection ${badSecret.id} cannot be used: Stored credentials cannot be read: .+ \\(see SECRETS_KEY\\)$`,
      ),
    );
  });
});
