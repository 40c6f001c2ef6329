import { InvalidInputError } from '../../../common/errors/domain-errors.js';
import { FakeClock } from '../../../testing/fake-clock.js';
import { inMemoryDoNotCall } from '../../../testing/in-memory-do-not-call.repository.js';
import { InMemoryUnitOfWork } from '../../../testing/in-memory-unit-of-work.js';

const ORG = '00000000-0000-4000-8000-000000000001';
const OTHER_ORG = '00000000-0000-4000-8000-000000000002';
const KEY = { type: 'api_key' as const, id: '00000000-0000-4000-8000-0000000000aa', name: 'EHR' };
/** A person signed in removes what a key added. */
const PERSON = { type: 'user' as const, id: '00000000-0000-4000-8000-0000000000bb', name: 'Dana' };
const CAMPAIGN = '00000000-0000-4000-8000-0000000000c1';
const TARGET = '00000000-0000-4000-8000-0000000000d1';
const T0 = new Date('2026-11-02T15:00:00.000Z');

/** A call to a patient who asked not to be called again. */
const CALL = {
  organizationId: ORG,
  phoneNumber: '+15550100005',
  campaignId: CAMPAIGN,
  targetId: TARGET,
  callLogId: 41,
  at: T0,
};

const byApi = (phoneNumber: string, reason: string, createdAt = T0, organizationId = ORG) => ({
  organizationId,
  phoneNumber,
  reason,
  source: { type: 'api' as const, addedBy: KEY },
  createdAt,
  removal: null,
});

