import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { Tx } from '../../../common/persistence/unit-of-work.js';
import { columnList, NoRows, pageWithTotal, sqlExecutor } from '../../../database/sql.js';
import { RetentionStore } from '../application/ports/retention.store.js';
import { policyDocument } from '../domain/retention-documents.js';
import type { RetentionPolicy, ScopedPolicy } from '../domain/retention-policy.js';
import type { RetentionRun } from '../domain/retention-run.js';
import {
  policyFromStored,
  RUN_COLUMNS,
  runFromRow,
  runParams,
  type RetentionRunRow,
  type StoredRetentionPolicy,
} from './retention.rows.js';

/** The organization's own policy has scope ''; a campaign's has its id. */
const scopeOf = (campaignId: string | null) => campaignId ?? '';

@Injectable()
export class SqlRetentionStore extends RetentionStore {
  constructor(private readonly dataSource: DataSource) {
    super();
  }

  async policies(organizationId: string, tx: Tx | null = null): Promise<ScopedPolicy[]> {
    const { rows } = await sqlExecutor(this.dataSource, tx).query<{
      campaign_id: string | null;
      policy: StoredRetentionPolicy;
    }>(
      `SELECT campaign_id, policy FROM retention_policies WHERE organization_id = $1
        ORDER BY scope`,
      [organizationId],
    );
    return rows.map((r) => ({ campaignId: r.campaign_id, policy: policyFromStored(r.policy) }));
  }

  async savePolicy(
    organizationId: string,
    campaignId: string | null,
    policy: RetentionPolicy,
    at: Date,
  ): Promise<void> {
    await sqlExecutor(this.dataSource, null).query<NoRows>(
      `INSERT INTO retention_policies (organization_id, scope, campaign_id, policy, updated_at)
       VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (organization_id, scope) DO UPDATE
         SET policy = EXCLUDED.policy, updated_at = EXCLUDED.updated_at`,
      [organizationId, scopeOf(campaignId), campaignId, JSON.stringify(policyDocument(policy)), at],
    );
  }

  async deleteCampaignPolicy(organizationId: string, campaignId: string): Promise<boolean> {
    const { rowCount } = await sqlExecutor(this.dataSource, null).query<NoRows>(
      `DELETE FROM retention_policies WHERE organization_id = $1 AND scope = $2`,
      [organizationId, scopeOf(campaignId)],
    );
    return rowCount > 0;
  }

  async organizationsWithWindows(): Promise<string[]> {
    const { rows } = await sqlExecutor(this.dataSource, null).query<{ organization_id: string }>(
      `SELECT DISTINCT organization_id FROM retention_policies
        WHERE EXISTS (SELECT 1 FROM jsonb_each(policy -> 'windows') w WHERE w.value <> 'null'::jsonb)`,
    );
    return rows.map((r) => r.organization_id);
  }

  async insertRun(tx: Tx | null, run: RetentionRun): Promise<void> {
    await sqlExecutor(this.dataSource, tx).query<NoRows>(
      `INSERT INTO retention_runs (${columnList(RUN_COLUMNS)})
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)`,
      runParams(run),
    );
  }

  async runningPurge(organizationId: string): Promise<RetentionRun | null> {
    const { rows } = await sqlExecutor(this.dataSource, null).query<RetentionRunRow>(
      `SELECT ${columnList(RUN_COLUMNS)} FROM retention_runs
        WHERE organization_id = $1 AND kind = 'purge' AND status = 'running'
        ORDER BY started_at LIMIT 1`,
      [organizationId],
    );
    return rows.length > 0 ? runFromRow(rows[0]) : null;
  }

  async addCounts(tx: Tx, runId: string, counts: Record<string, number>): Promise<void> {
    await sqlExecutor(this.dataSource, tx).query<NoRows>(
      `UPDATE retention_runs r
          SET counts = (SELECT jsonb_object_agg(k, coalesce((r.counts ->> k)::bigint, 0)
                                                  + coalesce((a.add ->> k)::bigint, 0))
                          FROM (SELECT jsonb_object_keys(r.counts || a.add) AS k) keys)
         FROM (SELECT $2::jsonb AS add) a
        WHERE r.id = $1`,
      [runId, JSON.stringify(counts)],
    );
  }

  async commitLazily(tx: Tx): Promise<void> {
    // SET LOCAL: this transaction only; the pooled connection is back to the server's setting after.
    await sqlExecutor(this.dataSource, tx).query<NoRows>(`SET LOCAL synchronous_commit = off`);
  }

  async finishRun(tx: Tx | null, runId: string, at: Date): Promise<RetentionRun> {
    const { rows } = await sqlExecutor(this.dataSource, tx).query<RetentionRunRow>(
      `UPDATE retention_runs SET status = 'finished', finished_at = $2 WHERE id = $1
       RETURNING ${columnList(RUN_COLUMNS)}`,
      [runId, at],
    );
    return runFromRow(rows[0]);
  }

  async runs(
    organizationId: string,
    skip: number,
    limit: number,
  ): Promise<{ runs: RetentionRun[]; total: number }> {
    const { rows, total } = await pageWithTotal<RetentionRunRow>(
      sqlExecutor(this.dataSource, null),
      {
        columns: RUN_COLUMNS,
        from: 'retention_runs',
        where: 'organization_id = $1',
        orderBy: 'started_at DESC, id',
        params: [organizationId],
        offset: skip,
        limit,
      },
    );
    return { runs: rows.map(runFromRow), total };
  }
}
