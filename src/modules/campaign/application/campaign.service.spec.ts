import { InvalidInputError, NotFoundError } from '../../../common/errors/domain-errors.js';
import { InMemoryBlacklistRepository } from '../../../testing/in-memory-blacklist.repository.js';
import { InMemoryCampaignRepository } from '../../../testing/in-memory-campaign.repository.js';
import { inMemoryProviderConnections } from '../../../testing/in-memory-provider-connection.repository.js';
import { BlacklistService } from '../../blacklist/application/blacklist.service.js';
import { FakeClock } from '../../../testing/fake-clock.js';
import { CampaignService, RECENT_CAMPAIGN_MS } from './campaign.service.js';

const ORG = '00000000-0000-4000-8000-000000000001';
const OTHER_ORG = '00000000-0000-4000-8000-000000000002';

describe('CampaignService', () => {
  let blacklists: InMemoryBlacklistRepository;
  let service: CampaignService;
  beforeEach(() => {
    blacklists = new InMemoryBlacklistRepository();
    service = new CampaignService(
      new InMemoryCampaignRepository(),
      new BlacklistService(blacklists),
      inMemoryProviderConnections().service,
    );
  });

  it('creates a campaign with the documented defaults and a whsec_ secret', async () => {
    const c = await service.create(ORG, { name: 'Reminders', type: 'patient' });
    expect(c).toEqual({
      id: expect.any(String),
      organizationId: ORG,
      name: 'Reminders',
      type: 'patient',
      callerId: null,
      maxAttempts: 3,
      retryDelayMinutes: 60,
      maxConcurrentCalls: 10,
      callingWindow: null,
      defaultCountry: null,
      voicemailMessage: null,
      steps: [],
      entryStep: null,
      blacklistIds: [],
      webhookUrl: null,
      webhookSecret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{43}=$/),
      providerConnectionId: null,
      state: 'active',
      stateChangedAt: null,
      autoPause: null,
      smsFollowUp: null,
      pausedReason: null,
      createdAt: expect.any(Date),
      updatedAt: expect.any(Date),
    });
  });

  it('hides other organizations’ campaigns and malformed ids behind NotFound', async () => {
    const c = await service.create(ORG, { name: 'x', type: 'payor' });
    await expect(service.get(OTHER_ORG, c.id)).rejects.toThrow(NotFoundError);
    await expect(service.get(ORG, 'nope')).rejects.toThrow(NotFoundError);
    await expect(service.update(OTHER_ORG, c.id, { name: 'y' })).rejects.toThrow(NotFoundError);
    expect(await service.findById('nope')).toBeNull();
  });

  it('requires the entry step to be one of the steps, on create and on update', async () => {
    await expect(
      service.create(ORG, { name: 'x', type: 'patient', entryStep: 'intake' }),
    ).rejects.toThrow(InvalidInputError);
    const c = await service.create(ORG, {
      name: 'x',
      type: 'patient',
      steps: [{ friendly_id: 'intake', type: 'webhook', on_receive: 'merge' }],
      entryStep: 'intake',
    });
    await expect(service.update(ORG, c.id, { steps: [] })).rejects.toThrow(/entry_step "intake"/);
    expect((await service.update(ORG, c.id, { steps: [], entryStep: null })).entryStep).toBeNull();
  });

  it('only accepts the organization’s own blacklists, naming the bad one by index', async () => {
    const mine = await blacklists.create(ORG, 'dnc', null, new Date());
    const theirs = await blacklists.create(OTHER_ORG, 'dnc', null, new Date());
    const error = await service
      .create(ORG, { name: 'x', type: 'patient', blacklistIds: [mine.id, theirs.id] })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidInputError);
    expect((error as InvalidInputError).field).toEqual(['blacklist_ids', 1]);
    const ok = await service.create(ORG, { name: 'x', type: 'patient', blacklistIds: [mine.id] });
    expect(ok.blacklistIds).toEqual([mine.id]);
  });

  it('rotates the webhook secret', async () => {
    const c = await service.create(ORG, { name: 'x', type: 'patient' });
    const rotated = await service.rotateWebhookSecret(ORG, c.id);
    expect(rotated.webhookSecret).toMatch(/^whsec_/);
    expect(rotated.webhookSecret).not.toBe(c.webhookSecret);
  });

  describe('findRecent (words shown to people)', () => {
    const setUp = () => {
      const repository = new InMemoryCampaignRepository();
      const clock = new FakeClock();
      const recent = new CampaignService(
        repository,
        new BlacklistService(new InMemoryBlacklistRepository()),
        inMemoryProviderConnections().service,
        clock,
      );
      return { repository, clock, recent };
    };

    it('keeps a read for a second; a change made elsewhere shows after it', async () => {
      const { repository, clock, recent } = setUp();
      const c = await recent.create(ORG, { name: 'Reminders', type: 'patient' });
      expect((await recent.findRecent(c.id))?.maxAttempts).toBe(3);
      // Another process's change: straight into the table, past this service.
      await repository.update(ORG, c.id, { maxAttempts: 5 }, clock.now());
      clock.advance(RECENT_CAMPAIGN_MS - 1);
      expect((await recent.findRecent(c.id))?.maxAttempts).toBe(3);
      clock.advance(1);
      expect((await recent.findRecent(c.id))?.maxAttempts).toBe(5);
      expect(await recent.findRecent('00000000-0000-4000-8000-00000000000f')).toBeNull();
      expect(await recent.findRecent('not-a-uuid')).toBeNull();
    });

    it('a change through this service shows at once: update, pause, secret rotation', async () => {
      const { recent } = setUp();
      const c = await recent.create(ORG, { name: 'Reminders', type: 'patient' });
      await recent.findRecent(c.id);
      await recent.update(ORG, c.id, { maxAttempts: 4 });
      expect((await recent.findRecent(c.id))?.maxAttempts).toBe(4);
      await recent.changeState(null as never, ORG, c.id, 'pause', new Date());
      expect((await recent.findRecent(c.id))?.state).toBe('paused');
      const rotated = await recent.rotateWebhookSecret(ORG, c.id);
      expect((await recent.findRecent(c.id))?.webhookSecret).toBe(rotated.webhookSecret);
    });
  });
});
