import fc from 'fast-check';
import { isPlainJson, notePlainJson } from './plain-json.js';
import { unstorableStrings } from './storable.js';
import { withoutUnsafeKeys } from './transform-safe.js';

const parsed = (text: string) => {
  const value = JSON.parse(text);
  notePlainJson(text, value);
  return value;
};

describe('plain JSON bodies', () => {
  it('a body noted plain needs neither walk: nothing unstorable, nothing to copy (property)', () => {
    const key = fc.oneof(
      fc.string({ unit: 'binary', maxLength: 4 }),
      fc.constantFrom('constructor', '__proto__', 'a\u0000', '\ud800', 'ok'),
    );
    const text = fc.dictionary(key, fc.jsonValue({ maxDepth: 3 }), { maxKeys: 4 }).chain((value) =>
      fc.constantFrom(
        JSON.stringify(value),
        // The same value written with escapes, as another client would send it.
        JSON.stringify(value).replace(/[^\x20-\x7e]|_|o/g, (c) =>
          c === '"' ? c : `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
        ),
      ),
    );
    fc.assert(
      fc.property(text, (t) => {
        const value = parsed(t);
        if (!isPlainJson(value)) return;
        expect(unstorableStrings(value, ['body'])).toEqual([]);
        expect(withoutUnsafeKeys(value)).toBe(value);
      }),
    );
  });

  it('notes an ordinary body, and none with a NUL, a surrogate, an escape or an unsafe key', () => {
    expect(isPlainJson(parsed('{"updates":[{"external_id":"p-1","input_data":{"a":"é"}}]}'))).toBe(
      true,
    );
    for (const text of [
      '{"a":"\\u0000"}',
      '{"a":"\\ud800"}',
      '{"\\u0063onstructor":1}',
      '{"constructor":1}',
      '{"__proto__":{"x":1}}',
      '{"a":"' + '\ud800' + '"}',
      // Any surrogate, even of a valid pair: such a body is walked, as before.
      '{"a":"😀"}',
    ]) {
      expect(isPlainJson(parsed(text))).toBe(false);
    }
    expect(isPlainJson({ a: 1 })).toBe(false);
    expect(isPlainJson('text')).toBe(false);
  });
});
