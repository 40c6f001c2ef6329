import { pythonJsonError } from './python-json-error.js';

/** Expected values are Python 3.11's `json.loads` errors (message and position) for the same texts. */
describe("Python's JSON errors", () => {
  it.each([
    ['{"name": ', 'Expecting value', 9],
    ["{'name': 'x'}", 'Expecting property name enclosed in double quotes', 1],
    ['{"name": "x",}', 'Expecting property name enclosed in double quotes', 13],
    ['{"name" "x"}', "Expecting ':' delimiter", 8],
    ['{"a": 1 "b": 2}', "Expecting ',' delimiter", 8],
    ['{"name": "x', 'Unterminated string starting at', 9],
    ['{"a": 1} {"b": 2}', 'Extra data', 9],
    ['[1, 2', "Expecting ',' delimiter", 5],
    ['{"a": "\\q"}', 'Invalid \\escape', 7],
    ['{"a": "x\ny"}', 'Invalid control character at', 8],
    ['{"a": "\\u12"}', 'Invalid \\uXXXX escape', 8],
    ['["😀", x]', 'Expecting value', 6],
    ['NaN', 'Expecting value', 0],
  ])('%j: %s at %i', (text, msg, pos) => {
    expect(pythonJsonError(text)).toEqual({ msg, pos });
  });

  it('finds nothing wrong with valid JSON', () => {
    expect(pythonJsonError(' {"a": [1, -2.5e3, "\\ud83d\\ude00", null, true]} ')).toBeNull();
  });
});
