import { Tx } from '../../../../common/persistence/unit-of-work.js';
import type {
  ComplianceDecision,
  DecisionQuery,
  NewComplianceDecision,
} from '../../domain/compliance-decision.js';

/** The calling rules' decisions, oldest first (by time, then id). */
export abstract class DecisionLog {
  abstract record(tx: Tx, decisions: NewComplianceDecision[]): Promise<void>;
  abstract page(
    query: DecisionQuery,
    skip: number,
    limit: number,
  ): Promise<{ decisions: ComplianceDecision[]; total: number }>;
  /** The next `limit` decisions after `after` (null: from the start), for exports of any length. */
  abstract after(
    query: DecisionQuery,
    after: ComplianceDecision | null,
    limit: number,
  ): Promise<ComplianceDecision[]>;
}
