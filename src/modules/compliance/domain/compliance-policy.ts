/**
 * An organization's calling rules (docs/compliance.md). Plain data with the defaults a US healthcare
 * team starts from: the TCPA's 08:00-21:00 in the called person's local time, the state rule pack on,
 * no caps of its own, no restricted dates, New York time for numbers whose zone cannot be known.
 */
import type { CompliancePolicy } from '../../telephony/domain/calling-policy.js';
export type {
  CallCaps,
  CompliancePolicy,
  QuietHours,
  RestrictedDate,
} from '../../telephony/domain/calling-policy.js';
export { CAP_WINDOWS_MS } from '../../telephony/domain/calling-policy.js';

export const DEFAULT_POLICY: CompliancePolicy = {
  quietHours: { start: '08:00', end: '21:00' },
  stateRules: true,
  maxCallsPerNumber: { per24h: null, per7d: null },
  restrictedDates: [],
  defaultTimeZone: 'America/New_York',
  defaultCountry: 'US',
};

/** `DEFAULT_CALLING_POLICY=unrestricted`: no quiet hours, no state rules (tests and demos only). */
export const UNRESTRICTED_POLICY: CompliancePolicy = {
  ...DEFAULT_POLICY,
  quietHours: null,
  stateRules: false,
};

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

/** What an operator should know about a policy: each weakening of the defaults, in words. */
export function policyWarnings(policy: CompliancePolicy): string[] {
  const warnings: string[] = [];
  if (policy.quietHours === null) {
    warnings.push(
      "QUIET HOURS ARE OFF: calls may be placed at any hour of the recipient's day, " +
        'outside the 08:00-21:00 the TCPA allows',
    );
  } else if (policy.quietHours.start < '08:00' || policy.quietHours.end > '21:00') {
    warnings.push(
      `quiet hours ${policy.quietHours.start}-${policy.quietHours.end} allow calls outside the ` +
        "TCPA's 08:00-21:00 in the recipient's zone",
    );
  }
  if (!policy.stateRules) {
    warnings.push('STATE RULES ARE OFF: stricter state hours and call limits are not applied');
  }
  return warnings;
}
