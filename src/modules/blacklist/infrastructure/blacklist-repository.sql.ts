import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { NoRows, onUniqueViolation, pageWithTotal, sqlExecutor } from '../../../database/sql.js';
import { Blacklist, BlacklistEntry, ORGANIZATION_LEVEL } from '../domain/blacklist.js';
import { BlacklistRepository } from '../application/ports/blacklist.repository.js';
import {
  BLACKLIST_COLUMNS,
  BLACKLIST_PHONE_NUMBER_COLUMNS,
  blacklistFromRow,
  BlacklistPhoneNumberRow,
  BlacklistRow,
} from './blacklist.row.js';

const COLUMN_LIST = BLACKLIST_COLUMNS.join(', ');

@Injectable()
export class SqlBlacklistRepository extends BlacklistRepository {
  constructor(private readonly dataSource: DataSource) {
    super();
  }

  private get sql() {
    return sqlExecutor(this.dataSource, null);
  }

  async create(
    organizationId: string,
    name: string,
    description: string | null,
    now: Date,
  ): Promise<Blacklist> {
    const { rows } = await onUniqueViolation(
      () =>
        this.sql.query<BlacklistRow>(
          `INSERT INTO blacklists (organization_id, name, description, created_at, updated_at)
           VALUES ($1, $2, $3, $4, $4)
           RETURNING ${COLUMN_LIST}`,
          [organizationId, name, description, now],
        ),
      {},
      'Blacklist already exists',
    );
    return blacklistFromRow(rows[0]);
  }

  async findById(id: string): Promise<Blacklist | null> {
    const { rows } = await this.sql.query<BlacklistRow>(
      `SELECT ${COLUMN_LIST} FROM blacklists WHERE id = $1`,
      [id],
    );
    return rows.length > 0 ? blacklistFromRow(rows[0]) : null;
  }

  async list(organizationId: string, offset: number, limit: number) {
    const { rows, total } = await pageWithTotal<BlacklistRow>(this.sql, {
      columns: BLACKLIST_COLUMNS,
      from: 'blacklists',
      where: 'organization_id = $1',
      orderBy: 'created_at, id',
      params: [organizationId],
      offset,
      limit,
    });
    return { items: rows.map(blacklistFromRow), total };
  }

  async existingIds(organizationId: string, ids: string[]): Promise<Set<string>> {
    const { rows } = await this.sql.query<{ id: string }>(
      `SELECT id FROM blacklists WHERE organization_id = $1 AND id = ANY($2::uuid[])`,
      [organizationId, ids],
    );
    return new Set(rows.map((r) => r.id));
  }

  async upsertEntries(blacklistId: string, entries: BlacklistEntry[], now: Date) {
    const { rows } = await this.sql.query<{ inserted: boolean }>(
      `INSERT INTO blacklist_phone_numbers
         (blacklist_id, phone_number, reason, level, name, comment, created_at)
       SELECT $1, e.phone_number, e.reason, e.level, e.name, e.comment, $3
         FROM jsonb_to_recordset($2::jsonb)
           AS e(phone_number text, reason text, level text, name text, comment text)
       ON CONFLICT (blacklist_id, phone_number) DO UPDATE
         SET reason = EXCLUDED.reason, level = EXCLUDED.level, name = EXCLUDED.name, comment = EXCLUDED.comment
       RETURNING (xmax = 0) AS inserted`,
      [blacklistId, JSON.stringify(entries), now],
    );
    const added = rows.filter((r) => r.inserted).length;
    await this.sql.query<NoRows>(`UPDATE blacklists SET updated_at = $2 WHERE id = $1`, [
      blacklistId,
      now,
    ]);
    return { added, updated: rows.length - added };
  }

  async removeEntries(blacklistId: string, phoneNumbers: string[]): Promise<number> {
    const { rowCount } = await this.sql.query<NoRows>(
      `DELETE FROM blacklist_phone_numbers WHERE blacklist_id = $1 AND phone_number = ANY($2::text[])`,
      [blacklistId, phoneNumbers],
    );
    return rowCount;
  }

  async listEntries(blacklistId: string, skip: number, limit: number) {
    const { rows, total } = await pageWithTotal<BlacklistPhoneNumberRow>(this.sql, {
      columns: BLACKLIST_PHONE_NUMBER_COLUMNS,
      from: 'blacklist_phone_numbers',
      where: 'blacklist_id = $1',
      orderBy: 'created_at, phone_number',
      params: [blacklistId],
      offset: skip,
      limit,
    });
    return { items: rows, total };
  }

  async findBlacklisted(
    organizationId: string,
    blacklistIds: string[],
    phoneNumbers: string[],
  ): Promise<Set<string>> {
    // By number first (its index), then the entry's list: named, or the organization's at its level.
    const { rows } = await this.sql.query<{ phone_number: string }>(
      `SELECT DISTINCT e.phone_number
         FROM blacklist_phone_numbers e
         JOIN blacklists b ON b.id = e.blacklist_id
        WHERE e.phone_number = ANY($3::text[])
          AND b.organization_id = $1
          AND (e.blacklist_id = ANY($2::uuid[]) OR lower(e.level) = $4)`,
      [organizationId, blacklistIds, phoneNumbers, ORGANIZATION_LEVEL],
    );
    return new Set(rows.map((r) => r.phone_number));
  }
}
