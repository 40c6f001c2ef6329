import { BlacklistRepository } from '../../src/modules/blacklist/application/ports/blacklist.repository.js';

export interface BlacklistContractContext {
  repository: () => BlacklistRepository;
  organizationId: () => Promise<string>;
}

const T0 = new Date('2026-03-01T10:00:00.123Z');
const at = (ms: number) => new Date(T0.getTime() + ms);

const entry = (phone: string, reason = '') => ({
  phone_number: phone,
  reason,
  level: 'org',
  name: '',
  comment: '',
});

export function blacklistRepositoryContract(ctx: BlacklistContractContext): void {
  it('creates a blacklist at the given time and knows which ids belong to the organization', async () => {
    const org = await ctx.organizationId();
    const other = await ctx.organizationId();
    const mine = await ctx.repository().create(org, 'dnc', null, T0);
    const theirs = await ctx.repository().create(other, 'dnc', 'theirs', T0);
    expect(mine).toEqual({
      id: expect.any(String),
      organizationId: org,
      name: 'dnc',
      description: null,
      createdAt: T0,
      updatedAt: T0,
    });
    expect(await ctx.repository().findById(mine.id)).toEqual(mine);
    expect(await ctx.repository().existingIds(org, [mine.id, theirs.id])).toEqual(
      new Set([mine.id]),
    );
  });

  it('upserts entries, counting new and updated ones, and pages them', async () => {
    const b = await ctx.repository().create(await ctx.organizationId(), 'dnc', null, T0);
    expect(
      await ctx
        .repository()
        .upsertEntries(b.id, [entry('+15550000001'), entry('+15550000002')], at(1)),
    ).toEqual({ added: 2, updated: 0 });
    expect(await ctx.repository().findById(b.id)).toEqual({ ...b, updatedAt: at(1) });
    expect(
      await ctx
        .repository()
        .upsertEntries(b.id, [entry('+15550000002', 'asked'), entry('+15550000003')], at(2)),
    ).toEqual({ added: 1, updated: 1 });
    expect(await ctx.repository().findById(b.id)).toEqual({ ...b, updatedAt: at(2) });
    const all = await ctx.repository().listEntries(b.id, 0, 10);
    expect(all.total).toBe(3);
    expect(all.items).toContainEqual(entry('+15550000002', 'asked'));
    expect((await ctx.repository().listEntries(b.id, 1, 1)).items).toHaveLength(1);
    expect(await ctx.repository().listEntries(b.id, 3, 10)).toEqual({ items: [], total: 3 });
  });

  it('lists the organization’s blacklists in creation order, with their count', async () => {
    const org = await ctx.organizationId();
    const first = await ctx.repository().create(org, 'first', null, T0);
    const second = await ctx.repository().create(org, 'second', null, at(1));
    await ctx.repository().create(await ctx.organizationId(), 'theirs', null, T0);
    expect(await ctx.repository().list(org, 0, 1)).toEqual({ items: [first], total: 2 });
    expect(await ctx.repository().list(org, 1, 5)).toEqual({ items: [second], total: 2 });
    expect(await ctx.repository().list(org, 2, 5)).toEqual({ items: [], total: 2 });
  });

  it('removes entries and reports how many went', async () => {
    const b = await ctx.repository().create(await ctx.organizationId(), 'dnc', null, T0);
    await ctx
      .repository()
      .upsertEntries(b.id, [entry('+15550000001'), entry('+15550000002')], at(1));
    expect(await ctx.repository().removeEntries(b.id, ['+15550000001', '+15559999999'])).toBe(1);
    expect(
      (await ctx.repository().listEntries(b.id, 0, 10)).items.map((e) => e.phone_number),
    ).toEqual(['+15550000002']);
  });

  it('finds the numbers that any of the given blacklists holds', async () => {
    const org = await ctx.organizationId();
    const a = await ctx.repository().create(org, 'a', null, T0);
    const b = await ctx.repository().create(org, 'b', null, T0);
    await ctx.repository().upsertEntries(a.id, [entry('+15550000001')], at(1));
    await ctx.repository().upsertEntries(b.id, [entry('+15550000002')], at(1));
    expect(
      await ctx
        .repository()
        .findBlacklisted(org, [a.id, b.id], ['+15550000001', '+15550000002', '+15550000003']),
    ).toEqual(new Set(['+15550000001', '+15550000002']));
    expect(await ctx.repository().findBlacklisted(org, [a.id], ['+15550000002'])).toEqual(
      new Set(),
    );
  });

  it('finds an organization-level entry of any of the organization’s blacklists, named or not', async () => {
    const org = await ctx.organizationId();
    const other = await ctx.organizationId();
    const named = await ctx.repository().create(org, 'named', null, T0);
    const unnamed = await ctx.repository().create(org, 'do not call', null, T0);
    const theirs = await ctx.repository().create(other, 'theirs', null, T0);
    const at_ = (phone: string, level: string) => ({ ...entry(phone), level });
    await ctx
      .repository()
      .upsertEntries(
        unnamed.id,
        [
          at_('+15550000011', 'organization'),
          at_('+15550000012', 'Organization'),
          at_('+15550000013', 'campaign'),
          at_('+15550000014', ''),
        ],
        at(1),
      );
    await ctx.repository().upsertEntries(theirs.id, [at_('+15550000015', 'organization')], at(1));
    const numbers = [
      '+15550000011',
      '+15550000012',
      '+15550000013',
      '+15550000014',
      '+15550000015',
    ];
    const expected = new Set(['+15550000011', '+15550000012']);
    expect(await ctx.repository().findBlacklisted(org, [named.id], numbers)).toEqual(expected);
    expect(await ctx.repository().findBlacklisted(org, [], numbers)).toEqual(expected);
    // Another organization's entries never hold, even at its organization level or when named.
    expect(await ctx.repository().findBlacklisted(org, [theirs.id], numbers)).toEqual(expected);
    expect(await ctx.repository().findBlacklisted(other, [], numbers)).toEqual(
      new Set(['+15550000015']),
    );
  });
}
