import { BlacklistRepository } from '../../src/modules/blacklist/application/ports/blacklist.repository.js';

export interface BlacklistContractContext {
  repository: () => BlacklistRepository;
  organizationId: () => Promise<string>;
}

const entry = (phone: string, reason = '') => ({
  phone_number: phone,
  reason,
  level: 'org',
  name: '',
  comment: '',
});

export function blacklistRepositoryContract(ctx: BlacklistContractContext): void {
  it('creates a blacklist and knows which ids belong to the organization', async () => {
    const org = await ctx.organizationId();
    const other = await ctx.organizationId();
    const mine = await ctx.repository().create(org, 'dnc', null);
    const theirs = await ctx.repository().create(other, 'dnc', 'theirs');
    expect(await ctx.repository().findById(mine.id)).toEqual(mine);
    expect(await ctx.repository().existingIds(org, [mine.id, theirs.id])).toEqual(
      new Set([mine.id]),
    );
  });

  it('upserts entries, counting new and updated ones, and pages them', async () => {
    const b = await ctx.repository().create(await ctx.organizationId(), 'dnc', null);
    expect(
      await ctx.repository().upsertEntries(b.id, [entry('+15550000001'), entry('+15550000002')]),
    ).toEqual({ added: 2, updated: 0 });
    expect(
      await ctx
        .repository()
        .upsertEntries(b.id, [entry('+15550000002', 'asked'), entry('+15550000003')]),
    ).toEqual({ added: 1, updated: 1 });
    const all = await ctx.repository().listEntries(b.id, 0, 10);
    expect(all.total).toBe(3);
    expect(all.items).toContainEqual(entry('+15550000002', 'asked'));
    expect((await ctx.repository().listEntries(b.id, 1, 1)).items).toHaveLength(1);
    expect(await ctx.repository().listEntries(b.id, 3, 10)).toEqual({ items: [], total: 3 });
  });

  it('lists the organization’s blacklists in creation order, with their count', async () => {
    const org = await ctx.organizationId();
    const first = await ctx.repository().create(org, 'first', null);
    // Creation order is (created_at, id): let the clock pass the first one's instant.
    while (Date.now() <= first.createdAt.getTime()) await new Promise((r) => setImmediate(r));
    const second = await ctx.repository().create(org, 'second', null);
    await ctx.repository().create(await ctx.organizationId(), 'theirs', null);
    expect(await ctx.repository().list(org, 0, 1)).toEqual({ items: [first], total: 2 });
    expect(await ctx.repository().list(org, 1, 5)).toEqual({ items: [second], total: 2 });
    expect(await ctx.repository().list(org, 2, 5)).toEqual({ items: [], total: 2 });
  });

  it('removes entries and reports how many went', async () => {
    const b = await ctx.repository().create(await ctx.organizationId(), 'dnc', null);
    await ctx.repository().upsertEntries(b.id, [entry('+15550000001'), entry('+15550000002')]);
    expect(await ctx.repository().removeEntries(b.id, ['+15550000001', '+15559999999'])).toBe(1);
    expect(
      (await ctx.repository().listEntries(b.id, 0, 10)).items.map((e) => e.phone_number),
    ).toEqual(['+15550000002']);
  });

  it('finds the numbers that any of the given blacklists holds', async () => {
    const org = await ctx.organizationId();
    const a = await ctx.repository().create(org, 'a', null);
    const b = await ctx.repository().create(org, 'b', null);
    await ctx.repository().upsertEntries(a.id, [entry('+15550000001')]);
    await ctx.repository().upsertEntries(b.id, [entry('+15550000002')]);
    expect(
      await ctx
        .repository()
        .findBlacklisted([a.id, b.id], ['+15550000001', '+15550000002', '+15550000003']),
    ).toEqual(new Set(['+15550000001', '+15550000002']));
    expect(await ctx.repository().findBlacklisted([a.id], ['+15550000002'])).toEqual(new Set());
  });
}
