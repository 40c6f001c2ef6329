import { twilioTextError, twilioTextStatus } from './twilio-message-status.js';

describe("Twilio's message statuses and error codes", () => {
  it.each([
    ['accepted', 'sent'],
    ['scheduled', 'sent'],
    ['queued', 'sent'],
    ['sending', 'sent'],
    ['sent', 'sent'],
    ['delivered', 'delivered'],
    ['read', 'delivered'],
    ['undelivered', 'undelivered'],
    ['failed', 'failed'],
    ['canceled', 'failed'],
    ['received', null],
    ['receiving', null],
    ['something-new', null],
    [undefined, null],
  ])('%s -> %s', (status, ours) => {
    expect(twilioTextStatus(status)).toBe(ours);
  });

  it('keeps the code, with words for the common ones', () => {
    expect(twilioTextError('30003')).toEqual({
      errorCode: '30003',
      errorMessage: 'Unreachable destination handset',
    });
    expect(twilioTextError(21610)).toEqual({
      errorCode: '21610',
      errorMessage: 'The recipient replied STOP to this sender (unsubscribed)',
    });
    expect(twilioTextError('30999')).toEqual({
      errorCode: '30999',
      errorMessage: 'Twilio error 30999',
    });
    expect([twilioTextError(null), twilioTextError(''), twilioTextError(0)]).toEqual([
      { errorCode: null, errorMessage: null },
      { errorCode: null, errorMessage: null },
      { errorCode: null, errorMessage: null },
    ]);
  });
});
