import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { Tx } from '../../../common/persistence/unit-of-work.js';
import { NoRows, sqlExecutor } from '../../../database/sql.js';
import { DecisionLog } from '../application/ports/decision-log.js';
import type {
  ComplianceDecision,
  DecisionQuery,
  NewComplianceDecision,
} from '../domain/compliance-decision.js';
import { queriedCampaigns } from '../domain/compliance-decision.js';
import {
  COMPLIANCE_DECISION_COLUMNS,
  decisionFromRow,
  type ComplianceDecisionRow,
} from './compliance.rows.js';

/** The query's conditions from `$1` on (organization, campaigns or null, from or null, to or null). */
const MATCHES = `organization_id = $1 AND ($2::uuid[] IS NULL OR campaign_id = ANY($2::uuid[]))
  AND ($3::timestamptz IS NULL OR decided_at >= $3) AND ($4::timestamptz IS NULL OR decided_at < $4)`;

const params = (q: DecisionQuery) => [q.organizationId, queriedCampaigns(q), q.from, q.to];

@Injectable()
export class SqlDecisionLog extends DecisionLog {
  constructor(private readonly dataSource: DataSource) {
    super();
  }

  async record(tx: Tx, decisions: NewComplianceDecision[]): Promise<void> {
    if (decisions.length === 0) return;
    await sqlExecutor(this.dataSource, tx).query<NoRows>(
      `INSERT INTO compliance_decisions (organization_id, campaign_id, target_id, rule, action, reason,
                                         time_zone, local_time, deferred_until, decided_at)
       SELECT * FROM unnest($1::uuid[], $2::uuid[], $3::text[], $4::text[], $5::text[], $6::text[],
                            $7::text[], $8::text[], $9::timestamptz[], $10::timestamptz[])`,
      [
        decisions.map((d) => d.organizationId),
        decisions.map((d) => d.campaignId),
        decisions.map((d) => d.targetId),
        decisions.map((d) => d.rule),
        decisions.map((d) => d.action),
        decisions.map((d) => d.reason),
        decisions.map((d) => d.timeZone),
        decisions.map((d) => d.localTime),
        decisions.map((d) => d.deferredUntil),
        decisions.map((d) => d.decidedAt),
      ],
    );
  }

  async page(query: DecisionQuery, skip: number, limit: number) {
    const sql = sqlExecutor(this.dataSource, null);
    const [{ rows }, { rows: count }] = await Promise.all([
      sql.query<ComplianceDecisionRow>(
        `SELECT ${COMPLIANCE_DECISION_COLUMNS} FROM compliance_decisions WHERE ${MATCHES}
          ORDER BY decided_at, id OFFSET $5 LIMIT $6`,
        [...params(query), skip, limit],
      ),
      sql.query<{ total: string }>(
        `SELECT count(*) AS total FROM compliance_decisions WHERE ${MATCHES}`,
        params(query),
      ),
    ]);
    return { decisions: rows.map(decisionFromRow), total: Number(count[0].total) };
  }

  async after(
    query: DecisionQuery,
    after: ComplianceDecision | null,
    limit: number,
  ): Promise<ComplianceDecision[]> {
    const { rows } = await sqlExecutor(this.dataSource, null).query<ComplianceDecisionRow>(
      `SELECT ${COMPLIANCE_DECISION_COLUMNS} FROM compliance_decisions
        WHERE ${MATCHES} AND ($5::timestamptz IS NULL OR (decided_at, id) > ($5, $6::bigint))
        ORDER BY decided_at, id LIMIT $7`,
      [...params(query), after?.decidedAt ?? null, after?.id ?? 0, limit],
    );
    return rows.map(decisionFromRow);
  }
}
