import { InvalidInputError, NotFoundError } from '../../../common/errors/domain-errors';
import { InMemoryBlacklistRepository } from '../../../testing/in-memory-blacklist.repository';
import { InMemoryCampaignRepository } from '../../../testing/in-memory-campaign.repository';
import { inMemoryProviderConnections } from '../../../testing/in-memory-provider-connection.repository';
import { BlacklistService } from '../../blacklist/application/blacklist.service';
import { CampaignService } from './campaign.service';

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
      steps: [],
      entryStep: null,
      blacklistIds: [],
      webhookUrl: null,
      webhookSecret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{43}=$/),
      providerConnectionId: null,
      state: 'active',
      stateChangedAt: null,
      autoPause: null,
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
    const mine = await blacklists.create(ORG, 'dnc', null);
    const theirs = await blacklists.create(OTHER_ORG, 'dnc', null);
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
});
