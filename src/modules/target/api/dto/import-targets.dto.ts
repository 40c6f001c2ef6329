import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { PyBool, PyOptional, PyStr } from '../../../../common/validation/py-validators.js';
import { IMPORT_STATUSES, type ImportStatus } from '../../domain/target-import.js';

export class ImportTargetsQueryDto {
  @ApiPropertyOptional({
    default: false,
    description: 'Validate and report (errors, duplicates) without adding anything',
  })
  @PyOptional()
  @PyBool()
  dry_run: boolean = false;

  @ApiPropertyOptional({ default: false, description: 'As the JSON add: schedule the new targets' })
  @PyOptional()
  @PyBool()
  launch: boolean = false;

  @ApiPropertyOptional({
    default: true,
    description:
      'true: rows whose external id is already in the campaign (or in an earlier row) are ignored; ' +
      'false: such rows are row errors, and a file with any row error adds nothing',
  })
  @PyOptional()
  @PyBool()
  allow_duplicates: boolean = true;

  @ApiPropertyOptional({
    description:
      'Explicit column mapping, comma-separated `<CSV header>:<field>` pairs, e.g. ' +
      '`Phone:phone_number,MRN:external_id,First:patient.first_name`. Unmapped headers that name a ' +
      'field are used as is; any other column goes into input_data under its header.',
    example: 'Phone:phone_number,MRN:external_id',
  })
  @PyOptional()
  @PyStr({ max: 10000 })
  columns?: string;
}

export class ImportRowErrorDto {
  @ApiProperty({
    type: 'integer',
    description: "The record's row in the file; the header is row 1",
  })
  row: number;
  @ApiProperty({
    type: String,
    nullable: true,
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
  @ApiProperty({
    type: String,
    nullable: true,
    description: 'Why a failed import failed (e.g. the upload was interrupted); null otherwise',
  })
  failure: string | null;
}
