import { proposeColumns, readDateOfBirth, recognisedField } from './import-columns.js';

describe('columns of EHR exports', () => {
  it('recognises the usual headers in any case, spacing and punctuation', () => {
    expect(
      [
        'Phone',
        'MOBILE',
        'Cell Phone',
        'home_phone',
        'MRN',
        ' Patient ID ',
        'First Name',
        'DOB',
      ].map(recognisedField),
    ).toEqual([
      'phone',
      'phone',
      'phone',
      'phone',
      'patient.external_id',
      'patient.external_id',
      'patient.first_name',
      'patient.date_of_birth',
    ]);
    expect(recognisedField('Visit Reason')).toBeNull();
  });

  it('feeds each field once: explicit and exact names first, then recognised headers in file order', () => {
    const fieldOf = (name: string) => (name === 'phone_number' ? name : null);
    expect(
      proposeColumns(
        ['Cell', 'phone_number', 'Home Phone', 'Work Phone', 'DOB', 'Date of Birth', 'Note'],
        new Map([['Note', 'pre_call_data.note']]),
        fieldOf,
      ),
    ).toEqual([
      { column: 'Cell', field: 'fallback_phone_number', source: 'recognised' },
      { column: 'phone_number', field: 'phone_number', source: 'field_name' },
      { column: 'Home Phone', field: 'input_data.Home Phone', source: 'input_data' },
      { column: 'Work Phone', field: 'input_data.Work Phone', source: 'input_data' },
      { column: 'DOB', field: 'patient.date_of_birth', source: 'recognised' },
      { column: 'Date of Birth', field: 'input_data.Date of Birth', source: 'input_data' },
      { column: 'Note', field: 'pre_call_data.note', source: 'explicit' },
    ]);
  });

  it('reads US dates of birth as dates, and only real days', () => {
    expect(['03/14/1962', '3/4/1962', '1962-03-14', ' 12/31/1999 '].map(readDateOfBirth)).toEqual([
      '1962-03-14',
      '1962-03-04',
      '1962-03-14',
      '1999-12-31',
    ]);
    expect(
      ['02/30/1950', '13/01/1960', '1962-3-14', '14.03.1962', 'yesterday'].map(readDateOfBirth),
    ).toEqual([null, null, null, null, null]);
  });
});
