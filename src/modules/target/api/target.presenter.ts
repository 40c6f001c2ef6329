import { executionMinutes, PatientInput, Target } from '../domain/target.js';

/** Who the target is, as given when it was added (an added field: the reference has no patient). */
export interface PatientResponse {
  first_name: string | null;
  last_name: string | null;
  date_of_birth: string | null;
  external_id: string | null;
}

/** The wire shape of a Target (spec: Target response object), field for field. */
export interface TargetResponse {
  id: string;
  target_url: string;
  organization_id: string;
  campaign_id: string;
  created_at: string;
  execution_minutes: number | null;
  /** Null once the retention purge removed it (`purged_parts` includes `input_data`). */
  input_data: Record<string, unknown> | null;
  output_data: Record<string, unknown> | null;
  status: string;
  resolution: string | null;
  category: string | null;
  subcategory: string | null;
  call_log_ids: number[] | null;
  last_call_date: string | null;
  phone_number: string | null;
  fax_links: string[] | null;
  payor_api_data: Record<string, unknown> | null;
  external_id: string | null;
  pre_call_ehr_ids?: Record<string, string[]> | null;
  updated_at: string | null;
  retries: number | null;
  scheduled_time: string | null;
  categorization: Record<string, unknown> | null;
  outcome: string | null;
  statistics: Record<string, unknown> | null;
  patient: PatientResponse | null;
  /** Only on a target the retention purge (or an erasure) reached: when, and which parts. */
  purged_at?: string;
  purged_parts?: string[];
}

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
  const response: TargetResponse = {
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
  if (withEhrIds) response.pre_call_ehr_ids = target.preCallEhrIds ?? {};
  if (target.purgedAt) {
    response.purged_at = target.purgedAt.toISOString();
    response.purged_parts = target.purgedParts;
  }
  return response;
}

/** The patient's identity fields; null when the target was added without a patient. */
export function presentPatient(patient: PatientInput | null): PatientResponse | null {
  if (!patient) return null;
  return {
    first_name: patient.first_name ?? null,
    last_name: patient.last_name ?? null,
    date_of_birth: patient.date_of_birth ?? null,
    external_id: patient.external_id ?? null,
  };
}
