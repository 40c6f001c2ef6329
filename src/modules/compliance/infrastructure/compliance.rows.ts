import { rowMapper, type RowOf } from '../../../common/persistence/row-of.js';
import { type CompliancePolicy, DEFAULT_POLICY } from '../domain/compliance-policy.js';
import type { ComplianceDecision } from '../domain/compliance-decision.js';

/** `compliance_policies.policy`: the policy in its wire shape, so a stored row reads like the API. */
export interface StoredPolicy {
  quiet_hours: { start: string; end: string } | null;
  state_rules: boolean;
  max_calls_per_number: { per_24h: number | null; per_7d: number | null };
  restricted_dates: { date: string; reason: string }[];
  default_time_zone: string;
  /** Absent in policies stored before national numbers were read: the default, US. */
  default_country?: string;
}

export function storedPolicy(p: CompliancePolicy): StoredPolicy {
  return {
    quiet_hours: p.quietHours,
    state_rules: p.stateRules,
    max_calls_per_number: {
      per_24h: p.maxCallsPerNumber.per24h,
      per_7d: p.maxCallsPerNumber.per7d,
    },
    restricted_dates: p.restrictedDates,
    default_time_zone: p.defaultTimeZone,
    default_country: p.defaultCountry,
  };
}

export function policyFromStored(s: StoredPolicy): CompliancePolicy {
  return {
    quietHours: s.quiet_hours,
    stateRules: s.state_rules,
    maxCallsPerNumber: {
      per24h: s.max_calls_per_number.per_24h,
      per7d: s.max_calls_per_number.per_7d,
    },
    restrictedDates: s.restricted_dates,
    defaultTimeZone: s.default_time_zone,
    defaultCountry: s.default_country ?? DEFAULT_POLICY.defaultCountry,
  };
}

/** A `compliance_decisions` row as `pg` returns it: the bigint id comes back as a string. */
export type ComplianceDecisionRow = RowOf<Omit<ComplianceDecision, 'id'>> & { id: string };

export const COMPLIANCE_DECISION_COLUMNS = [
  'id',
  'organization_id',
  'campaign_id',
  'target_id',
  'rule',
  'action',
  'reason',
  'time_zone',
  'local_time',
  'deferred_until',
  'decided_at',
] as const satisfies readonly (keyof ComplianceDecisionRow)[];

export const decisionFromRow = rowMapper<ComplianceDecision, ComplianceDecisionRow>()(
  COMPLIANCE_DECISION_COLUMNS,
  { id: (r) => Number(r.id) },
);
