import { randomBytes } from 'crypto';
import { OrganizationRepository } from '../../src/modules/organization/application/ports/organization.repository.js';

export function organizationRepositoryContract(repository: () => OrganizationRepository): void {
  const unique = (prefix: string) => `${prefix}-${randomBytes(6).toString('hex')}`;

  it('creates organizations and finds them by id and by name', async () => {
    const o = await repository().createOrganization(unique('acme'));
    expect(await repository().findOrganizationById(o.id)).toEqual(o);
    expect(await repository().findOrganizationByName(o.name)).toEqual(o);
    expect(await repository().findOrganizationByName(unique('nobody'))).toBeNull();
  });

  it('refuses a second organization with the same name', async () => {
    const name = unique('dup');
    await repository().createOrganization(name);
    await expect(repository().createOrganization(name)).rejects.toThrow();
  });

  it('saves a key once per hash and finds it while it is active', async () => {
    const o = await repository().createOrganization(unique('keys'));
    const key = { organizationId: o.id, name: 'k', keyPrefix: 'ccs_abc', keyHash: unique('hash') };
    const saved = await repository().saveApiKey(key);
    expect(await repository().saveApiKey({ ...key, name: 'again' })).toEqual(saved);
    expect(await repository().findActiveApiKeyByHash(key.keyHash)).toEqual(saved);
    expect(await repository().listApiKeys(o.id)).toEqual([saved]);
    const other = await repository().createOrganization(unique('other'));
    expect(await repository().revokeApiKey(saved.id, other.id)).toBe(false);
    expect(await repository().revokeApiKey(saved.id, o.id)).toBe(true);
    expect(await repository().revokeApiKey(saved.id)).toBe(false);
    expect(await repository().findActiveApiKeyByHash(key.keyHash)).toBeNull();
  });
}
