import { UnitOfWork } from '../../src/common/persistence/unit-of-work.js';
import type { Campaign } from '../../src/modules/campaign/domain/campaign.js';
import { CampaignOwnership } from '../../src/modules/campaign/application/campaign-ownership.js';
import { NotFoundError } from '../../src/common/errors/domain-errors.js';
import {
  CampaignRepository,
  NewCampaign,
} from '../../src/modules/campaign/application/ports/campaign.repository.js';

/** Creation times a millisecond apart, in the order of the calls (the list orders by them). */
let lastCreated = Date.now();
const createdAt = () => new Date(++lastCreated);

export interface CampaignContractContext {
  repository: () => CampaignRepository;
  /** An organization id the repository may store campaigns for. */
  organizationId: () => Promise<string>;
  /** Runs the transactions state changes are made in. */
  uow: () => UnitOfWork;
}

const base = (organizationId: string, name = 'c'): NewCampaign => ({
  organizationId,
  name,
  type: 'patient',
  callerId: null,
  maxAttempts: 3,
  retryDelayMinutes: 60,
  maxConcurrentCalls: 10,
  callingWindow: { monday: [{ start: '09:00', end: '17:00' }], tz: 'Europe/Paris' },
  steps: [{ friendly_id: 'intake', type: 'webhook', on_receive: 'merge' }],
  entryStep: 'intake',
  blacklistIds: [],
  webhookUrl: 'https://example.com/hook',
  webhookSecret: 'whsec_abc',
  providerConnectionId: null,
  smsFollowUp: null,
  defaultCountry: 'CA',
  voicemailMessage: 'Hi {{input_data.first_name}}, please call your clinic back.',
  autoPause: { window: 20, max_failure_ratio: 0.5 },
});

