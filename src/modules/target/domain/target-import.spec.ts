import {
  columnOf,
  fieldPath,
  importColumns,
  isMappableField,
  recordToTarget,
} from './target-import.js';

describe('CSV column mapping', () => {
  const header = ['phone_number', 'MRN', 'patient.first_name', 'pre_call_data.reason', 'Visit'];
  const paths = importColumns(header, new Map([['MRN', 'external_id']])).map((c) =>
    fieldPath(c.field),
  );

  it('maps known fields, explicit mappings, prefixes, and the rest into input_data', () => {
    expect(paths).toEqual([
      ['phone_number'],
      ['external_id'],
      ['patient', 'first_name'],
      ['pre_call_data', 'reason'],
      ['input_data', 'Visit'],
    ]);
    expect(recordToTarget(['+15550100001', 'M-1', 'Ann', '', '2026-04-01'], paths)).toEqual({
      phone_number: '+15550100001',
      external_id: 'M-1',
      patient: { first_name: 'Ann' },
      input_data: { Visit: '2026-04-01' },
    });
  });

  it('names the column of an error, or the field when no column feeds it', () => {
    expect(columnOf(['patient', 'first_name'], header, paths)).toBe('patient.first_name');
    expect(columnOf(['external_id'], header, paths)).toBe('MRN');
    expect(columnOf(['input_data', 'Visit'], header, paths)).toBe('Visit');
    expect(columnOf(['fallback_phone_number'], header, paths)).toBe('fallback_phone_number');
    expect(columnOf([], header, paths)).toBeNull();
  });

  it('accepts only real fields as mapping targets', () => {
    expect(['phone_number', 'patient.external_id', 'input_data.x'].map(isMappableField)).toEqual([
      true,
      true,
      true,
    ]);
    expect(['nope', 'input_data.', 'patient.nope'].map(isMappableField)).toEqual([
      false,
      false,
      false,
    ]);
  });
});
