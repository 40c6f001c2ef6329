import { randomBytes } from 'crypto';
import { OrganizationRepository } from '../../src/modules/organization/application/ports/organization.repository.js';
import { LAST_USED_PRECISION_MS } from '../../src/modules/organization/domain/api-key.js';

/** What a key made before roles existed, or by the CLI, is given. */
const ADMIN = { role: 'admin' as const, campaignIds: null, expiresAt: null, createdBy: null };

export function organizationRepositoryContract(repository: () => OrganizationRepository): void {
  const unique = (prefix: string) => `${prefix}-${randomBytes(6).toString('hex')}`;
  const at = new Date('2026-03-01T10:00:00.123Z');
  const later = (ms: number) => new Date(at.getTime() + ms);

  it('creates organizations at the given time and finds them by id and by name', async () => {
    const o = await repository().createOrganization(unique('acme'), at);
    expect(o).toEqual({ id: expect.any(String), name: o.name, createdAt: at });
    expect(await repository().findOrganizationById(o.id)).toEqual(o);
    expect(await repository().findOrganizationByName(o.name)).toEqual(o);
    expect(await repository().findOrganizationByName(unique('nobody'))).toBeNull();
  });

  it('refuses a second organization with the same name', async () => {
    const name = unique('dup');
    await repository().createOrganization(name, at);
    await expect(repository().createOrganization(name, at)).rejects.toThrow();
  });

  it('saves a key once per hash and finds it while it is active', async () => {
    const o = await repository().createOrganization(unique('keys'), at);
    const key = {
      organizationId: o.id,
      name: 'k',
      keyPrefix: 'ccs_abc',
      keyHash: unique('hash'),
      ...ADMIN,
    };
    const saved = await repository().saveApiKey(key, at);
    expect(saved).toEqual({
      id: expect.any(String),
      organizationId: o.id,
      name: 'k',
      keyPrefix: 'ccs_abc',
      createdAt: at,
      lastUsedAt: null,
      revokedAt: null,
      ...ADMIN,
    });
    expect(await repository().saveApiKey({ ...key, name: 'again' }, later(1))).toEqual(saved);
    expect(await repository().findActiveApiKeyByHash(key.keyHash)).toEqual(saved);
    expect(await repository().listApiKeys(o.id)).toEqual([saved]);
    const other = await repository().createOrganization(unique('other'), at);
    expect(await repository().revokeApiKey(saved.id, later(2), other.id)).toBe(false);
    expect(await repository().revokeApiKey(saved.id, later(3), o.id)).toBe(true);
    expect(await repository().revokeApiKey(saved.id, later(4))).toBe(false);
    expect(await repository().findActiveApiKeyByHash(key.keyHash)).toBeNull();
    expect(await repository().listApiKeys(o.id)).toEqual([{ ...saved, revokedAt: later(3) }]);
  });

  it('keeps a key’s role, campaigns, expiry and creator', async () => {
    const o = await repository().createOrganization(unique('grant'), at);
    const creator = await repository().saveApiKey(
      {
        organizationId: o.id,
        name: 'admin',
        keyPrefix: 'ccs_abc',
        keyHash: unique('hash'),
        ...ADMIN,
      },
      at,
    );
    const grant = {
      role: 'integration' as const,
      campaignIds: ['00000000-0000-4000-8000-000000000001'],
      expiresAt: later(60_000),
      createdBy: creator.id,
    };
    const saved = await repository().saveApiKey(
      {
        organizationId: o.id,
        name: 'ehr',
        keyPrefix: 'ccs_def',
        keyHash: unique('hash'),
        ...grant,
      },
      later(1),
    );
    expect(saved).toEqual({
      id: expect.any(String),
      organizationId: o.id,
      name: 'ehr',
      keyPrefix: 'ccs_def',
      createdAt: later(1),
      lastUsedAt: null,
      revokedAt: null,
      ...grant,
    });
    expect(await repository().listApiKeys(o.id)).toEqual([creator, saved]);
  });

  it('records a key’s last use at the given time, at most once a minute', async () => {
    const o = await repository().createOrganization(unique('used'), at);
    const saved = await repository().saveApiKey(
      { organizationId: o.id, name: 'k', keyPrefix: 'ccs_abc', keyHash: unique('hash'), ...ADMIN },
      at,
    );
    await repository().touchApiKey(saved.id, later(5));
    expect(await repository().listApiKeys(o.id)).toEqual([{ ...saved, lastUsedAt: later(5) }]);
    await repository().touchApiKey(saved.id, later(5 + LAST_USED_PRECISION_MS - 1));
    expect((await repository().listApiKeys(o.id))[0].lastUsedAt).toEqual(later(5));
    await repository().touchApiKey(saved.id, later(5 + LAST_USED_PRECISION_MS));
    expect((await repository().listApiKeys(o.id))[0].lastUsedAt).toEqual(
      later(5 + LAST_USED_PRECISION_MS),
    );
  });
}
