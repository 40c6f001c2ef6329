import {
  PyBool,
  PyEnum,
  PyInt,
  PyModelRule,
  PyOptional,
  PyPhoneNumber,
  PyRequired,
  PyStr,
} from '../../../../common/validation/py-validators.js';

const ONE_KEY = 'give exactly one of phone_number and external_id';
const oneKey = (m: { phone_number?: string | null; external_id?: string | null }) =>
  (m.phone_number != null) !== (m.external_id != null) ? null : ONE_KEY;

@PyModelRule(oneKey)
export class PatientQueryDto {
  @PyOptional({
    nullable: true,
    example: '+15551230001',
    description: 'Either of a target’s numbers',
  })
  @PyStr({ min: 1, max: 32 })
  @PyPhoneNumber()
  phone_number?: string | null;

  @PyOptional({ nullable: true, example: 'MRN-1001' })
  @PyStr({ min: 1, max: 255 })
  external_id?: string | null;

  @PyOptional({ default: 100, description: 'Targets per page' })
  @PyInt({ ge: 1, le: 1000 })
  limit: number = 100;

  @PyOptional({ default: 0 })
  @PyInt({ ge: 0 })
  skip: number = 0;

  @PyOptional({ default: 'json' })
  @PyEnum(['json', 'csv'])
  format: 'json' | 'csv' = 'json';
}

@PyModelRule(oneKey)
export class ErasePatientDto {
  @PyOptional({ nullable: true, example: '+15551230001' })
  @PyStr({ min: 1, max: 32 })
  @PyPhoneNumber()
  phone_number?: string | null;

  @PyOptional({ nullable: true, example: 'MRN-1001' })
  @PyStr({ min: 1, max: 255 })
  external_id?: string | null;

  @PyRequired({ example: 'Patient request under HIPAA, ticket 4411' })
  @PyStr({ min: 1, max: 1000 })
  reason: string;

  @PyOptional({
    default: false,
    description:
      "Also delete the number's do-not-call entries (a legal record: kept unless asked; needs a phone_number)",
  })
  @PyBool()
  include_do_not_call: boolean = false;
}
