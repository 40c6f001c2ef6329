import { randomUUID } from 'crypto';
import { ConflictError } from '../../src/common/errors/domain-errors.js';
import {
  NewConnection,
  ProviderConnectionRepository,
} from '../../src/modules/provider-connection/application/ports/provider-connection.repository.js';

/** Times a millisecond apart, in the order of the calls (the list orders by created_at). */
let lastTime = Date.parse('2026-03-01T10:00:00.000Z');
const tick = () => new Date(++lastTime);

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
      const at = tick();
      const created = await f.repository.create(c, at);
      expect(created).toEqual({ ...c, createdAt: at, updatedAt: at });
      expect(await f.repository.findById(c.id)).toEqual(created);
      expect(await f.repository.findById(randomUUID())).toBeNull();
    });

    it('keeps one default per organization, unsetting the old one on create and update', async () => {
      const first = await f.repository.create(
        aConnection(f.organizationB, { isDefault: true }),
        tick(),
      );
      const secondAt = tick();
      const second = await f.repository.create(
        aConnection(f.organizationB, { isDefault: true }),
        secondAt,
      );
      // The unset default is updated at the time of the change that unset it.
      expect(await f.repository.findById(first.id)).toEqual({
        ...first,
        isDefault: false,
        updatedAt: secondAt,
      });
      expect((await f.repository.findDefault(f.organizationB))?.id).toBe(second.id);
      const swapAt = tick();
      const swapped = await f.repository.update(
        f.organizationB,
        first.id,
        { isDefault: true },
        swapAt,
      );
      expect(swapped).toEqual({ ...first, updatedAt: swapAt });
      expect((await f.repository.findDefault(f.organizationB))?.id).toBe(first.id);
      expect(await f.repository.findById(second.id)).toEqual({
        ...second,
        isDefault: false,
        updatedAt: swapAt,
      });
      // An update aimed at another organization's connection changes nothing, not even the default.
      expect(
        await f.repository.update(f.organizationA, second.id, { isDefault: true }, tick()),
      ).toBeNull();
      expect((await f.repository.findDefault(f.organizationB))?.id).toBe(first.id);
    });

    it('refuses a name already used in the organization, not in another one', async () => {
      const c = await f.repository.create(
        aConnection(f.organizationA, { name: 'same name' }),
        tick(),
      );
      await expect(
        f.repository.create(aConnection(f.organizationA, { name: 'same name' }), tick()),
      ).rejects.toBeInstanceOf(ConflictError);
      await expect(
        f.repository.create(aConnection(f.organizationB, { name: 'same name' }), tick()),
      ).resolves.toMatchObject({ name: 'same name' });
      const other = await f.repository.create(aConnection(f.organizationA), tick());
      await expect(
        f.repository.update(f.organizationA, other.id, { name: 'same name' }, tick()),
      ).rejects.toBeInstanceOf(ConflictError);
      expect((await f.repository.findById(c.id))?.name).toBe('same name');
    });

    it('updates only what changes', async () => {
      const c = await f.repository.create(aConnection(f.organizationA), tick());
      const at = tick();
      const updated = await f.repository.update(
        f.organizationA,
        c.id,
        {
          sealedCredentials: { keyId: 'k2', ciphertext: 'v1:a:b:c' },
          maskedCredentials: { auth_token: '***wxyz' },
        },
        at,
      );
      expect(updated).toEqual({
        ...c,
        sealedCredentials: { keyId: 'k2', ciphertext: 'v1:a:b:c' },
        maskedCredentials: { auth_token: '***wxyz' },
        updatedAt: at,
      });
    });

    it('lists an organization’s connections in creation order, paged, and deletes', async () => {
      const org = f.organizationA;
      const before = await f.repository.list(org, 0, 1000);
      const added = [];
      for (let i = 0; i < 3; i++) added.push(await f.repository.create(aConnection(org), tick()));
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
