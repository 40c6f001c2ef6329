import { Operation } from '../../../common/http/api-operation.js';
import { Audit, answerField } from '../../../common/audit/audit.decorators.js';
import { requireCampaignReach } from '../../../common/auth/auth-context.js';
import { Controller, Get, HttpCode, Param, Post, Query, Req, Res } from '@nestjs/common';
import { ApiBody, ApiConsumes, ApiParam, ApiProduces, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import {
  Auth,
  type AuthContext,
  RequiresPermission,
  CampaignScope,
} from '../../../common/http/auth.decorators.js';
import { stringify } from 'csv-stringify/sync';
import {
  ImportReport,
  PreviewRow,
  RowError,
  SYNC_IMPORT_MAX_ROWS,
} from '../domain/target-import.js';
import { presentPatient } from './target.presenter.js';
import type { ImportColumn } from '../domain/import-columns.js';
import { TargetImportService } from '../application/target-import.service.js';
import { csvRecords, parseColumnMapping } from './csv-records.js';
import { CsvText } from './csv-text.js';
import {
  ImportPreviewRowDto,
  ImportReportDto,
  ImportTargetsQueryDto,
} from './dto/import-targets.dto.js';
import { UnsupportedMediaTypeException } from '@nestjs/common';

export const CSV_IMPORT_PATH = /\/api\/v1\/campaigns\/[^/]+\/targets\/import\/?(\?|$)/;

/** Whether a request is a CSV upload the import route streams itself (no body parser reads it). */
export function isCsvImport(req: { url?: string; headers: Record<string, unknown> }): boolean {
  const type = String(req.headers['content-type'] ?? '')
    .split(';')[0]
    .trim()
    .toLowerCase();
  return (type === 'text/csv' || type === 'application/csv') && CSV_IMPORT_PATH.test(req.url ?? '');
}

@ApiTags('targets')
@Controller('api/v1')
export class TargetImportController {
  constructor(private readonly imports: TargetImportService) {}

  @RequiresPermission('targets.import')
  @Audit({
    action: 'target.import',
    resource: 'import',
    id: answerField('id'),
    fields: () => ['targets'],
  })
  @Post('campaigns/:campaign_id/targets/import')
  @HttpCode(200)
  @Operation(
    'import_targets_api_v1_campaigns__campaign_id__targets_import_post',
    'Import Targets (CSV)',
    'Adds the targets of a CSV file (text/csv, header row, up to 1,000,000 rows; see docs/targets.md ' +
      'for the columns). Every row is validated as the JSON add validates a target; a file with any ' +
      'row error adds nothing and the report lists every error with its row and column. Up to ' +
      `${SYNC_IMPORT_MAX_ROWS} rows are processed in the request (200 with the report); larger files ` +
      'answer 202 with the queued import: follow it with GET /api/v1/imports/{import_id}.',
  )
  @ApiParam({ name: 'campaign_id', description: 'The ID of the campaign.' })
  @ApiConsumes('text/csv')
  @ApiBody({
    schema: {
      type: 'string',
      example:
        'phone_number,external_id,patient.first_name,appointment_date\n+15550100001,PAT-1,John,2026-04-01\n',
    },
  })
  @ApiResponse({ status: 200, type: ImportReportDto, description: 'Processed: the report' })
  @ApiResponse({
    status: 202,
    type: ImportReportDto,
    description: 'Queued (more than 10,000 rows); Location names the import',
  })
  @ApiResponse({
    status: 400,
    description:
      'The upload stopped before the end of the file (rarely read: the client is usually gone); the ' +
      'import ends failed with this failure, and GET /api/v1/imports/{import_id} shows it',
    schema: {
      example: {
        detail:
          'The upload was interrupted after 2000 rows, before the end of the file: nothing was added. Send the file again.',
      },
    },
  })
  @ApiResponse({
    status: 415,
    description: 'The body is not text/csv, or its charset is one the service cannot decode',
    schema: { example: { detail: 'Unsupported Media Type: send the file as text/csv' } },
  })
  async import(
    @Auth() auth: AuthContext,
    @Param('campaign_id') campaignId: string,
    @Query() query: ImportTargetsQueryDto,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ) {
    if (!isCsvImport(req)) {
      throw new UnsupportedMediaTypeException('Unsupported Media Type: send the file as text/csv');
    }
    const mapping = parseColumnMapping(query.columns);
    const text = CsvText.fromContentType(req.headers['content-type']);
    const read: { columns: ImportColumn[] | null } = { columns: null };
    const { report, queued } = await this.imports.start(
      auth.organizationId,
      campaignId,
      {
        dryRun: query.dry_run,
        launch: query.launch,
        allowDuplicates: query.allow_duplicates,
        skipInvalid: query.on_error === 'skip',
      },
      csvRecords(req, mapping, text, read),
      read,
    );
    if (queued) {
      res.status(202);
      res.setHeader('Location', `/api/v1/imports/${report.import.id}`);
    }
    return presentImport(report);
  }

  @RequiresPermission('targets.read')
  @CampaignScope('handler')
  @Audit({ action: 'import.read', resource: 'import' })
  @Get('imports/:import_id')
  @Operation(
    'retrieve_import_api_v1_imports__import_id__get',
    'Retrieve Import',
    'A CSV import: its status and progress while a job works on it, then its report.',
  )
  @ApiParam({ name: 'import_id', description: 'The ID of the import.' })
  @ApiResponse({ status: 200, type: ImportReportDto })
  async get(@Auth() auth: AuthContext, @Param('import_id') importId: string) {
    const report = await this.imports.report(auth.organizationId, importId);
    requireCampaignReach(auth, report.import.campaignId, `Import ${importId} not found`);
    return presentImport(report);
  }

  @RequiresPermission('targets.read')
  @CampaignScope('handler')
  @Audit({ action: 'import_errors.export', resource: 'import' })
  @Get('imports/:import_id/errors')
  @Operation(
    'download_import_errors_api_v1_imports__import_id__errors_get',
    'Download Import Errors (CSV)',
    "The import's row errors as a CSV file to fix the file by: row (the file's, the header being " +
      'row 1), column, value (as read) and reason; one line per error, the first 10,000 rows with errors.',
  )
  @ApiParam({ name: 'import_id', description: 'The ID of the import.' })
  @ApiProduces('text/csv')
  @ApiResponse({
    status: 200,
    description: 'row,column,value,reason',
    content: {
      'text/csv': {
        schema: {
          type: 'string',
          example:
            'row,column,value,reason\n3,Phone,617-253-121,617-253-121 is too short for a number in US\n',
        },
      },
    },
  })
  async errors(
    @Auth() auth: AuthContext,
    @Param('import_id') importId: string,
    @Res({ passthrough: true }) res: Response,
  ) {
    const report = await this.imports.report(auth.organizationId, importId);
    requireCampaignReach(auth, report.import.campaignId, `Import ${importId} not found`);
    res.setHeader('Content-Type', 'text/csv; charset=utf-8');
    res.setHeader(
      'Content-Disposition',
      `attachment; filename="import-${report.import.id}-errors.csv"`,
    );
    return stringify([ERRORS_CSV_HEADER, ...report.errors.map(errorLine)]);
  }
}

const ERRORS_CSV_HEADER = ['row', 'column', 'value', 'reason'];

/** One error as a line of the errors file: the value as read, the reason in words. */
function errorLine(e: RowError): string[] {
  const value =
    e.type === 'missing' || e.input === undefined || e.input === null
      ? ''
      : typeof e.input === 'string'
        ? e.input
        : JSON.stringify(e.input);
  return [String(e.row), e.column ?? '', value, e.msg.replace(/^Value error, /, '')];
}

export function presentImport(report: ImportReport): ImportReportDto {
  const i = report.import;
  return {
    id: i.id,
    campaign_id: i.campaignId,
    status: i.status,
    dry_run: i.dryRun,
    launch: i.launch,
    allow_duplicates: i.allowDuplicates,
    on_error: i.skipInvalid ? 'skip' : 'reject',
    columns: i.columns,
    preview: i.preview?.map(presentPreviewRow) ?? null,
    rows: i.totalRows,
    invalid_rows: i.invalidRows,
    processed_rows: i.processedRows,
    created: i.created,
    ignored_rows: i.ignoredRows,
    errors: report.errors,
    ignored: report.ignored.map((r) => ({ row: r.row, external_id: r.externalId })),
    created_at: i.createdAt.toISOString(),
    updated_at: i.updatedAt.toISOString(),
    finished_at: i.finishedAt?.toISOString() ?? null,
    failure: i.failure,
  };
}

function presentPreviewRow(p: PreviewRow): ImportPreviewRowDto {
  return {
    row: p.row,
    phone_number: p.phoneNumber,
    fallback_phone_number: p.fallbackPhoneNumber,
    external_id: p.externalId,
    time_zone: p.timeZone,
    patient: presentPatient(p.patient),
    input_data: p.inputData,
  };
}
