import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { WeekSchedule } from '../../../common/schedule/week-schedule';
import type { PatientInput, Target, TargetStatus } from '../domain/target';

const bigintArray = {
  to: (v: number[] | null) => v,
  from: (v: (string | number)[] | null) => (v === null ? null : v.map(Number)),
};

@Entity('targets')
export class TargetOrmEntity {
  @PrimaryColumn('uuid') id: string;
  @Column('uuid', { name: 'organization_id' }) organizationId: string;
  @Column('uuid', { name: 'campaign_id' }) campaignId: string;
  @Column('text', { name: 'external_id', nullable: true }) externalId: string | null;
  @Column('text', { name: 'phone_number', nullable: true }) phoneNumber: string | null;
  @Column('jsonb', { name: 'phone_operating_hours', nullable: true })
  phoneOperatingHours: WeekSchedule | null;
  @Column('text', { name: 'fallback_phone_number', nullable: true }) fallbackPhoneNumber:
    string | null;
  @Column('jsonb', { name: 'fallback_operating_hours', nullable: true })
  fallbackOperatingHours: WeekSchedule | null;
  @Column('jsonb', { nullable: true }) patient: PatientInput | null;
  @Column('jsonb', { name: 'pre_call_data', nullable: true }) preCallData: Record<
    string,
    unknown
  > | null;
  @Column('jsonb', { name: 'input_data' }) inputData: Record<string, unknown>;
  @Column('jsonb', { name: 'output_data' }) outputData: Record<string, unknown>;
  @Column('text') status: TargetStatus;
  @Column('text', { name: 'current_step', nullable: true }) currentStep: string | null;
  @Column('text', { nullable: true }) resolution: string | null;
  @Column('text', { nullable: true }) category: string | null;
  @Column('text', { nullable: true }) subcategory: string | null;
  @Column('text', { nullable: true }) outcome: string | null;
  @Column('bigint', { name: 'call_log_ids', array: true, nullable: true, transformer: bigintArray })
  callLogIds: number[] | null;
  @Column('timestamptz', { name: 'last_call_date', nullable: true }) lastCallDate: Date | null;
  @Column('integer', { name: 'execution_seconds', nullable: true }) executionSeconds: number | null;
  @Column('text', { name: 'fax_links', array: true, nullable: true }) faxLinks: string[] | null;
  @Column('jsonb', { name: 'payor_api_data', nullable: true }) payorApiData: Record<
    string,
    unknown
  > | null;
  @Column('jsonb', { name: 'pre_call_ehr_ids', nullable: true }) preCallEhrIds: Record<
    string,
    string[]
  > | null;
  @Column('integer') attempts: number;
  @Column('integer', { nullable: true }) retries: number | null;
  @Column('timestamptz', { name: 'scheduled_time', nullable: true }) scheduledTime: Date | null;
  @Column('timestamptz', { name: 'call_started_at', nullable: true }) callStartedAt: Date | null;
  @Column('jsonb', { nullable: true }) categorization: Record<string, unknown> | null;
  @Column('jsonb', { nullable: true }) statistics: Record<string, unknown> | null;
  @Column('timestamptz', { name: 'created_at' }) createdAt: Date;
  @Column('timestamptz', { name: 'updated_at' }) updatedAt: Date;
}

/** Entity and domain type have the same fields; the copy keeps TypeORM's class out of the domain. */
export function toTarget(e: TargetOrmEntity): Target {
  return { ...e };
}

/**
 * Maps a raw `SELECT * FROM targets` row (snake_case, as `pg` returns it) to the domain type, for
 * adapters that run set-based SQL and read rows back with RETURNING.
 */
export function targetFromRow(r: Record<string, any>): Target {
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
    callStartedAt: r.call_started_at,
    categorization: r.categorization,
    statistics: r.statistics,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}
