import {
  callerWords,
  codeWords,
  heldWords,
  messageWords,
  waitingWords,
} from '../../console/src/words.js';
import {
  CALL_CATEGORY_ENUMS,
  SUBCATEGORY_ENUMS,
} from '../../src/modules/target/api/dto/outcome-enums.js';
import {
  atConcurrencyCap,
  CAMPAIGN_CANCELLED,
  CAMPAIGN_PAUSED,
  localWords,
  NOT_LAUNCHED,
  retryWords,
  utcWords,
  waitingForStep,
} from '../../src/modules/target/domain/waiting-reason.js';

describe('console words (codeWords, messageWords, waitingWords)', () => {
  it('says the categories a care coordinator meets in words', () => {
    expect(codeWords('NO_RESPONSE')).toBe('No answer');
    expect(codeWords('VOICEMAIL')).toBe('Voicemail');
    expect(codeWords('SERVICE_NOT_AVAILABLE')).toBe('Service not available');
    expect(codeWords('HUMAN_ONLY')).toBe('Needs a person');
    expect(codeWords('successful')).toBe('Successful');
    expect(codeWords('failed')).toBe('Failed');
    expect(codeWords('active')).toBe('Active');
  });

  it('says which rules hold targets past the estimated end, and until when', () => {
    expect(heldWords('3:00 PM', { quiet_hours: 3 })).toBe('held by quiet hours (3) until 3:00 PM');
    expect(heldWords('3:00 PM', { organization_limit: 1, state_hours: 2 })).toBe(
      'held by organization limit (1), state hours (2) until 3:00 PM',
    );
  });

  it('spells out every category and subcategory of the spec, and leaves words as they are', () => {
    const codes = [
      ...Object.values(CALL_CATEGORY_ENUMS).flat(),
      ...Object.values(SUBCATEGORY_ENUMS).flat(),
    ];
    for (const code of codes) {
      const words = codeWords(code);
      expect(words).not.toMatch(/_/);
      expect(words).toMatch(/^[A-Z]/);
      expect(words.slice(1)).not.toMatch(/[A-Z]{3}/);
    }
    expect(codeWords('CLOSED_FOR_HOLIDAYS')).toBe('Closed for holidays');
    expect(codeWords('To review')).toBe('To review');
    expect(codeWords('In Progress')).toBe('In Progress');
  });

  it("drops pydantic's prefix from a validation message", () => {
    expect(messageWords('Value error, unknown time zone "Mars/Olympus"')).toBe(
      'unknown time zone "Mars/Olympus"',
    );
    expect(messageWords('Assertion failed, x')).toBe('x');
    expect(messageWords('Input should be a valid integer')).toBe('Input should be a valid integer');
  });

  it("tells each of the service's waiting reasons as a sentence, without the API's names", () => {
    const at = new Date('2026-11-23T14:05:00Z');
    const reasons = [
      NOT_LAUNCHED,
      CAMPAIGN_PAUSED,
      CAMPAIGN_CANCELLED,
      waitingForStep('confirm'),
      waitingForStep(null),
      'SMS scheduled',
      'calling window and operating hours never overlap',
      `outside calling window: opens ${localWords(at, 'US/Eastern')}`,
      `${retryWords(2, 3, 'NO_RESPONSE')} at ${utcWords(at)}`,
      `scheduled for ${utcWords(at)}`,
      atConcurrencyCap(2, 2),
      'due: the next dispatcher round calls it',
    ];
    const sentences = reasons.map(waitingWords);
    for (const s of sentences) {
      expect(s).toMatch(/^[A-Z].*\.$/);
      expect(s).not.toMatch(/launch=true|max_concurrent_calls|NO_RESPONSE|dispatcher|UTC$/);
    }
    expect(sentences[0]).toBe(
      'Not started yet: press Trigger calls on the campaign page, or import targets with “Schedule the new targets”.',
    );
    expect(sentences[1]).toBe('The campaign is paused: press Resume on the campaign page.');
    expect(sentences[3]).toBe(
      'Waiting for the step “confirm” to be reported before the next call.',
    );
    expect(sentences[7]).toBe(
      'Outside the calling hours: calls can start again Mon 09:05 US/Eastern.',
    );
    expect(sentences[8]).toMatch(
      /^The last call ended “No answer”: attempt 2 of 3 is planned for /,
    );
    expect(sentences[10]).toBe(
      'The campaign already has 2 of its 2 calls at once in progress: this one starts when one ends.',
    );
  });

  it('shows a reason it does not know (a calling rule’s own words) as the service wrote it', () => {
    expect(waitingWords('on the do-not-call list since 2026-11-02 10:00 UTC')).toBe(
      'On the do-not-call list since 2026-11-02 10:00 UTC',
    );
  });

  it("shows a call's caller id when it is a number, not the service's placeholder", () => {
    expect(callerWords('+15550100000')).toBe('from +15550100000 ');
    expect(callerWords('DeprecatedLocalTest')).toBe('from the test line (no caller id set) ');
    expect(callerWords(null)).toBe('');
  });
});
