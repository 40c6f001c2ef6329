import { ConsentCheck } from './consent.check.js';
import { ConsentService } from './consent.service.js';

describe('ConsentCheck', () => {
  const call = (organizationId: string, to: string) => ({
    organizationId,
    campaignId: 'c1',
    targetId: 't1',
    to,
    attempt: 1,
    inputData: {},
  });

  it('refuses the numbers an organization opted out, and only its own', async () => {
    const consents = new ConsentService();
    consents.optOut('org-a', '+15550104444');
    const check = new ConsentCheck(consents);
    expect(
      await check.check([
        call('org-a', '+15550104444'),
        call('org-a', '+15550101234'),
        call('org-b', '+15550104444'),
      ]),
    ).toEqual([
      { action: 'refuse', reason: 'the patient opted out' },
      { action: 'call' },
      { action: 'call' },
    ]);
  });
});
