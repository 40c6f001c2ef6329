import { withoutQueryString } from './redaction.js';

describe('withoutQueryString', () => {
  it('keeps the path of a request log line and drops its query values', () => {
    expect(
      withoutQueryString({
        method: 'GET',
        url: '/api/v1/campaigns/c1/targets?phone_number=%2B15550101234&page=0',
        query: { phone_number: '+15550101234' },
      }),
    ).toEqual({ method: 'GET', url: '/api/v1/campaigns/c1/targets?[redacted]' });
    expect(withoutQueryString({ url: '/api/v1/campaigns' })).toEqual({ url: '/api/v1/campaigns' });
  });
});
