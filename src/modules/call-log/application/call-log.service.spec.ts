import { NotFoundError } from '../../../common/errors/domain-errors.js';
import { InMemoryCallLogRepository } from '../../../testing/in-memory-call-log.repository.js';
import { CallLogService } from './call-log.service.js';
import { InMemoryUnitOfWork } from '../../../testing/in-memory-unit-of-work.js';

const ORG = '00000000-0000-4000-8000-0000000000a1';
const OTHER = '00000000-0000-4000-8000-0000000000a2';
const CAMPAIGN = '00000000-0000-4000-8000-0000000000c1';

async function setup() {
  const repository = new InMemoryCallLogRepository();
  const service = new CallLogService(repository);
  const [id] = await new InMemoryUnitOfWork().run((tx) =>
    service.startMany(tx, [
      {
        organizationId: ORG,
        campaignId: CAMPAIGN,
        targetId: '00000000-0000-4000-8000-00000000f001',
        attempt: 1,
        to: '+15550101234',
        from: 'DeprecatedLocalTest',
        provider: 'simulated',
        startedAt: new Date('2026-01-05T15:00:00Z'),
        deadlineAt: new Date('2026-01-05T15:02:00Z'),
      },
    ]),
  );
  return { service, id };
}

describe('CallLogService', () => {
  it('reads a log of the caller’s organization only', async () => {
    const { service, id } = await setup();
    await expect(service.get(ORG, id)).resolves.toMatchObject({ id, to: '+15550101234' });
    await expect(service.get(OTHER, id)).rejects.toBeInstanceOf(NotFoundError);
    await expect(service.get(ORG, id + 1)).rejects.toBeInstanceOf(NotFoundError);
  });

  it('lists by organization; a campaign filter that is not a UUID matches nothing', async () => {
    const { service, id } = await setup();
    const page = { page: 0, limit: 10 };
    await expect(service.list(ORG, page)).resolves.toMatchObject({ total: 1, items: [{ id }] });
    await expect(service.list(ORG, { ...page, campaignId: CAMPAIGN })).resolves.toMatchObject({
      total: 1,
    });
    await expect(service.list(ORG, { ...page, campaignId: 'nope' })).resolves.toEqual({
      items: [],
      total: 0,
    });
    await expect(service.list(OTHER, page)).resolves.toEqual({ items: [], total: 0 });
  });
});
