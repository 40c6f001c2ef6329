import { randomUUID } from 'crypto';
import { ConflictError } from '../../src/common/errors/domain-errors.js';
import {
  NewConnection,
  ProviderConnectionRepository,
} from '../../src/modules/provider-connection/application/ports/provider-connection.repository.js';

export interface ProviderConnectionRepositoryFixture {
  repository: ProviderConnectionRepository;
  /** Two organizations that exist. */
  organizationA: string;
  organizationB: string;
  close(): Promise<void>;
}

/** The behaviour every ProviderConnectionRepository must have: the fake and the SQL adapter. */
export function providerConnectionRepositoryContract(
  name: string,
  createFixture: () => Promise<ProviderConnectionRepositoryFixture>,
): void {
  describe(`ProviderConnectionRepository contract: ${name}`, () => {
    let f: ProviderConnectionRepositoryFixture;
    beforeAll(async () => {
      f = await createFixture();
    });
    afterAll(() => f.close());

    const aConnection = (organizationId: string, over: Partial<NewConnection> = {}) => ({
      id: randomUUID(),
      organizationId,
      type: 'twilio' as const,
      name: `connection ${randomUUID()}`,
      sealedCredentials: { keyId: 'k1', ciphertext: 'v1:iv:tag:ct' },
      maskedCredentials: { auth_token: '***abcd' },
      settings: { twiml_url: 'https://example.com/t.xml' },
      isDefault: false,
      ...over,
    });

    it('stores and reads a connection back as given', async () => {
      const c = aConnection(f.organizationA);
      const created = await f.repository.create(c);
      expect(created).toEqual({ ...c, createdAt: expect.any(Date), updatedAt: expect.any(Date) });
      expect(await f.repository.findById(c.id)).toEqual(created);
      expect(await f.repository.findById(randomUUID())).toBeNull();
    });

    it('keeps one default per organization, unsetting the old one on create and update', async () => {
      const first = await f.repository.create(aConnection(f.organizationB, { isDefault: true }));
      const second = await f.repository.create(aConnection(f.organizationB, { isDefault: true }));
      expect((await f.repository.findById(first.id))?.isDefault).toBe(false);
      expect((await f.repository.findDefault(f.organizationB))?.id).toBe(second.id);
      await f.repository.update(f.organizationB, first.id, { isDefault: true });
      expect((await f.repository.findDefault(f.organizationB))?.id).toBe(first.id);
      expect((await f.repository.findById(second.id))?.isDefault).toBe(false);
      // An update aimed at another organization's connection changes nothing, not even the default.
      expect(await f.repository.update(f.organizationA, second.id, { isDefault: true })).toBeNull();
      expect((await f.repository.findDefault(f.organizationB))?.id).toBe(first.id);
    });

    it('refuses a name already used in the organization, not in another one', async () => {
      const c = await f.repository.create(aConnection(f.organizationA, { name: 'same name' }));
      await expect(
        f.repository.create(aConnection(f.organizationA, { name: 'same name' })),
      ).rejects.toBeInstanceOf(ConflictError);
      await expect(
        f.repository.create(aConnection(f.organizationB, { name: 'same name' })),
      ).resolves.toMatchObject({ name: 'same name' });
      const other = await f.repository.create(aConnection(f.organizationA));
      await expect(
        f.repository.update(f.organizationA, other.id, { name: 'same name' }),
      ).rejects.toBeInstanceOf(ConflictError);
      expect((await f.repository.findById(c.id))?.name).toBe('same name');
    });

    it('updates only what changes', async () => {
      const c = await f.repository.create(aConnection(f.organizationA));
      const updated = await f.repository.update(f.organizationA, c.id, {
        sealedCredentials: { keyId: 'k2', ciphertext: 'v1:a:b:c' },
        maskedCredentials: { auth_token: '***wxyz' },
      });
      expect(updated).toEqual({
        ...c,
        sealedCredentials: { keyId: 'k2', ciphertext: 'v1:a:b:c' },
        maskedCredentials: { auth_token: '***wxyz' },
        updatedAt: expect.any(Date),
      });
    });

    it('lists an organization’s connections in creation order, paged, and deletes', async () => {
      const org = f.organizationA;
      const before = await f.repository.list(org, 0, 1000);
      const added = [];
      for (let i = 0; i < 3; i++) added.push(await f.repository.create(aConnection(org)));
      const all = await f.repository.list(org, 0, 1000);
      expect(all.total).toBe(before.total + 3);
      expect(all.items.slice(-3).map((c) => c.id)).toEqual(added.map((c) => c.id));
      const page = await f.repository.list(org, before.total + 1, 1);
      expect(page.items.map((c) => c.id)).toEqual([added[1].id]);

      expect(await f.repository.delete(f.organizationB, added[0].id)).toBe(false);
      expect(await f.repository.delete(org, added[0].id)).toBe(true);
      expect(await f.repository.delete(org, added[0].id)).toBe(false);
      expect(await f.repository.findById(added[0].id)).toBeNull();
    });
  });
}
