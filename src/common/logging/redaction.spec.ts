import { Writable } from 'stream';
import pino from 'pino';
import { REDACTED_PATHS, withoutQueryString } from './redaction.js';

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

describe('REDACTED_PATHS', () => {
  /** The lines a logger configured as the app's (campaign-calling.module.ts) writes for `objects`. */
  function logged(...objects: object[]): string {
    let out = '';
    const sink = new Writable({
      write(chunk, _encoding, done) {
        out += String(chunk);
        done();
      },
    });
    const logger = pino({ redact: { paths: REDACTED_PATHS, censor: '[redacted]' } }, sink);
    for (const o of objects) logger.info(o, 'line');
    return out;
  }

  it('keeps do-not-call numbers out of a line, at its top and one level down', () => {
    const number = '+15550170005';
    const out = logged(
      // A domain entry and a listing from a call (DoNotCallEntry, DoNotCallFromCall).
      { phoneNumber: number, organizationId: 'org', callLogId: 7 },
      { entry: { phoneNumber: number, reason: 'asked' } },
      // The routes' bodies and answers (POST, DELETE, GET) as a request or a response.
      { phone_numbers: [{ phone_number: number, reason: 'letter' }] },
      { body: { phone_numbers: [number], reason: 'consent given again' } },
      { res: { removed: [], not_listed: [number] } },
      { not_listed: [number] },
      { phone_number: number, reason: 'letter' },
      { res: { phone_numbers: [{ phone_number: number }], total: 1 } },
    );
    expect(out.split('\n').filter(Boolean)).toHaveLength(8);
    expect(out).not.toContain('5550170005');
    expect(out).toContain('"callLogId":7');
  });
});
