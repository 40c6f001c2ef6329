import type { WeekSchedule } from '../../../common/schedule/week-schedule.js';
import type { PatientInput, Target, TargetStatus } from '../domain/target.js';

/** A `targets` row as `pg` returns it (snake_case; bigint arrays come back as strings). */
export interface TargetRow {
  id: string;
  organization_id: string;
  campaign_id: string;
  external_id: string | null;
  phone_number: string | null;
  phone_operating_hours: WeekSchedule | null;
  fallback_phone_number: string | null;
  fallback_operating_hours: WeekSchedule | null;
  patient: PatientInput | null;
  pre_call_data: Record<string, unknown> | null;
  input_data: Record<string, unknown>;
  output_data: Record<string, unknown>;
  status: TargetStatus;
  current_step: string | null;
  resolution: string | null;
  category: string | null;
  subcategory: string | null;
  outcome: string | null;
  call_log_ids: (string | number)[] | null;
  last_call_date: Date | null;
  execution_seconds: number | null;
  fax_links: string[] | null;
  payor_api_data: Record<string, unknown> | null;
  pre_call_ehr_ids: Record<string, string[]> | null;
  attempts: number;
  retries: number | null;
  scheduled_time: Date | null;
  time_zone: string | null;
  hold_rule: string | null;
  hold_reason: string | null;
  call_started_at: Date | null;
  categorization: Record<string, unknown> | null;
  statistics: Record<string, unknown> | null;
  created_at: Date;
  updated_at: Date;
  purged_at: Date | null;
  purged_parts: string[];
}

/** Every column of `targets`, for `SELECT ${TARGET_COLUMNS}` and `RETURNING ${TARGET_COLUMNS}`. */
export const TARGET_COLUMNS = [
  'id',
  'organization_id',
  'campaign_id',
  'external_id',
  'phone_number',
  'phone_operating_hours',
  'fallback_phone_number',
  'fallback_operating_hours',
  'patient',
  'pre_call_data',
  'input_data',
  'output_data',
  'status',
  'current_step',
  'resolution',
  'category',
  'subcategory',
  'outcome',
  'call_log_ids',
  'last_call_date',
  'execution_seconds',
  'fax_links',
  'payor_api_data',
  'pre_call_ehr_ids',
  'attempts',
  'retries',
  'scheduled_time',
  'time_zone',
  'hold_rule',
  'hold_reason',
  'call_started_at',
  'categorization',
  'statistics',
  'created_at',
  'updated_at',
  'purged_at',
  'purged_parts',
] as const satisfies readonly (keyof TargetRow)[];

/** A `targets` row as the domain type, for adapters that read rows back (SELECT or RETURNING). */
export function targetFromRow(r: TargetRow): Target {
  return {
    id: r.id,
    organizationId: r.organization_id,
    campaignId: r.campaign_id,
    externalId: r.external_id,
    phoneNumber: r.phone_number,
    phoneOperatingHours: r.phone_operating_hours,
    fallbackPhoneNumber: r.fallback_phone_number,
    fallbackOperatingHours: r.fallback_operating_hours,
    patient: r.patient,
    preCallData: r.pre_call_data,
    inputData: r.input_data,
    outputData: r.output_data,
    status: r.status,
    currentStep: r.current_step,
    resolution: r.resolution,
    category: r.category,
    subcategory: r.subcategory,
    outcome: r.outcome,
    callLogIds: r.call_log_ids === null ? null : r.call_log_ids.map(Number),
    lastCallDate: r.last_call_date,
    executionSeconds: r.execution_seconds,
    faxLinks: r.fax_links,
    payorApiData: r.payor_api_data,
    preCallEhrIds: r.pre_call_ehr_ids,
    attempts: r.attempts,
    retries: r.retries,
    scheduledTime: r.scheduled_time,
    timeZone: r.time_zone,
    hold: r.hold_rule === null ? null : { rule: r.hold_rule, reason: r.hold_reason ?? '' },
    callStartedAt: r.call_started_at,
    categorization: r.categorization,
    statistics: r.statistics,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    purgedAt: r.purged_at,
    purgedParts: r.purged_parts ?? [],
  };
}
