import { InMemorySimulatedCallStore } from '../../../testing/in-memory-simulated-call.store.js';
import { FakeClock } from '../../../testing/fake-clock.js';
import { inMemoryProviderConnections } from '../../../testing/in-memory-provider-connection.repository.js';
import { ScriptedCallProvider } from '../../../testing/scripted-call-provider.js';
import { SdkProviderCallClients } from '../../provider-connection/infrastructure/clients/provider-call-client.factory.js';
import { ConnectionCallProviders } from './call-providers.js';
import { TwilioCallClient } from '../../provider-connection/infrastructure/clients/twilio-call-client.js';
import { HttpCallProvider } from './http-call-provider.js';
import { SimulatedCallProvider } from './simulated-call-provider.js';

const ORG = '00000000-0000-4000-8000-000000000001';
const OTHER_ORG = '00000000-0000-4000-8000-000000000002';

describe('ConnectionCallProviders', () => {
  function build() {
    const { service } = inMemoryProviderConnections();
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
      new SdkProviderCallClients({ allowPrivate: true, setting: 'PROVIDER_ALLOW_PRIVATE' }),
    );
    return { service, processWide, simulator, providers };
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
});
