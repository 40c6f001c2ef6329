import { randomBytes } from 'crypto';
import { InvalidInputError, NotFoundError } from '../../../common/errors/domain-errors.js';
import { InMemoryProviderConnectionRepository } from '../../../testing/in-memory-provider-connection.repository.js';
import { AesGcmSecretBox } from '../../../common/secrets/aes-gcm-secret-box.js';
import { ResolvingProviderDestinations } from '../infrastructure/resolving-provider-destinations.js';
import { ProviderCallClients } from './ports/provider-call-clients.js';
import {
  SecretsKeyMissingError,
  SecretUnreadableError,
} from '../../../common/secrets/secret-box.js';
import { ProviderConnectionService } from './provider-connection.service.js';

const ORG = '00000000-0000-4000-8000-00000000000a';
const OTHER_ORG = '00000000-0000-4000-8000-00000000000b';

/** PROVIDER_ALLOW_PRIVATE off, with a resolver that knows a few names. */
const destinations = new ResolvingProviderDestinations({
  allowPrivate: false,
  setting: 'PROVIDER_ALLOW_PRIVATE',
  resolve: async (host) => {
    const known: Record<string, string> = {
      'api.twilio.com': '54.172.60.1',
      'staging.example.com': '93.184.216.34',
      'internal.example.com': '10.1.2.3',
    };
    const address = known[host] ?? host;
    return [{ address, family: address.includes(':') ? 6 : 4 }];
  },
});

function service(key: Buffer | null = randomBytes(32)) {
  const repository = new InMemoryProviderConnectionRepository();
  const box = new AesGcmSecretBox(key ? { kind: 'configured', key } : { kind: 'none' });
  return { repository, connections: new ProviderConnectionService(repository, box, destinations) };
}

const twilio = {
  type: 'twilio' as const,
  name: 'Twilio',
  credentials: { account_sid: 'AC0123456789abcdef0123456789abcdef', auth_token: 'token-0001-abcd' },
  settings: { twiml_url: 'https://example.com/t.xml', machine_detection: null },
  isDefault: true,
};

/** Clients of an installation that has every provider SDK but Twilio's. */
class ClientsWithoutTwilio extends ProviderCallClients {
  forConnection() {
    return null;
  }
  agentFetch() {
    return fetch;
  }
  override missingPackage(type: string) {
    return type === 'twilio' ? 'twilio' : null;
  }
}