describe('DoNotCallService (in-memory table, fake clock)', () => {
  let clock: FakeClock;
  let dnc: ReturnType<typeof inMemoryDoNotCall>;
  beforeEach(() => {
    clock = new FakeClock(T0);
    dnc = inMemoryDoNotCall(clock);
  });
  const page = (organizationId = ORG, more: object = {}) =>
    dnc.service.list(organizationId, { skip: 0, limit: 100, ...more });

  it('adds numbers normalised, in request order; a repeated or already listed number keeps its first entry', async () => {
    expect(
      await dnc.service.add(ORG, KEY, [
        { phone_number: '+1 (555) 010-0001', reason: 'letter of 2026-11-02' },
        { phone_number: '+15550100002', reason: 'email' },
        { phone_number: '+1.555.010.0001', reason: 'the same number again' },
      ]),
    ).toEqual({
      added: [byApi('+15550100001', 'letter of 2026-11-02'), byApi('+15550100002', 'email')],
      alreadyListed: [],
    });
    clock.advanceMinutes(5);
    expect(
      await dnc.service.add(ORG, KEY, [
        { phone_number: '+15550100002', reason: 'another email' },
        { phone_number: '+15550100003', reason: 'phone call to the front desk' },
      ]),
    ).toEqual({
      added: [byApi('+15550100003', 'phone call to the front desk', clock.now())],
      alreadyListed: [byApi('+15550100002', 'email')],
    });
    expect(await page()).toEqual({
      items: [
        byApi('+15550100001', 'letter of 2026-11-02'),
        byApi('+15550100002', 'email'),
        byApi('+15550100003', 'phone call to the front desk', clock.now()),
      ],
      total: 3,
    });
  });

  it('refuses a bad number at its field, and adds nothing of that request', async () => {
    const refused = dnc.service.add(ORG, KEY, [
      { phone_number: '+15550100001', reason: 'ok' },
      { phone_number: '555-0100', reason: 'too short' },
    ]);
    await expect(refused).rejects.toEqual(
      new InvalidInputError(
        'phone number must be + followed by 7 to 15 digits (spaces, dashes, dots and parentheses are ignored): 555-0100 has only 7 digits, add the area code',
        ['phone_numbers', 1, 'phone_number'],
        '555-0100',
      ),
    );
    await expect(refused).rejects.toMatchObject({ field: ['phone_numbers', 1, 'phone_number'] });
    expect(await page()).toEqual({ items: [], total: 0 });
  });

  it('removes with a reason and keeps the removal; a number listed again is listed anew', async () => {
    await dnc.service.add(ORG, KEY, [
      { phone_number: '+15550100001', reason: 'letter' },
      { phone_number: '+15550100002', reason: 'email' },
    ]);
    clock.advanceMinutes(60);
    const removedAt = clock.now();
    expect(
      await dnc.service.remove(
        ORG,
        PERSON,
        ['+15550109999', '+1 555 010 0002', '+15550100002'],
        'consent given again',
      ),
    ).toEqual({
      removed: [
        {
          ...byApi('+15550100002', 'email'),
          removal: { at: removedAt, reason: 'consent given again', removedBy: PERSON },
        },
      ],
      notListed: ['+15550109999'],
    });
    expect(await dnc.service.listedAmong(null, ORG, ['+15550100001', '+15550100002'])).toEqual(
      new Map([['+15550100001', T0]]),
    );
    expect(await page()).toEqual({ items: [byApi('+15550100001', 'letter')], total: 1 });

    clock.advanceMinutes(60);
    await dnc.service.add(ORG, KEY, [{ phone_number: '+15550100002', reason: 'asked again' }]);
    expect(await page(ORG, { includeRemoved: true })).toEqual({
      items: [
        byApi('+15550100001', 'letter'),
        {
          ...byApi('+15550100002', 'email'),
          removal: { at: removedAt, reason: 'consent given again', removedBy: PERSON },
        },
        byApi('+15550100002', 'asked again', clock.now()),
      ],
      total: 3,
    });
  });

  it('a call lists the number it dialled once, with the call; numbers of another organization are theirs', async () => {
    const uow = new InMemoryUnitOfWork(dnc.repository);
    await uow.run((tx) => dnc.service.addFromCalls(tx, [CALL]));
    await uow.run((tx) =>
      dnc.service.addFromCalls(tx, [
        { ...CALL, callLogId: 42, at: new Date(T0.getTime() + 60_000) },
        { ...CALL, organizationId: OTHER_ORG, callLogId: 43 },
      ]),
    );
    const fromCall = (organizationId: string, callLogId: number) => ({
      organizationId,
      phoneNumber: '+15550100005',
      reason: 'Asked not to be called again during a call',
      source: { type: 'call', campaignId: CAMPAIGN, targetId: TARGET, callLogId },
      createdAt: T0,
      removal: null,
    });
    expect(await page()).toEqual({ items: [fromCall(ORG, 41)], total: 1 });
    expect(await page(OTHER_ORG)).toEqual({ items: [fromCall(OTHER_ORG, 43)], total: 1 });
    expect(await dnc.service.listedAmong(null, OTHER_ORG, ['+15550100001'])).toEqual(new Map());
  });

  it('a listing whose transaction fails is not kept', async () => {
    const uow = new InMemoryUnitOfWork(dnc.repository);
    const failed = uow.run(async (tx) => {
      await dnc.service.addFromCalls(tx, [CALL]);
      throw new Error('the completion failed after the listing');
    });
    await expect(failed).rejects.toThrow('the completion failed after the listing');
    expect(await dnc.service.listedAmong(null, ORG, ['+15550100005'])).toEqual(new Map());
  });

  it('searches by the digits a number contains and pages with the total of the matches', async () => {
    await dnc.service.add(
      ORG,
      KEY,
      ['+15550100001', '+15550100002', '+15550200003', '+442079460000'].map((phone_number) => ({
        phone_number,
        reason: 'r',
      })),
    );
    const numbers = async (more: object) => (await page(ORG, more)).items.map((e) => e.phoneNumber);
    expect(await numbers({ phoneNumber: '555 010' })).toEqual(['+15550100001', '+15550100002']);
    expect(await numbers({ phoneNumber: '+44' })).toEqual(['+442079460000']);
    expect(await page(ORG, { phoneNumber: '(555) 0100', skip: 1, limit: 1 })).toMatchObject({
      items: [{ phoneNumber: '+15550100002' }],
      total: 2,
    });
    expect(await numbers({ phoneNumber: '' })).toHaveLength(4);
  });
});