/** The behaviour every CampaignRepository has, whatever stores it. */
export function campaignRepositoryContract(ctx: CampaignContractContext): void {
  // OrganizationCampaigns and RetentionCampaigns: one implementation over this repository.
  it("tells which campaigns are an organization's (OrganizationCampaigns, RetentionCampaigns)", async () => {
    const org = await ctx.organizationId();
    const other = await ctx.organizationId();
    const mine = await ctx.repository().create(base(org, 'mine'), createdAt());
    const theirs = await ctx.repository().create(base(other, 'theirs'), createdAt());
    const ownership = new CampaignOwnership(ctx.repository());
    expect(await ownership.existing(org, [theirs.id, mine.id, 'not-a-uuid', mine.id])).toEqual(
      new Set([mine.id]),
    );
    await expect(ownership.requireCampaign(org, mine.id)).resolves.toBeUndefined();
    await expect(ownership.requireCampaign(org, theirs.id)).rejects.toEqual(
      new NotFoundError(`Campaign ${theirs.id} not found`),
    );
  });

  it('stores a campaign and reads every field back', async () => {
    const org = await ctx.organizationId();
    const at = createdAt();
    const created = await ctx.repository().create(base(org, 'full'), at);
    expect(created).toEqual({
      ...base(org, 'full'),
      id: expect.any(String),
      state: 'active',
      stateChangedAt: null,
      pausedReason: null,
      createdAt: at,
      updatedAt: at,
    });
    expect(await ctx.repository().findById(created.id)).toEqual(created);
  });

  it('changes the state only from the given states and only for the owner; reads it in a transaction', async () => {
    const org = await ctx.organizationId();
    const other = await ctx.organizationId();
    const c = await ctx.repository().create(base(org), createdAt());
    const at = new Date('2026-03-01T10:00:00.000Z');
    const run = <T>(work: Parameters<UnitOfWork['run']>[0]) => ctx.uow().run(work) as Promise<T>;
    expect(
      await run((tx) => ctx.repository().changeState(tx, other, c.id, ['active'], 'paused', at)),
    ).toBeNull();
    expect(
      await run((tx) => ctx.repository().changeState(tx, org, c.id, ['paused'], 'active', at)),
    ).toBeNull();
    const paused = await run((tx) =>
      ctx.repository().changeState(tx, org, c.id, ['active'], 'paused', at),
    );
    expect(paused).toEqual({ ...c, state: 'paused', stateChangedAt: at, updatedAt: at });
    expect(await run((tx) => ctx.repository().lockedState(tx, c.id))).toBe('paused');
    const active = await ctx.repository().create(base(org, 'other'), createdAt());
    const missing = '00000000-0000-4000-8000-0000000000ff';
    expect(
      await run((tx) => ctx.repository().lockedStates(tx, [c.id, missing, active.id, c.id])),
    ).toEqual(
      new Map([
        [c.id, 'paused'],
        [active.id, 'active'],
      ]),
    );
    expect(await run((tx) => ctx.repository().findById(c.id, tx))).toEqual(paused);
    expect(await ctx.repository().findById(c.id)).toEqual(paused);
  });

  it('keeps the reason of a pause (paused_reason) and clears it when the state changes again', async () => {
    const org = await ctx.organizationId();
    const c = await ctx.repository().create(base(org), createdAt());
    expect(c).toMatchObject({
      autoPause: { window: 20, max_failure_ratio: 0.5 },
      pausedReason: null,
    });
    const at = new Date('2026-03-01T10:00:00.000Z');
    const run = <T>(work: Parameters<UnitOfWork['run']>[0]) => ctx.uow().run(work) as Promise<T>;
    const paused = await run<Campaign>((tx) =>
      ctx.repository().changeState(tx, org, c.id, ['active'], 'paused', at, 'too many failures'),
    );
    expect(paused).toEqual({
      ...c,
      state: 'paused',
      stateChangedAt: at,
      updatedAt: at,
      pausedReason: 'too many failures',
    });
    expect(await ctx.repository().findById(c.id)).toEqual(paused);
    const resumed = await run((tx) =>
      ctx.repository().changeState(tx, org, c.id, ['paused'], 'active', at, 'ignored'),
    );
    expect(resumed).toEqual({ ...paused, state: 'active', pausedReason: null });
    const updated = await ctx.repository().update(org, c.id, { autoPause: null }, at);
    expect(updated).toMatchObject({ kind: 'updated', campaign: { autoPause: null } });
  });

  it('lists the ids of the paused campaigns (of every organization), no others', async () => {
    const run = <T>(work: Parameters<UnitOfWork['run']>[0]) => ctx.uow().run(work) as Promise<T>;
    const at = new Date('2026-03-01T10:00:00.000Z');
    const [org, other] = [await ctx.organizationId(), await ctx.organizationId()];
    const [mine, theirs, active] = [
      await ctx.repository().create(base(org), createdAt()),
      await ctx.repository().create(base(other), createdAt()),
      await ctx.repository().create(base(org), createdAt()),
    ];
    await run((tx) => ctx.repository().changeState(tx, org, mine.id, ['active'], 'paused', at));
    await run((tx) => ctx.repository().changeState(tx, other, theirs.id, ['active'], 'paused', at));
    const paused = await ctx.repository().pausedIds();
    expect(paused).toEqual(expect.arrayContaining([mine.id, theirs.id]));
    expect(paused).not.toContain(active.id);
    await run((tx) => ctx.repository().changeState(tx, org, mine.id, ['paused'], 'active', at));
    expect(await ctx.repository().pausedIds()).not.toContain(mine.id);
  });

  it('lists an organization’s campaigns in creation order with the total', async () => {
    const org = await ctx.organizationId();
    const other = await ctx.organizationId();
    const a = await ctx.repository().create(base(org, 'a'), createdAt());
    const b = await ctx.repository().create(base(org, 'b'), createdAt());
    await ctx.repository().create(base(other, 'x'), createdAt());
    const page = await ctx.repository().list(org, 0, 1);
    expect(page).toEqual({ items: [a], total: 2 });
    expect((await ctx.repository().list(org, 1, 5)).items.map((c) => c.id)).toEqual([b.id]);
    // Past the last page: no campaign, and still the count.
    expect(await ctx.repository().list(org, 2, 5)).toEqual({ items: [], total: 2 });
  });

  it('updates only the given fields, and only the owner’s campaign', async () => {
    const org = await ctx.organizationId();
    const c = await ctx.repository().create(base(org), createdAt());
    expect(
      await ctx
        .repository()
        .update(await ctx.organizationId(), c.id, { name: 'stolen' }, createdAt()),
    ).toEqual({ kind: 'not_found' });
    const at = new Date('2026-03-01T10:00:00.123Z');
    const updated = await ctx.repository().update(
      org,
      c.id,
      {
        name: 'renamed',
        callingWindow: null,
        maxAttempts: undefined,
        blacklistIds: [],
        steps: [
          { friendly_id: 'intake', type: 'webhook', on_receive: 'merge' },
          { friendly_id: 'ehr', type: 'ehr_event', on_receive: 'merge_and_schedule' },
        ],
      },
      at,
    );
    expect(updated).toEqual({
      kind: 'updated',
      campaign: {
        ...c,
        name: 'renamed',
        callingWindow: null,
        steps: [
          { friendly_id: 'intake', type: 'webhook', on_receive: 'merge' },
          { friendly_id: 'ehr', type: 'ehr_event', on_receive: 'merge_and_schedule' },
        ],
        updatedAt: at,
      },
    });
    expect(await ctx.repository().findById(c.id)).toEqual(
      (updated as { campaign: unknown }).campaign,
    );
  });

  it('refuses, as a whole, a change that leaves the entry step outside the steps', async () => {
    const org = await ctx.organizationId();
    const c = await ctx.repository().create(base(org), createdAt());
    const at = createdAt();
    expect(await ctx.repository().update(org, c.id, { name: 'x', steps: [] }, at)).toEqual({
      kind: 'entry_step_not_in_steps',
    });
    expect(await ctx.repository().update(org, c.id, { entryStep: 'nowhere' }, at)).toEqual({
      kind: 'entry_step_not_in_steps',
    });
    expect(await ctx.repository().findById(c.id)).toEqual(c);
    const cleared = await ctx.repository().update(org, c.id, { steps: [], entryStep: null }, at);
    expect(cleared).toMatchObject({ kind: 'updated', campaign: { steps: [], entryStep: null } });
  });

  it('replaces the webhook secret', async () => {
    const org = await ctx.organizationId();
    const c = await ctx.repository().create(base(org), createdAt());
    const at = new Date('2026-03-01T10:00:00.456Z');
    const replaced = await ctx.repository().setWebhookSecret(org, c.id, 'whsec_new', at);
    expect(replaced).toEqual({ ...c, webhookSecret: 'whsec_new', updatedAt: at });
    expect(await ctx.repository().findById(c.id)).toEqual(replaced);
    expect(
      await ctx.repository().setWebhookSecret(await ctx.organizationId(), c.id, 'whsec_x', at),
    ).toBeNull();
  });

  it('finds nothing for an unknown id', async () => {
    expect(await ctx.repository().findById('00000000-0000-4000-8000-000000000000')).toBeNull();
  });
}
