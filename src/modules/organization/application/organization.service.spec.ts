import {
  ConflictError,
  InvalidInputError,
  NotFoundError,
  UnauthorizedError,
} from '../../../common/errors/domain-errors.js';
import { InMemoryApiKeyRevocations } from '../../../testing/in-memory-api-key-revocations.js';
import { InMemoryOrganizationRepository } from '../../../testing/in-memory-organization.repository.js';
import { FakeClock } from '../../../testing/fake-clock.js';
import { hashApiKey } from '../domain/api-key.js';
import { OrganizationService } from './organization.service.js';

describe('OrganizationService', () => {
  let repository: InMemoryOrganizationRepository;
  let revocations: InMemoryApiKeyRevocations;
  let service: OrganizationService;
  beforeEach(() => {
    repository = new InMemoryOrganizationRepository();
    revocations = new InMemoryApiKeyRevocations();
    service = new OrganizationService(repository, revocations);
  });

  it('issues a key that authenticates and is stored only as a hash', async () => {
    const org = await service.createOrganization('Acme');
    const issued = await service.createApiKey(org.id, 'ci');
    expect(issued.key).toMatch(/^ccs_[A-Za-z0-9_-]{43}$/);
    expect(issued.keyPrefix).toBe(issued.key.slice(0, 10));
    const [stored] = repository.apiKeys.values();
    expect(stored.keyHash).toBe(hashApiKey(issued.key));
    expect(JSON.stringify(stored)).not.toContain(issued.key);
    expect(await service.authenticate(issued.key)).toEqual({
      organizationId: org.id,
      apiKeyId: issued.id,
      principal: { kind: 'api_key', id: issued.id, name: 'ci' },
      role: 'admin',
      campaignIds: null,
    });
  });

  it('refuses missing, unknown and revoked keys', async () => {
    const org = await service.createOrganization('Acme');
    const issued = await service.createApiKey(org.id);
    await expect(service.authenticate(undefined)).rejects.toThrow(UnauthorizedError);
    await expect(service.authenticate('ccs_nope')).rejects.toThrow(UnauthorizedError);
    await service.revokeApiKey(issued.id);
    await expect(service.authenticate(issued.key)).rejects.toThrow(UnauthorizedError);
    await expect(service.revokeApiKey(issued.id)).rejects.toThrow(NotFoundError);
    await expect(service.revokeApiKey('not-a-uuid')).rejects.toThrow(NotFoundError);
  });

  it('refuses a duplicate organization name and keys for an unknown organization', async () => {
    await service.createOrganization('Acme');
    await expect(service.createOrganization(' Acme ')).rejects.toThrow(ConflictError);
    await expect(service.createOrganization('  ')).rejects.toMatchObject({
      constructor: InvalidInputError,
      field: ['name'],
    });
    await expect(service.createApiKey('00000000-0000-4000-8000-000000000000')).rejects.toThrow(
      NotFoundError,
    );
  });

  it('makes sure of bootstrap organizations and keys, idempotently', async () => {
    const first = await service.ensureOrganizationWithKey('acme', 'key1');
    const again = await service.ensureOrganizationWithKey('acme', 'key1');
    expect(again.organization.id).toBe(first.organization.id);
    expect(again.revokedKey).toBeNull();
    expect(repository.organizations.size).toBe(1);
    expect(repository.apiKeys.size).toBe(1);
    expect((await service.authenticate('key1')).organizationId).toBe(first.organization.id);
    await expect(service.ensureOrganizationWithKey('globex', 'key1')).rejects.toThrow(
      ConflictError,
    );
  });

  it('leaves a revoked bootstrap key revoked and says so', async () => {
    await service.ensureOrganizationWithKey('acme', 'key1');
    const { id } = (await service.authenticate('key1')) && [...repository.apiKeys.values()][0];
    await service.revokeApiKey(id);
    const again = await service.ensureOrganizationWithKey('acme', 'key1');
    expect(again.revokedKey).toMatchObject({ id, revokedAt: expect.any(Date) });
    await expect(service.authenticate('key1')).rejects.toThrow(UnauthorizedError);
  });

  it('issues a key with a role, campaigns and expiry, refused 401 from its expiry on', async () => {
    const clock = new FakeClock('2026-03-02T12:00:00.000Z');
    const clocked = new OrganizationService(repository, revocations, clock);
    const org = await clocked.createOrganization('Acme');
    const campaign = '00000000-0000-4000-8000-000000000001';
    const issued = await clocked.createApiKey(org.id, {
      name: 'EHR',
      role: 'integration',
      campaignIds: [campaign, campaign],
      expiresAt: new Date('2026-03-02T13:00:00.000Z'),
      createdBy: null,
    });
    expect(await clocked.authenticate(issued.key)).toEqual({
      organizationId: org.id,
      apiKeyId: issued.id,
      principal: { kind: 'api_key', id: issued.id, name: 'EHR' },
      role: 'integration',
      campaignIds: [campaign],
    });
    clock.set('2026-03-02T13:00:00.000Z');
    await expect(clocked.authenticate(issued.key)).rejects.toThrow(
      new UnauthorizedError('API key expired'),
    );
  });

  it('refuses an expiry not in the future and an empty list of campaigns', async () => {
    const clock = new FakeClock('2026-03-02T12:00:00.000Z');
    const clocked = new OrganizationService(repository, revocations, clock);
    const org = await clocked.createOrganization('Acme');
    await expect(
      clocked.createApiKey(org.id, { expiresAt: new Date('2026-03-02T12:00:00.000Z') }),
    ).rejects.toEqual(
      new InvalidInputError(
        'expires_at must be in the future',
        ['expires_at'],
        '2026-03-02T12:00:00.000Z',
      ),
    );
    await expect(clocked.createApiKey(org.id, { campaignIds: [] })).rejects.toEqual(
      new InvalidInputError(
        'campaign_ids must name at least one campaign (leave it out for every campaign)',
        ['campaign_ids'],
        [],
      ),
    );
    expect(repository.apiKeys.size).toBe(0);
  });

  it('records when a key was last used, at most once a minute', async () => {
    const org = await service.createOrganization('Acme');
    const issued = await service.createApiKey(org.id);
    expect(repository.apiKeys.get(issued.id)!.lastUsedAt).toBeNull();
    await service.authenticate(issued.key);
    const first = repository.apiKeys.get(issued.id)!.lastUsedAt;
    expect(first).toBeInstanceOf(Date);
    await service.authenticate(issued.key);
    expect(repository.apiKeys.get(issued.id)!.lastUsedAt).toBe(first);
  });

  describe('key cache', () => {
    /** What another process's revoke does to the shared table: this process is not told. */
    const revokeElsewhere = (id: string) => {
      repository.apiKeys.get(id)!.revokedAt = new Date();
    };

    it('honours a cached key until a revocation is announced, then refuses it', async () => {
      const org = await service.createOrganization('Acme');
      const issued = await service.createApiKey(org.id);
      await service.authenticate(issued.key);
      revokeElsewhere(issued.id);
      // Cached: the table is not read again on every request.
      expect((await service.authenticate(issued.key)).apiKeyId).toBe(issued.id);
      revocations.announce();
      await expect(service.authenticate(issued.key)).rejects.toThrow(UnauthorizedError);
    });

    it('reads the table again once the time to live is over (revocations not heard)', async () => {
      revocations.setTtlMs(0);
      const org = await service.createOrganization('Acme');
      const issued = await service.createApiKey(org.id);
      await service.authenticate(issued.key);
      revokeElsewhere(issued.id);
      await expect(service.authenticate(issued.key)).rejects.toThrow(UnauthorizedError);
    });

    it('refuses a key revoked through this process at once', async () => {
      const org = await service.createOrganization('Acme');
      const issued = await service.createApiKey(org.id);
      await service.authenticate(issued.key);
      await service.revokeApiKey(issued.id);
      await expect(service.authenticate(issued.key)).rejects.toThrow(UnauthorizedError);
    });
  });
});
