import { formatCallLength } from './call-log.js';

describe('formatCallLength', () => {
  it.each([
    [null, '00:00:00'],
    [0, '00:00:00'],
    [65, '00:01:05'],
    [3661, '01:01:01'],
    [90061, '25:01:01'],
  ])('%p seconds is %s', (seconds, text) => {
    expect(formatCallLength(seconds)).toBe(text);
  });
});
