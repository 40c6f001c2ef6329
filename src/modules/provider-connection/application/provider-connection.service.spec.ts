import { randomBytes } from 'crypto';
import { NotFoundError } from '../../../common/errors/domain-errors.js';
import { InMemoryProviderConnectionRepository } from '../../../testing/in-memory-provider-connection.repository.js';
import { AesGcmSecretBox } from '../infrastructure/aes-gcm-secret-box.js';
import { SecretsKeyMissingError, SecretUnreadableError } from './ports/secret-box.js';
import { ProviderConnectionService } from './provider-connection.service.js';

const ORG = '00000000-0000-4000-8000-00000000000a';
const OTHER_ORG = '00000000-0000-4000-8000-00000000000b';

function service(key: Buffer | null = randomBytes(32)) {
  const repository = new InMemoryProviderConnectionRepository();
  const box = new AesGcmSecretBox(key ? { kind: 'configured', key } : { kind: 'none' });
  return { repository, connections: new ProviderConnectionService(repository, box) };
}

const twilio = {
  type: 'twilio' as const,
  name: 'Twilio',
  credentials: { account_sid: 'AC0123456789abcdef0123456789abcdef', auth_token: 'token-0001-abcd' },
  settings: { twiml_url: 'https://example.com/t.xml', machine_detection: null },
  isDefault: true,
};

describe('ProviderConnectionService', () => {
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
});
