import { effectiveSettings, maskSecret, mergeSettings } from './provider-connection.js';

describe('provider connection rules', () => {
  it('masks a secret as *** plus its last four characters, short ones entirely', () => {
    expect(maskSecret('sk_live_0123456789abcd')).toBe('***abcd');
    expect(maskSecret('12345678')).toBe('***');
    expect(maskSecret('')).toBe('***');
  });

  it('fills in the public API base URL and Retell’s final event', () => {
    expect(effectiveSettings('twilio', {})).toEqual({ api_base_url: 'https://api.twilio.com' });
    expect(effectiveSettings('retell', { api_base_url: 'http://127.0.0.1:9' })).toEqual({
      api_base_url: 'http://127.0.0.1:9',
      final_event: 'call_analyzed',
    });
    expect(effectiveSettings('simulated', {})).toEqual({});
  });

  it('merges settings, a null going back to the default', () => {
    expect(mergeSettings({ a: 1, b: 2 }, { b: null, c: 3 })).toEqual({ a: 1, c: 3 });
  });
});
