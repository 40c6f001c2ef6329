import { freshTargetState, type NewTarget } from '../domain/new-targets.js';
import type { Target } from '../domain/target.js';
import { type AddedFieldName, copyFields, FIELDS } from '../domain/target-fields.js';
import { RowOf, snakeCase } from '../../../common/persistence/row-of.js';

/**
 * A `targets` row as `pg` returns it: each `Target` field under its column (its name in snake_case),
 * as the domain has it, but bigint arrays (`call_log_ids`) come back as strings and the hold is two
 * columns.
 */
export type TargetRow = RowOf<Omit<Target, 'callLogIds' | 'hold'>> & {
  call_log_ids: (string | number)[] | null;
  hold_rule: string | null;
  hold_reason: string | null;
};

/**
 * Each column the add writes from a `NewTarget`: its type in the JSON record set the insert reads
 * (`jsonb_to_recordset`) and its value, read by name (a loop reading fields by a variable name made
 * the add's records a third slower to build). A `Record` over `NewTarget`'s fields but those of
 * target-fields.ts (whose columns follow), so a field written by no column fails to compile. The
 * other columns start as a new target's domain state (`freshTargetState`) has them.
 */
const WRITTEN: {
  [F in Exclude<keyof NewTarget, AddedFieldName>]: [type: string, value: (t: NewTarget) => unknown];
} = {
  id: ['uuid', (t) => t.id],
  organizationId: ['uuid', (t) => t.organizationId],
  campaignId: ['uuid', (t) => t.campaignId],
  externalId: ['text', (t) => t.externalId],
  phoneNumber: ['text', (t) => t.phoneNumber],
  phoneOperatingHours: ['jsonb', (t) => t.phoneOperatingHours],
  fallbackPhoneNumber: ['text', (t) => t.fallbackPhoneNumber],
  fallbackOperatingHours: ['jsonb', (t) => t.fallbackOperatingHours],
  patient: ['jsonb', (t) => t.patient],
  status: ['text', (t) => t.status],
  currentStep: ['text', (t) => t.currentStep],
  scheduledTime: ['timestamptz', (t) => t.scheduledTime?.toISOString() ?? null],
};

/** The add's columns, its insert's four column lists and its records are built from. */
export const NEW_TARGET_COLUMNS: readonly {
  column: string;
  type: string;
  value: (t: NewTarget) => unknown;
}[] = [
  ...Object.entries(WRITTEN).map(([field, [type, value]]) => ({
    column: snakeCase(field),
    type,
    value,
  })),
  ...FIELDS.map((f) => ({
    column: f.name,
    type: f.type === 'string' ? 'text' : 'jsonb',
    value: (t: NewTarget) => (t as unknown as Record<string, unknown>)[f.field],
  })),
];

/**
 * Every column of `targets`, for `SELECT ${TARGET_COLUMNS}` and `RETURNING ${TARGET_COLUMNS}`: a
 * `Target` is its `NewTarget` fields, its fresh state's and its two times, each compiled to cover its
 * share of the fields.
 */
export const TARGET_COLUMNS = [
  ...NEW_TARGET_COLUMNS.map((c) => c.column),
  ...Object.keys(freshTargetState()).flatMap((f) =>
    f === 'hold' ? ['hold_rule', 'hold_reason'] : [snakeCase(f)],
  ),
  'created_at',
  'updated_at',
] as readonly (keyof TargetRow)[];

/** A `targets` row as the domain type, for adapters that read rows back (SELECT or RETURNING). */
export function targetFromRow(r: TargetRow): Target {
  const target: Omit<Target, AddedFieldName> = {
    id: r.id,
    organizationId: r.organization_id,
    campaignId: r.campaign_id,
    externalId: r.external_id,
    phoneNumber: r.phone_number,
    phoneOperatingHours: r.phone_operating_hours,
    fallbackPhoneNumber: r.fallback_phone_number,
    fallbackOperatingHours: r.fallback_operating_hours,
    patient: r.patient,
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
    hold: r.hold_rule === null ? null : { rule: r.hold_rule, reason: r.hold_reason ?? '' },
    callStartedAt: r.call_started_at,
    categorization: r.categorization,
    statistics: r.statistics,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    purgedAt: r.purged_at,
    purgedParts: r.purged_parts ?? [],
  };
  return copyFields(target, 'field', r, 'name') as Target;
}
