/** One deferral or refusal a calling rule made, as kept for an audit. */
export interface ComplianceDecision {
  id: number;
  organizationId: string;
  campaignId: string;
  targetId: string;
  rule: string;
  action: 'deferred' | 'refused';
  reason: string;
  /** The recipient zone the rule was read in, and the wall time there (`2026-11-26 06:12`). */
  timeZone: string | null;
  localTime: string | null;
  deferredUntil: Date | null;
  decidedAt: Date;
}

export type NewComplianceDecision = Omit<ComplianceDecision, 'id'>;

export interface DecisionQuery {
  organizationId: string;
  campaignId: string | null;
  /** Decided at or after. */
  from: Date | null;
  /** Decided before. */
  to: Date | null;
}
