import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
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
  @ApiPropertyOptional({ example: '+15551230001', description: 'Either of a target’s numbers' })
  @PyOptional({ nullable: true })
  @PyStr({ min: 1, max: 32 })
  @PyPhoneNumber()
  phone_number?: string | null;

  @ApiPropertyOptional({ example: 'MRN-1001' })
  @PyOptional({ nullable: true })
  @PyStr({ min: 1, max: 255 })
  external_id?: string | null;

  @ApiPropertyOptional({ default: 100, minimum: 1, maximum: 1000, description: 'Targets per page' })
  @PyOptional()
  @PyInt({ ge: 1, le: 1000 })
  limit: number = 100;

  @ApiPropertyOptional({ default: 0, minimum: 0 })
  @PyOptional()
  @PyInt({ ge: 0 })
  skip: number = 0;

  @ApiPropertyOptional({ enum: ['json', 'csv'], default: 'json' })
  @PyOptional()
  @PyEnum(['json', 'csv'])
  format: 'json' | 'csv' = 'json';
}

@PyModelRule(oneKey)
export class ErasePatientDto {
  @ApiPropertyOptional({ example: '+15551230001' })
  @PyOptional({ nullable: true })
  @PyStr({ min: 1, max: 32 })
  @PyPhoneNumber()
  phone_number?: string | null;

  @ApiPropertyOptional({ example: 'MRN-1001' })
  @PyOptional({ nullable: true })
  @PyStr({ min: 1, max: 255 })
  external_id?: string | null;

  @ApiProperty({ example: 'Patient request under HIPAA, ticket 4411' })
  @PyRequired()
  @PyStr({ min: 1, max: 1000 })
  reason: string;

  @ApiPropertyOptional({
    default: false,
    description:
      "Also delete the number's do-not-call entries (a legal record: kept unless asked; needs a phone_number)",
  })
  @PyOptional()
  @PyBool()
  include_do_not_call: boolean = false;
}
