import { executionMinutes, PatientInput, Target } from '../domain/target.js';
import { copyFields, PRESENTED_FIELDS, type PresentedFields } from '../domain/target-fields.js';
import type { TargetPatientResponseDto, TargetResponseDto } from './dto/target-response.dto.js';

/**
 * The wire shape of a Target (spec: Target response object): the response DTO's fields, the
 * presented fields of domain/target-fields.ts, and `pre_call_ehr_ids` where asked for.
 */
export type TargetResponse = TargetResponseDto &
  PresentedFields & { pre_call_ehr_ids?: Record<string, string[]> };

const iso = (d: Date | null): string | null => (d ? d.toISOString() : null);

/**
 * `withEhrIds`: the input-data update and the step endpoints include `pre_call_ehr_ids`; the single read
 * and the lists leave it out, as the reference service does.
 */
export function presentTarget(
  target: Target,
  publicBaseUrl: string,
  withEhrIds = false,
): TargetResponse {
  const inputPurged = target.purgedParts.includes('input_data');
  const response: Omit<TargetResponse, keyof PresentedFields> = {
    id: target.id,
    target_url: `${publicBaseUrl}/api/v1/targets/${target.id}`,
    organization_id: target.organizationId,
    campaign_id: target.campaignId,
    created_at: target.createdAt.toISOString(),
    execution_minutes: executionMinutes(target.executionSeconds),
    input_data: inputPurged ? null : target.inputData,
    output_data: inputPurged ? null : target.outputData,
    status: target.status,
    resolution: target.resolution,
    category: target.category,
    subcategory: target.subcategory,
    call_log_ids: target.callLogIds,
    last_call_date: iso(target.lastCallDate),
    phone_number: target.phoneNumber,
    fax_links: target.faxLinks,
    payor_api_data: target.payorApiData,
    external_id: target.externalId,
    updated_at: iso(target.updatedAt),
    retries: target.retries,
    scheduled_time: iso(target.scheduledTime),
    categorization: target.categorization,
    outcome: target.outcome,
    statistics: target.statistics,
    patient: presentPatient(target.patient),
  };
  copyFields(response, 'name', target, 'field', PRESENTED_FIELDS);
  if (withEhrIds) response.pre_call_ehr_ids = target.preCallEhrIds ?? {};
  if (target.purgedAt) {
    response.purged_at = target.purgedAt.toISOString();
    response.purged_parts = target.purgedParts;
  }
  return response as TargetResponse;
}

/** The patient's identity fields; null when the target was added without a patient. */
export function presentPatient(patient: PatientInput | null): TargetPatientResponseDto | null {
  if (!patient) return null;
  return {
    first_name: patient.first_name ?? null,
    last_name: patient.last_name ?? null,
    date_of_birth: patient.date_of_birth ?? null,
    external_id: patient.external_id ?? null,
  };
}
