import { NullableString } from '../../../../common/http/response-properties.js';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { PyBool, PyEnum, PyOptional, PyStr } from '../../../../common/validation/py-validators.js';

export const ON_ERROR = ['reject', 'skip'] as const;
export type OnError = (typeof ON_ERROR)[number];
import { IMPORT_STATUSES, type ImportStatus } from '../../domain/target-import.js';

export class ImportTargetsQueryDto {
  @PyOptional({
    default: false,
    description: 'Validate and report (errors, duplicates) without adding anything',
  })
  @PyBool()
  dry_run: boolean = false;

  @PyOptional({ default: false, description: 'As the JSON add: schedule the new targets' })
  @PyBool()
  launch: boolean = false;

  @PyOptional({
    default: true,
    description:
      'true: rows whose external id is already in the campaign (or in an earlier row) are ignored; ' +
      'false: such rows are row errors, and a file with any row error adds nothing',
  })
  @PyBool()
  allow_duplicates: boolean = true;

  @PyOptional({
    default: 'reject',
    description:
      'reject: a file with any row error adds nothing; skip: the good rows are added and the bad ones ' +
      'reported (errors, and GET /api/v1/imports/{import_id}/errors as CSV)',
  })
  @PyEnum(ON_ERROR)
  on_error: OnError = 'reject';

  @PyOptional({
    description:
      'Explicit column mapping, comma-separated `<CSV header>:<field>` pairs, e.g. ' +
      '`Phone:phone_number,MRN:external_id,First:patient.first_name`. Unmapped headers that name a ' +
      'field are used as is; headers an EHR export uses (Phone, Mobile, Cell, MRN, Patient ID, First ' +
      'Name, DOB, ... in any case and spacing) are recognised; any other column goes into input_data ' +
      'under its header. The report answers the mapping used (columns).',
    example: 'Phone:phone_number,MRN:external_id',
  })
  @PyStr({ max: 10000 })
  columns?: string;
}

export class ImportRowErrorDto {
  @ApiProperty({
    type: 'integer',
    description: "The record's row in the file; the header is row 1",
  })
  row: number;
  @NullableString({
    description: 'The CSV column (null when the row as a whole is wrong, e.g. too many fields)',
  })
  column: string | null;
  @ApiProperty({
    type: 'array',
    items: { oneOf: [{ type: 'string' }, { type: 'integer' }] },
    description:
      'The field in the target, as the JSON add would report it after ["body", "targets", i]',
  })
  loc: (string | number)[];
  @ApiProperty({ example: 'value_error' }) type: string;
  @ApiProperty({ example: 'Field required' }) msg: string;
  @ApiPropertyOptional({
    title: 'Input',
    description: 'The value as read (any JSON value)',
    nullable: true,
    anyOf: [
      { type: 'string' },
      { type: 'number' },
      { type: 'boolean' },
      { type: 'object', additionalProperties: true },
      { type: 'array', items: {} },
    ],
  })
  input?: unknown;
  @ApiPropertyOptional({ type: 'object', additionalProperties: true }) ctx?: Record<
    string,
    unknown
  >;
}

export class ImportIgnoredRowDto {
  @ApiProperty({ type: 'integer' }) row: number;
  @ApiProperty({ example: 'PAT-001' }) external_id: string;
}

export class ImportColumnDto {
  @ApiProperty({ example: 'Date of Birth', description: 'The CSV header' }) column: string;
  @ApiProperty({
    example: 'patient.date_of_birth',
    description: 'The field it feeds: phone_number, patient.first_name, input_data.<header>, ...',
  })
  field: string;
  @ApiProperty({
    enum: ['explicit', 'field_name', 'recognised', 'input_data'],
    description:
      'explicit: the columns parameter; field_name: the header is the field; recognised: a header ' +
      'EHR exports use; input_data: any other column',
  })
  source: string;
}

class ImportPreviewPatientDto {
  @NullableString() first_name: string | null;
  @NullableString() last_name: string | null;
  @NullableString({ example: '1962-03-14' }) date_of_birth: string | null;
  @NullableString() external_id: string | null;
}

export class ImportPreviewRowDto {
  @ApiProperty({ type: 'integer' }) row: number;
  @ApiProperty({ example: '+16172531217' }) phone_number: string;
  @NullableString() fallback_phone_number: string | null;
  @NullableString() external_id: string | null;
  @NullableString() time_zone: string | null;
  @ApiProperty({ type: ImportPreviewPatientDto, nullable: true })
  patient: ImportPreviewPatientDto | null;
  @ApiProperty({ type: 'object', additionalProperties: true }) input_data: Record<string, unknown>;
}

export class ImportReportDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ format: 'uuid' }) campaign_id: string;
  @ApiProperty({
    enum: IMPORT_STATUSES,
    description:
      'queued/running while a job works on it; succeeded; rejected (row errors: nothing added); failed',
  })
  status: ImportStatus;
  @ApiProperty() dry_run: boolean;
  @ApiProperty() launch: boolean;
  @ApiProperty() allow_duplicates: boolean;
  @ApiProperty({ enum: ON_ERROR }) on_error: OnError;
  @ApiProperty({
    type: [ImportColumnDto],
    nullable: true,
    description:
      "How each column of the file was read, in the file's order (null before its header)",
  })
  columns: ImportColumnDto[] | null;
  @ApiProperty({
    type: [ImportPreviewRowDto],
    nullable: true,
    description:
      'The first 5 good rows as they will be stored: numbers in E.164, dates of birth as YYYY-MM-DD',
  })
  preview: ImportPreviewRowDto[] | null;
  @ApiProperty({ type: 'integer', description: 'Data rows in the file' }) rows: number;
  @ApiProperty({ type: 'integer', description: 'Rows with at least one error' })
  invalid_rows: number;
  @ApiProperty({ type: 'integer', description: 'Rows inserted or ignored so far (progress)' })
  processed_rows: number;
  @ApiProperty({ type: 'integer' }) created: number;
  @ApiProperty({
    type: 'integer',
    description: 'Rows ignored as duplicates (would be, in a dry run)',
  })
  ignored_rows: number;
  @ApiProperty({
    type: [ImportRowErrorDto],
    description: 'Every error of the first 10,000 rows with errors, in row order',
  })
  errors: ImportRowErrorDto[];
  @ApiProperty({ type: [ImportIgnoredRowDto], description: 'The first 10,000 ignored rows' })
  ignored: ImportIgnoredRowDto[];
  @ApiProperty({ format: 'date-time' }) created_at: string;
  @ApiProperty({ format: 'date-time' }) updated_at: string;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) finished_at: string | null;
  @NullableString({
    description: 'Why a failed import failed (e.g. the upload was interrupted); null otherwise',
  })
  failure: string | null;
}
