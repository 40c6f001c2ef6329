import { type CompliancePolicy, DEFAULT_POLICY } from './compliance-policy.js';

/**
 * The policy in its wire shape (snake_case): what the API answers and `compliance_policies.policy`
 * stores, so a stored row reads like the API.
 */
export interface PolicyDocument {
  quiet_hours: { start: string; end: string } | null;
  state_rules: boolean;
  max_calls_per_number: { per_24h: number | null; per_7d: number | null };
  restricted_dates: { date: string; reason: string }[];
  default_time_zone: string;
  /** Absent in policies stored before national numbers were read: the default, US. */
  default_country?: string;
}

export function policyDocument(p: CompliancePolicy): PolicyDocument {
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

export function policyFromDocument(s: PolicyDocument): CompliancePolicy {
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
