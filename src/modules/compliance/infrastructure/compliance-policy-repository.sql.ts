import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { NoRows, sqlExecutor } from '../../../database/sql.js';
import { CompliancePolicyRepository } from '../application/ports/compliance-policy.repository.js';
import type { ChangeActor } from '../domain/change-actor.js';
import type { CompliancePolicy } from '../domain/compliance-policy.js';
import {
  policyDocument,
  policyFromDocument,
  type PolicyDocument,
} from '../domain/policy-document.js';

@Injectable()
export class SqlCompliancePolicyRepository extends CompliancePolicyRepository {
  constructor(private readonly dataSource: DataSource) {
    super();
  }

  async find(organizationId: string): Promise<CompliancePolicy | null> {
    const { rows } = await sqlExecutor(this.dataSource, null).query<{ policy: PolicyDocument }>(
      `SELECT policy FROM compliance_policies WHERE organization_id = $1`,
      [organizationId],
    );
    return rows.length > 0 ? policyFromDocument(rows[0].policy) : null;
  }

  async save(
    organizationId: string,
    policy: CompliancePolicy,
    at: Date,
    updatedBy: ChangeActor | null,
  ): Promise<void> {
    await sqlExecutor(this.dataSource, null).query<NoRows>(
      `INSERT INTO compliance_policies
         (organization_id, policy, updated_at, updated_by_type, updated_by_id, updated_by_name)
       VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT (organization_id) DO UPDATE
         SET policy = EXCLUDED.policy, updated_at = EXCLUDED.updated_at,
             updated_by_type = EXCLUDED.updated_by_type, updated_by_id = EXCLUDED.updated_by_id,
             updated_by_name = EXCLUDED.updated_by_name`,
      [
        organizationId,
        JSON.stringify(policyDocument(policy)),
        at,
        updatedBy?.type ?? null,
        updatedBy?.id ?? null,
        updatedBy?.name ?? null,
      ],
    );
  }
}
