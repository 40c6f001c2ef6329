import { parseCsvHead } from '../../console/src/csv-head.js';

describe('console CSV preview (parseCsvHead)', () => {
  it('reads quoted fields with commas, doubled quotes and line breaks, CRLF, a BOM, empty lines', () => {
    const text =
      '\uFEFFphone_number,name\r\n+15550100001,"Doe, ""JJ"" John"\r\n\r\n+15550100002,"two\nlines"\n';
    expect(parseCsvHead(text, 10, true)).toEqual([
      ['phone_number', 'name'],
      ['+15550100001', 'Doe, "JJ" John'],
      ['+15550100002', 'two\nlines'],
    ]);
  });

  it('stops after max records', () => {
    expect(parseCsvHead('a\n1\n2\n3\n', 2, true)).toEqual([['a'], ['1']]);
  });

  it('keeps a last record without a line break only when the text is the whole file', () => {
    expect(parseCsvHead('a,b\n1,2', 10, true)).toEqual([
      ['a', 'b'],
      ['1', '2'],
    ]);
    expect(parseCsvHead('a,b\n1,2', 10, false)).toEqual([['a', 'b']]);
    expect(parseCsvHead('', 10, true)).toEqual([]);
  });
});
