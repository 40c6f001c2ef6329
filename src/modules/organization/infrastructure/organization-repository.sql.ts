import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { rowMapper, type RowOf } from '../../../common/persistence/row-of.js';
import { API_KEYS_REVOKED_CHANNEL } from './api-key-revocations.sql.js';
import { NoRows, onUniqueViolation, sqlExecutor } from '../../../database/sql.js';
import { OrganizationRepository } from '../application/ports/organization.repository.js';
import {
  ApiKeyGrant,
  ApiKeyRecord,
  LAST_USED_PRECISION_MS,
  Organization,
} from '../domain/api-key.js';

type OrganizationRow = RowOf<Organization>;
type ApiKeyRow = RowOf<ApiKeyRecord>;

const ORGANIZATION_COLUMNS = 'id, name, created_at';
/** Never the hash: nothing outside the lookup needs it. */
const API_KEY_COLUMNS =
  'id, organization_id, name, key_prefix, created_at, last_used_at, revoked_at, role, campaign_ids, expires_at, created_by';

const organizationFromRow = rowMapper<Organization>()(ORGANIZATION_COLUMNS);
const apiKeyFromRow = rowMapper<ApiKeyRecord>()(API_KEY_COLUMNS);

@Injectable()
export class SqlOrganizationRepository extends OrganizationRepository {
  constructor(private readonly dataSource: DataSource) {
    super();
  }

  private get sql() {
    return sqlExecutor(this.dataSource, null);
  }

  async createOrganization(name: string, now: Date): Promise<Organization> {
    const { rows } = await onUniqueViolation(
      () =>
        this.sql.query<OrganizationRow>(
          `INSERT INTO organizations (name, created_at) VALUES ($1, $2)
           RETURNING ${ORGANIZATION_COLUMNS}`,
          [name, now],
        ),
      { organizations_name_key: `Organization "${name}" already exists` },
    );
    return organizationFromRow(rows[0]);
  }

  async findOrganizationById(id: string): Promise<Organization | null> {
    const { rows } = await this.sql.query<OrganizationRow>(
      `SELECT ${ORGANIZATION_COLUMNS} FROM organizations WHERE id = $1`,
      [id],
    );
    return rows[0] ? organizationFromRow(rows[0]) : null;
  }

  async findOrganizationByName(name: string): Promise<Organization | null> {
    const { rows } = await this.sql.query<OrganizationRow>(
      `SELECT ${ORGANIZATION_COLUMNS} FROM organizations WHERE name = $1`,
      [name],
    );
    return rows[0] ? organizationFromRow(rows[0]) : null;
  }

  async listOrganizations(): Promise<Organization[]> {
    const { rows } = await this.sql.query<OrganizationRow>(
      `SELECT ${ORGANIZATION_COLUMNS} FROM organizations ORDER BY created_at, id`,
    );
    return rows.map(organizationFromRow);
  }

  async saveApiKey(
    key: { organizationId: string; keyPrefix: string; keyHash: string } & ApiKeyGrant,
    now: Date,
  ): Promise<ApiKeyRecord> {
    // Insert unless the hash exists. A conflict means the other row is committed (the insert waited
    // for its transaction), but a statement's snapshot is taken before that wait: a read in the same
    // statement (a CTE's UNION) would miss a row another process committed meanwhile. So the stored
    // row is read by a statement of its own, whose snapshot has it.
    const inserted = await this.sql.query<ApiKeyRow>(
      `INSERT INTO api_keys (organization_id, name, key_prefix, key_hash, created_at,
                             role, campaign_ids, expires_at, created_by)
       VALUES ($1, $2, $3, $4, $5, $6, $7::uuid[], $8, $9)
       ON CONFLICT (key_hash) DO NOTHING
       RETURNING ${API_KEY_COLUMNS}`,
      [
        key.organizationId,
        key.name,
        key.keyPrefix,
        key.keyHash,
        now,
        key.role,
        key.campaignIds,
        key.expiresAt,
        key.createdBy,
      ],
    );
    if (inserted.rows[0]) return apiKeyFromRow(inserted.rows[0]);
    const { rows } = await this.sql.query<ApiKeyRow>(
      `SELECT ${API_KEY_COLUMNS} FROM api_keys WHERE key_hash = $1`,
      [key.keyHash],
    );
    return apiKeyFromRow(rows[0]);
  }

  async findActiveApiKeyByHash(keyHash: string): Promise<ApiKeyRecord | null> {
    const { rows } = await this.sql.query<ApiKeyRow>(
      `SELECT ${API_KEY_COLUMNS} FROM api_keys WHERE key_hash = $1 AND revoked_at IS NULL`,
      [keyHash],
    );
    return rows[0] ? apiKeyFromRow(rows[0]) : null;
  }

  async listApiKeys(organizationId: string): Promise<ApiKeyRecord[]> {
    const { rows } = await this.sql.query<ApiKeyRow>(
      `SELECT ${API_KEY_COLUMNS} FROM api_keys WHERE organization_id = $1 ORDER BY created_at, id`,
      [organizationId],
    );
    return rows.map(apiKeyFromRow);
  }

  async touchApiKey(id: string, now: Date): Promise<void> {
    // The condition is re-checked under the row lock: concurrent requests make one write, not many.
    await this.sql.query<NoRows>(
      `UPDATE api_keys SET last_used_at = $3
        WHERE id = $1
          AND (last_used_at IS NULL
               OR last_used_at <= $3::timestamptz - $2 * interval '1 millisecond')`,
      [id, LAST_USED_PRECISION_MS, now],
    );
  }

  async revokeApiKey(id: string, now: Date, organizationId?: string): Promise<boolean> {
    const { rowCount } = await this.sql.query<NoRows>(
      // Every process's key cache hears of it when this commits (SqlApiKeyRevocations).
      `UPDATE api_keys SET revoked_at = $4
        WHERE id = $1 AND revoked_at IS NULL AND ($2::uuid IS NULL OR organization_id = $2)
        RETURNING pg_notify($3, 'revoked')`,
      [id, organizationId ?? null, API_KEYS_REVOKED_CHANNEL, now],
    );
    return rowCount > 0;
  }
}
