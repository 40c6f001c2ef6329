import { knownValuesOf, redactKnownValues, redactPatterns } from './redaction.js';
import { PatternRedactor } from '../infrastructure/pattern-redactor.js';

describe('redaction before storage', () => {
  const known = knownValuesOf({
    externalId: 'MRN-4471',
    phoneNumbers: ['+15550104471', null],
    patient: { first_name: 'Ann', last_name: 'Lee', date_of_birth: '1961-03-14' },
    inputData: { insurer: 'Blue Harbor Health', plan: { id: 'BH-99812' }, short: 'abc', n: 7 },
  });
  const redact = (text: string) => new PatternRedactor().redact(text, known);

  it("knows the target's name, birth date forms, ids, number forms and long input strings", () => {
    expect(known).toEqual(
      expect.arrayContaining([
        'Ann',
        'Lee',
        '1961-03-14',
        '03/14/1961',
        '3/14/1961',
        'March 14, 1961',
        'MRN-4471',
        '+15550104471',
        '(555) 010-4471',
        '555-010-4471',
        'Blue Harbor Health',
        'BH-99812',
      ]),
    );
    // Short input strings are words, not the person's values; numbers are not strings.
    expect(known).not.toContain('abc');
  });

  it.each([
    ['Hi Ann, this is about Ann Lee.', 'Hi [REDACTED], this is about [REDACTED] [REDACTED].'],
    ['Your birthday is March 14, 1961 right?', 'Your birthday is [REDACTED] right?'],
    ['DOB 3/14/1961.', 'DOB [REDACTED].'],
    ['Record MRN-4471 found', 'Record [REDACTED] found'],
    ['Call me at (555) 010-4471', 'Call me at [REDACTED]'],
    ['Covered by blue harbor health, plan BH-99812', 'Covered by [REDACTED], plan [REDACTED]'],
  ])('redacts a known value: %s', (text, expected) => {
    expect(redact(text)).toBe(expected);
  });

  it.each([
    ['SSN is 123-45-6789', 'SSN is [SSN]'],
    ['ssn 123 45 6789', 'ssn [SSN]'],
    ['card 4111 1111 1111 1111 ok', 'card [CARD] ok'],
    ['card 4111-1111-1111-1111', 'card [CARD]'],
    ['write to jo.smith+x@mail.example.com now', 'write to [EMAIL] now'],
    ['call 555-222-3333 or +1 (555) 222-3334', 'call [PHONE] or [PHONE]'],
    ['born 07/04/1976', 'born [DATE]'],
    ['born 1976-07-04', 'born [DATE]'],
    ['born July 4th, 1976', 'born [DATE]'],
    ['born 4 July 1976', 'born [DATE]'],
  ])('redacts a pattern: %s', (text, expected) => {
    expect(redactPatterns(text)).toBe(expected);
  });

  it.each([
    // Words that contain a known value, or merely look like one.
    'Annual check-up at Leeds, Annie asked about the Ledger.',
    'Ask for Anna in Blue Harbor Healthcare.',
    // A 16-digit number that fails the Luhn check is not a card; a 4-digit year is not a date.
    'Order 1234 5678 9012 3456 from 1961.',
    // Times, versions, amounts and an ISO instant are not dates, phones or SSNs.
    'At 10:30 on 2026-01-01T10:00:00Z we paid $123.45 for v1.2.3, ext 4471.',
    'May I help you? March on.',
    'The code 123-456 and the count 12 34 5678.',
  ])('leaves a look-alike alone: %s', (text) => {
    expect(redact(text)).toBe(text);
  });

  it('redacts nothing of an empty text or with no known values', () => {
    expect(redactKnownValues('', known)).toBe('');
    expect(redactKnownValues('Ann', [])).toBe('Ann');
  });
});
