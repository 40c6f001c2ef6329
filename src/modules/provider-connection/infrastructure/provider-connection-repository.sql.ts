import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { RowOf } from '../../../common/persistence/row-of.js';
import { ConflictError } from '../../../common/errors/domain-errors.js';
import { NoRows, onUniqueViolation, sqlExecutor } from '../../../database/sql.js';
import {
  ConnectionChanges,
  NewConnection,
  ProviderConnectionRepository,
  StoredConnection,
} from '../application/ports/provider-connection.repository.js';
import type { Credentials, ProviderConnection } from '../domain/provider-connection.js';

/** A `provider_connections` row: the domain's fields in snake_case, the credentials in three columns. */
type ProviderConnectionRow = RowOf<Omit<ProviderConnection, 'maskedCredentials'>> & {
  credentials_ciphertext: string | null;
  credentials_key_id: string | null;
  credentials_masked: Credentials;
};

const COLUMNS = `id, organization_id, type, name, credentials_ciphertext, credentials_key_id,
  credentials_masked, settings, is_default, created_at, updated_at`;

function connectionFromRow(row: ProviderConnectionRow): StoredConnection {
  return {
    id: row.id,
    organizationId: row.organization_id,
    type: row.type,
    name: row.name,
    sealedCredentials:
      row.credentials_ciphertext === null || row.credentials_key_id === null
        ? null
        : { ciphertext: row.credentials_ciphertext, keyId: row.credentials_key_id },
    maskedCredentials: row.credentials_masked,
    settings: row.settings,
    isDefault: row.is_default,
    createdAt: new Date(row.created_at),
    updatedAt: new Date(row.updated_at),
  };
}

const CONFLICTS = {
  provider_connections_org_name_key: 'A provider connection with this name already exists',
  provider_connections_one_default_key:
    'Another default provider connection was set at the same time; try again',
};

@Injectable()
export class SqlProviderConnectionRepository extends ProviderConnectionRepository {
  constructor(private readonly dataSource: DataSource) {
    super();
  }

  private get sql() {
    return sqlExecutor(this.dataSource, null);
  }

  async create(c: NewConnection, now: Date): Promise<StoredConnection> {
    // The old default is unset by the same statement; the INSERT reads the CTE so it runs first.
    const { rows } = await onUniqueViolation(
      () =>
        this.sql.query<ProviderConnectionRow>(
          `WITH unset AS (
             UPDATE provider_connections SET is_default = false, updated_at = $10
              WHERE organization_id = $2 AND is_default AND $8::boolean
             RETURNING id
           )
           INSERT INTO provider_connections (id, organization_id, type, name, credentials_ciphertext,
             credentials_key_id, credentials_masked, settings, is_default, created_at, updated_at)
           SELECT $1, $2, $3, $4, $5, $6, $7::jsonb, $9::jsonb, $8::boolean, $10, $10
             FROM (SELECT count(*) FROM unset) AS unset_done
           RETURNING ${COLUMNS}`,
          [
            c.id,
            c.organizationId,
            c.type,
            c.name,
            c.sealedCredentials?.ciphertext ?? null,
            c.sealedCredentials?.keyId ?? null,
            JSON.stringify(c.maskedCredentials),
            c.isDefault,
            JSON.stringify(c.settings),
            now,
          ],
        ),
      CONFLICTS,
    );
    return connectionFromRow(rows[0]);
  }

  async findById(id: string): Promise<StoredConnection | null> {
    const { rows } = await this.sql.query<ProviderConnectionRow>(
      `SELECT ${COLUMNS} FROM provider_connections WHERE id = $1`,
      [id],
    );
    return rows[0] ? connectionFromRow(rows[0]) : null;
  }

  async findDefault(organizationId: string): Promise<StoredConnection | null> {
    const { rows } = await this.sql.query<ProviderConnectionRow>(
      `SELECT ${COLUMNS} FROM provider_connections WHERE organization_id = $1 AND is_default`,
      [organizationId],
    );
    return rows[0] ? connectionFromRow(rows[0]) : null;
  }

  async list(organizationId: string, offset: number, limit: number) {
    const [{ rows }, { rows: count }] = await Promise.all([
      this.sql.query<ProviderConnectionRow>(
        `SELECT ${COLUMNS} FROM provider_connections WHERE organization_id = $1
          ORDER BY created_at, id OFFSET $2 LIMIT $3`,
        [organizationId, offset, limit],
      ),
      this.sql.query<{ total: string }>(
        `SELECT count(*) AS total FROM provider_connections WHERE organization_id = $1`,
        [organizationId],
      ),
    ]);
    return { items: rows.map(connectionFromRow), total: Number(count[0].total) };
  }

  async update(
    organizationId: string,
    id: string,
    changes: ConnectionChanges,
    now: Date,
  ): Promise<StoredConnection | null> {
    // Making this one the default unsets the old default in the same statement (see create).
    const { rows } = await onUniqueViolation(
      () =>
        this.sql.query<ProviderConnectionRow>(
          `WITH unset AS (
             UPDATE provider_connections SET is_default = false, updated_at = $9
              WHERE organization_id = $1 AND is_default AND id <> $2 AND $8::boolean IS TRUE
                AND EXISTS (SELECT 1 FROM provider_connections WHERE id = $2 AND organization_id = $1)
             RETURNING id
           )
           UPDATE provider_connections SET
             name = COALESCE($3, name),
             credentials_ciphertext = COALESCE($4, credentials_ciphertext),
             credentials_key_id = COALESCE($5, credentials_key_id),
             credentials_masked = COALESCE($6::jsonb, credentials_masked),
             settings = COALESCE($7::jsonb, settings),
             is_default = COALESCE($8::boolean, is_default),
             updated_at = $9
           WHERE organization_id = $1 AND id = $2
             AND (SELECT count(*) FROM unset) >= 0
           RETURNING ${COLUMNS}`,
          [
            organizationId,
            id,
            changes.name ?? null,
            changes.sealedCredentials?.ciphertext ?? null,
            changes.sealedCredentials?.keyId ?? null,
            changes.maskedCredentials ? JSON.stringify(changes.maskedCredentials) : null,
            changes.settings ? JSON.stringify(changes.settings) : null,
            changes.isDefault ?? null,
            now,
          ],
        ),
      CONFLICTS,
    );
    return rows[0] ? connectionFromRow(rows[0]) : null;
  }

  async delete(organizationId: string, id: string): Promise<boolean> {
    try {
      const { rowCount } = await this.sql.query<NoRows>(
        `DELETE FROM provider_connections WHERE organization_id = $1 AND id = $2`,
        [organizationId, id],
      );
      return rowCount > 0;
    } catch (err) {
      // campaigns.provider_connection_id refers to it.
      if (isForeignKeyViolation(err)) {
        throw new ConflictError(
          'Campaigns place their calls through this connection; change them first',
        );
      }
      throw err;
    }
  }
}

function isForeignKeyViolation(err: unknown): boolean {
  const e = err as { code?: string; driverError?: { code?: string } };
  // foreign_key_violation, or restrict_violation should the constraint become ON DELETE RESTRICT.
  return ['23503', '23001'].includes(e?.driverError?.code ?? e?.code ?? '');
}