describe('ProviderConnectionService', () => {
  it("refuses a connection of a type whose SDK is not installed, naming the package on 'type'", async () => {
    const repository = new InMemoryProviderConnectionRepository();
    const box = new AesGcmSecretBox({ kind: 'configured', key: randomBytes(32) });
    const connections = new ProviderConnectionService(
      repository,
      box,
      destinations,
      undefined,
      undefined,
      new ClientsWithoutTwilio(),
    );
    const refused = connections.create(ORG, twilio);
    await expect(refused).rejects.toBeInstanceOf(InvalidInputError);
    await expect(refused).rejects.toMatchObject({
      field: ['type'],
      input: 'twilio',
      message:
        "connections of type 'twilio' need the npm package 'twilio', which is not installed: " +
        'run `npm install twilio` where the service runs',
    });
    expect(await connections.list(ORG, 0, 10)).toMatchObject({ total: 0 });
    const simulated = await connections.create(ORG, {
      ...twilio,
      type: 'simulated',
      credentials: {},
      settings: {},
    });
    expect(simulated.type).toBe('simulated');
  });

  it('stores credentials sealed and shows them masked; adapters get them in clear', async () => {
    const { repository, connections } = service();
    const created = await connections.create(ORG, twilio);
    expect(created.maskedCredentials).toEqual({ account_sid: '***cdef', auth_token: '***abcd' });
    expect(created.settings).toEqual({
      api_base_url: 'https://api.twilio.com',
      twiml_url: 'https://example.com/t.xml',
    });
    const stored = await repository.findById(created.id);
    expect(JSON.stringify(stored)).not.toContain('token-0001-abcd');

    const resolved = await connections.resolve(ORG, null);
    expect(resolved).toMatchObject({ id: created.id, credentials: twilio.credentials });
    expect(await connections.resolveForEvents(created.id)).toMatchObject({
      credentials: twilio.credentials,
    });
    expect(await connections.resolve(OTHER_ORG, null)).toBeNull();
    expect(await connections.resolveForEvents('not-a-uuid')).toBeNull();
  });

  it('merges a rotated credential into the stored ones', async () => {
    const { connections } = service();
    const created = await connections.create(ORG, twilio);
    const updated = await connections.update(ORG, created.id, {
      credentials: { auth_token: 'rotated-token-9999' },
    });
    expect(updated.maskedCredentials).toEqual({ account_sid: '***cdef', auth_token: '***9999' });
    expect((await connections.resolve(ORG, created.id))?.credentials).toEqual({
      account_sid: twilio.credentials.account_sid,
      auth_token: 'rotated-token-9999',
    });
  });

  it("hides another organization's connection", async () => {
    const { connections } = service();
    const created = await connections.create(ORG, twilio);
    await expect(connections.get(OTHER_ORG, created.id)).rejects.toBeInstanceOf(NotFoundError);
    await expect(connections.resolve(OTHER_ORG, created.id)).rejects.toBeInstanceOf(NotFoundError);
    await expect(connections.update(OTHER_ORG, created.id, { name: 'x' })).rejects.toBeInstanceOf(
      NotFoundError,
    );
    await expect(connections.delete(OTHER_ORG, created.id)).rejects.toBeInstanceOf(NotFoundError);
    await connections.delete(ORG, created.id);
    await expect(connections.get(ORG, created.id)).rejects.toBeInstanceOf(NotFoundError);
  });

  it('refuses to store a secret without a key, but not a connection without secrets', async () => {
    const { repository, connections } = service(null);
    await expect(connections.create(ORG, twilio)).rejects.toBeInstanceOf(SecretsKeyMissingError);
    expect((await repository.list(ORG, 0, 10)).total).toBe(0);
    const simulated = await connections.create(ORG, {
      type: 'simulated',
      name: 'Simulator',
      credentials: {},
      settings: {},
      isDefault: false,
    });
    expect(await connections.resolve(ORG, simulated.id)).toMatchObject({ credentials: {} });
  });

  it('reports credentials sealed with another key as unreadable, a conflict (not a crash)', async () => {
    const { repository, connections } = service();
    const created = await connections.create(ORG, twilio);
    const afterKeyChange = new ProviderConnectionService(
      repository,
      new AesGcmSecretBox({ kind: 'configured', key: randomBytes(32) }),
      destinations,
    );
    await expect(afterKeyChange.resolveForEvents(created.id)).rejects.toBeInstanceOf(
      SecretUnreadableError,
    );
    await expect(afterKeyChange.resolve(ORG, created.id)).rejects.toThrow(
      /Stored credentials cannot be read: they were sealed with key/,
    );
    // Reading the masked view needs no key, so the operator can still see and fix the connection.
    expect((await afterKeyChange.get(ORG, created.id)).maskedCredentials).toEqual(
      created.maskedCredentials,
    );
    // A rotated token alone cannot be merged into what cannot be read; all of them replace it.
    await expect(
      afterKeyChange.update(ORG, created.id, { credentials: { auth_token: 'token-0002-efgh' } }),
    ).rejects.toBeInstanceOf(SecretUnreadableError);
    const reentered = { ...twilio.credentials, auth_token: 'token-0002-efgh' };
    await afterKeyChange.update(ORG, created.id, { credentials: reentered });
    expect(await afterKeyChange.resolveForEvents(created.id)).toMatchObject({
      credentials: reentered,
    });
  });

  describe('api_base_url: where the stored credentials go', () => {
    it('refuses a loopback, private, link-local or metadata address at save time, by IP or by name', async () => {
      const { connections } = service();
      for (const [url, refusal] of [
        ['http://127.0.0.1:9/x', '127.0.0.1 resolves to 127.0.0.1, a loopback address'],
        ['http://[::1]/', '::1 resolves to ::1, a loopback address'],
        [
          'https://169.254.169.254/',
          '169.254.169.254 resolves to 169.254.169.254, a cloud metadata address',
        ],
        [
          'https://internal.example.com',
          'internal.example.com resolves to 10.1.2.3, a private address',
        ],
      ]) {
        const refused = connections.create(ORG, {
          ...twilio,
          settings: { ...twilio.settings, api_base_url: url },
        });
        await expect(refused).rejects.toMatchObject({
          field: ['settings', 'api_base_url'],
          message: `refused: ${refusal} (PROVIDER_ALLOW_PRIVATE is off)`,
          input: url,
        });
      }
      expect((await connections.list(ORG, 0, 10)).total).toBe(0);
    });

    it('moves a connection only with its credentials sent again, and never to a refused address', async () => {
      const { connections } = service();
      const created = await connections.create(ORG, twilio);
      const moved = { settings: { api_base_url: 'https://staging.example.com' } };
      await expect(connections.update(ORG, created.id, moved)).rejects.toMatchObject({
        field: ['credentials'],
        message:
          "changing settings.api_base_url needs the connection's credentials sent again in the same request: account_sid, auth_token",
      });
      await expect(
        connections.update(ORG, created.id, {
          ...moved,
          credentials: { auth_token: 'token-0002-efgh' },
        }),
      ).rejects.toMatchObject({ field: ['credentials'], message: /: account_sid$/ });
      await expect(
        connections.update(ORG, created.id, {
          settings: { api_base_url: 'http://10.0.0.5' },
          credentials: twilio.credentials,
        }),
      ).rejects.toMatchObject({ field: ['settings', 'api_base_url'] });
      expect((await connections.get(ORG, created.id)).settings.api_base_url).toBe(
        'https://api.twilio.com',
      );
      // Other settings change without them; so does a base URL sent unchanged.
      await connections.update(ORG, created.id, {
        settings: { from_number: '+15550100000', api_base_url: 'https://api.twilio.com' },
      });
      const updated = await connections.update(ORG, created.id, {
        ...moved,
        credentials: twilio.credentials,
      });
      expect(updated.settings).toMatchObject({
        api_base_url: 'https://staging.example.com',
        from_number: '+15550100000',
      });
    });
  });
});
