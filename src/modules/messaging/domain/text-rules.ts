/**
 * Whether a text may be sent now: the calling rules that protect a recipient's time apply to texts as
 * to calls (the do-not-call list, quiet hours in every one of the recipient's zones, restricted dates).
 * A text has no calling window and does not count against, or wait for, the caps on calls per number.
 */
import { decideCall, type CallingDecision } from '../../telephony/domain/calling-rules.js';
import type { CompliancePolicy } from '../../compliance/domain/compliance-policy.js';

export interface TextRulesInput {
  now: Date;
  policy: CompliancePolicy;
  /** The recipient's IANA zones (never empty). */
  zones: string[];
  doNotCallSince: Date | null;
}

export function decideText(input: TextRulesInput): CallingDecision {
  return decideCall({
    now: input.now,
    callingWindow: null,
    operatingHours: null,
    policy: { ...input.policy, maxCallsPerNumber: { per24h: null, per7d: null } },
    recipient: { zones: input.zones, stateRules: [] },
    recentCalls: [],
    doNotCallSince: input.doNotCallSince,
  });
}
