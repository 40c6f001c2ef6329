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
