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
  /** Only these campaigns (a credential limited to them); null or absent: every campaign. */
  campaignIds?: string[] | null;
  /** Decided at or after. */
  from: Date | null;
  /** Decided before. */
  to: Date | null;
}

/** The campaigns a query reaches, both filters applied: null for all of them, [] for none. */
export function queriedCampaigns(q: DecisionQuery): string[] | null {
  if (q.campaignId === null) return q.campaignIds ?? null;
  return q.campaignIds && !q.campaignIds.includes(q.campaignId) ? [] : [q.campaignId];
}
