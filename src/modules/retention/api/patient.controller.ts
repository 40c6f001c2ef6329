import { Operation } from '../../../common/http/api-operation.js';
import { Audit, listedIds } from '../../../common/audit/audit.decorators.js';
import { Body, Controller, Get, HttpCode, Post, Query, Res } from '@nestjs/common';
import { ApiOkResponse, ApiProduces, ApiTags } from '@nestjs/swagger';
import { stringify } from 'csv-stringify/sync';
import type { Response } from 'express';
import { normalizePhoneNumber } from '../../../common/phone/phone-number.js';
import {
  Auth,
  type AuthContext,
  RequiresPermission,
} from '../../../common/http/auth.decorators.js';
import { PatientRecordService } from '../application/patient-record.service.js';
import { keyDocument } from '../domain/retention-documents.js';
import type { PatientKey } from '../domain/retention-run.js';
import { ErasePatientDto, PatientQueryDto } from './dto/patient.dto.js';
import { presentRecord, RECORD_CSV_HEADER, recordCsvRows } from './patient.presenter.js';
import { presentRun } from './retention.presenter.js';

/** Every target a CSV download holds (the page size is for the JSON answer). */
const CSV_TARGETS = 100_000;

const keyOf = (q: { phone_number?: string | null; external_id?: string | null }): PatientKey =>
  q.phone_number != null
    ? { phoneNumber: normalizePhoneNumber(q.phone_number) ?? q.phone_number }
    : { externalId: q.external_id! };

@ApiTags('patients')
@Controller('api/v1/patients')
export class PatientController {
  constructor(private readonly patients: PatientRecordService) {}

  @Audit({
    action: 'patient.read',
    resource: 'patient',
    refine: (req) => (req.query.format === 'csv' ? 'patient.export' : null),
    ids: listedIds('targets'),
  })
  @RequiresPermission('patients.read')
  @Get()
  @Operation(
    'get_patient_record_api_v1_patients_get',
    "One person's record across every campaign",
    'Every target of the organization with this number (either of a target’s) or external id, ' +
      'targets a page at a time, with their call logs, texts, decisions and the number’s do-not-call ' +
      'entries; `format=csv` downloads all of it as one file (docs/compliance.md, "One patient").',
  )
  @ApiProduces('application/json', 'text/csv')
  @ApiOkResponse({ description: 'The record' })
  async record(
    @Auth() auth: AuthContext,
    @Query() q: PatientQueryDto,
    @Res({ passthrough: true }) res: Response,
  ) {
    const key = keyOf(q);
    const csv = q.format === 'csv';
    const record = presentRecord(
      await this.patients.record(
        auth.organizationId,
        key,
        csv ? 0 : q.skip,
        csv ? CSV_TARGETS : q.limit,
      ),
    );
    if (csv) {
      res.setHeader('Content-Type', 'text/csv; charset=utf-8');
      res.setHeader('Content-Disposition', 'attachment; filename="patient-record.csv"');
      return stringify([RECORD_CSV_HEADER, ...recordCsvRows(record)]);
    }
    return { subject: keyDocument(key), skip: q.skip, limit: q.limit, ...record };
  }

  @Audit({
    action: 'patient.erase',
    resource: 'patient',
    ids: (_req, result) => (result as { target_ids?: string[] } | undefined)?.target_ids,
  })
  @RequiresPermission('patients.erase')
  @Post('erase')
  @HttpCode(200)
  @Operation(
    'erase_patient_api_v1_patients_erase_post',
    "Erase one person's data across every campaign",
    'Purges every part of every target with this number or external id, as the retention job ' +
      'would, and the texts from or to the number that matched no target; the do-not-call entries ' +
      'stay unless `include_do_not_call`. Answers what it erased (nothing matched: nothing erased).',
  )
  @ApiOkResponse({ description: 'What was erased, and its run record' })
  async erase(@Auth() auth: AuthContext, @Body() body: ErasePatientDto) {
    const key = keyOf(body);
    const erasure = await this.patients.erase({
      organizationId: auth.organizationId,
      key,
      reason: body.reason,
      includeDoNotCall: body.include_do_not_call && 'phoneNumber' in key,
      apiKeyId: auth.apiKeyId,
    });
    const counts = erasure.run.counts;
    const anything = Object.values(counts).some((n) => (n ?? 0) > 0);
    return {
      subject: keyDocument(key),
      erased: anything,
      detail: anything
        ? `Erased the data of ${erasure.targetIds.length} target(s)`
        : 'Nothing matched: nothing was erased',
      target_ids: erasure.targetIds,
      in_call_target_ids: erasure.inCallTargetIds,
      run: presentRun(erasure.run),
    };
  }
}
