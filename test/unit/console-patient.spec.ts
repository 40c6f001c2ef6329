import { fieldChoices } from '../../console/src/csv-head.js';
import { patientName, targetDetails, targetName } from '../../console/src/patient.js';

describe('how the console names a target', () => {
  const maria = {
    id: '7d0c3c52-0c52-4d0e-9f6a-2f7c0d6b1a11',
    external_id: 'MRN-1007',
    phone_number: '+16172531217',
    patient: { first_name: 'Maria', last_name: 'Lopez' },
  };

  it('puts the patient’s name first, with the MRN and phone beside it', () => {
    expect(targetName(maria)).toBe('Maria Lopez');
    expect(targetDetails(maria)).toBe('MRN MRN-1007 · +16172531217');
    expect(patientName({ first_name: ' ', last_name: 'Lopez' })).toBe('Lopez');
  });

  it('falls back to the external id, then the id, when the target has no name', () => {
    expect(targetName({ ...maria, patient: null })).toBe('MRN-1007');
    expect(targetDetails({ ...maria, patient: null })).toBe('+16172531217');
    expect(targetName({ id: maria.id, external_id: null, patient: null })).toBe('Target 7d0c3c52');
  });

  it('offers our fields for a column, keeping it as extra data under its name, and a mapping made elsewhere', () => {
    const fields = fieldChoices('Visit', 'input_data.Visit').map((c) => c.field);
    expect(fields).toContain('patient.date_of_birth');
    expect(fields[fields.length - 1]).toBe('input_data.Visit');
    expect(fieldChoices('Note', 'pre_call_data.note').at(-1)).toEqual({
      field: 'pre_call_data.note',
      label: 'pre_call_data.note',
    });
  });
});
