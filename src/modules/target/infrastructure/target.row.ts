import type { WeekSchedule } from '../../../common/schedule/week-schedule.js';
import type { NewTarget } from '../domain/new-targets.js';
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

/**
 * Every column of `targets`, once: a `Record` over the row type, so a column added to `TargetRow` and
 * not here (or here and not there) fails to compile.
 */
const EVERY_COLUMN: Record<keyof TargetRow, true> = {
  id: true,
  organization_id: true,
  campaign_id: true,
  external_id: true,
  phone_number: true,
  phone_operating_hours: true,
  fallback_phone_number: true,
  fallback_operating_hours: true,
  patient: true,
  pre_call_data: true,
  input_data: true,
  output_data: true,
  status: true,
  current_step: true,
  resolution: true,
  category: true,
  subcategory: true,
  outcome: true,
  call_log_ids: true,
  last_call_date: true,
  execution_seconds: true,
  fax_links: true,
  payor_api_data: true,
  pre_call_ehr_ids: true,
  attempts: true,
  retries: true,
  scheduled_time: true,
  time_zone: true,
  hold_rule: true,
  hold_reason: true,
  call_started_at: true,
  categorization: true,
  statistics: true,
  created_at: true,
  updated_at: true,
  purged_at: true,
  purged_parts: true,
};

/** Every column of `targets`, for `SELECT ${TARGET_COLUMNS}` and `RETURNING ${TARGET_COLUMNS}`. */
export const TARGET_COLUMNS = Object.keys(EVERY_COLUMN) as readonly (keyof TargetRow)[];

/**
 * The columns an add writes from a `NewTarget`, once: each column's type in the JSON record set the
 * insert reads (`jsonb_to_recordset`) and its value. The insert's four column lists are built from
 * it (`newTargetInsert`), and `EVERY_NEW_FIELD` below fails to compile when a `NewTarget` field is
 * written by no column. The other columns start as a new target's domain state has them.
 */
export const NEW_TARGET_COLUMNS = {
  id: { type: 'uuid', field: 'id', value: (t) => t.id },
  organization_id: { type: 'uuid', field: 'organizationId', value: (t) => t.organizationId },
  campaign_id: { type: 'uuid', field: 'campaignId', value: (t) => t.campaignId },
  external_id: { type: 'text', field: 'externalId', value: (t) => t.externalId },
  phone_number: { type: 'text', field: 'phoneNumber', value: (t) => t.phoneNumber },
  phone_operating_hours: {
    type: 'jsonb',
    field: 'phoneOperatingHours',
    value: (t) => t.phoneOperatingHours,
  },
  fallback_phone_number: {
    type: 'text',
    field: 'fallbackPhoneNumber',
    value: (t) => t.fallbackPhoneNumber,
  },
  fallback_operating_hours: {
    type: 'jsonb',
    field: 'fallbackOperatingHours',
    value: (t) => t.fallbackOperatingHours,
  },
  time_zone: { type: 'text', field: 'timeZone', value: (t) => t.timeZone },
  patient: { type: 'jsonb', field: 'patient', value: (t) => t.patient },
  pre_call_data: { type: 'jsonb', field: 'preCallData', value: (t) => t.preCallData },
  input_data: { type: 'jsonb', field: 'inputData', value: (t) => t.inputData },
  status: { type: 'text', field: 'status', value: (t) => t.status },
  current_step: { type: 'text', field: 'currentStep', value: (t) => t.currentStep },
  scheduled_time: {
    type: 'timestamptz',
    field: 'scheduledTime',
    value: (t) => t.scheduledTime?.toISOString() ?? null,
  },
} as const satisfies {
  [C in keyof TargetRow]?: {
    type: string;
    field: keyof NewTarget;
    value: (t: NewTarget) => unknown;
  };
};

type WrittenField = (typeof NEW_TARGET_COLUMNS)[keyof typeof NEW_TARGET_COLUMNS]['field'];
/** Compiles only while every `NewTarget` field has its column above. */
export const EVERY_NEW_FIELD: Exclude<keyof NewTarget, WrittenField> extends never ? true : never =
  true;

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
