import { rowMapper, type RowOf } from '../../../common/persistence/row-of.js';
import type { ComplianceDecision } from '../domain/compliance-decision.js';

/** A `compliance_decisions` row as `pg` returns it: the bigint id comes back as a string. */
export type ComplianceDecisionRow = RowOf<Omit<ComplianceDecision, 'id'>> & { id: string };

/** The columns a decision is read from (`decisionFromRow` fails to compile when one is missing). */
export const COMPLIANCE_DECISION_COLUMNS = `id, organization_id, campaign_id, target_id, rule, action,
  reason, time_zone, local_time, deferred_until, decided_at`;

export const decisionFromRow = rowMapper<ComplianceDecision, ComplianceDecisionRow>()(
  COMPLIANCE_DECISION_COLUMNS,
  { id: (r) => Number(r.id) },
);
