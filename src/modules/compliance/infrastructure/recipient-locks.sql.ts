import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { Tx } from '../../../common/persistence/unit-of-work.js';
import { NoRows, sqlExecutor } from '../../../database/sql.js';
import { RecipientLocks } from '../application/ports/recipient-locks.js';

/** Transaction advisory locks keyed by organization and number; nothing is written. */
@Injectable()
export class SqlRecipientLocks extends RecipientLocks {
  constructor(private readonly dataSource: DataSource) {
    super();
  }

  async lock(tx: Tx, organizationId: string, phoneNumbers: string[]): Promise<void> {
    if (phoneNumbers.length === 0) return;
    await sqlExecutor(this.dataSource, tx).query<NoRows>(
      `SELECT pg_advisory_xact_lock(hashtextextended('recipient:' || $1 || ':' || n, 0))
         FROM unnest($2::text[]) AS n ORDER BY n`,
      [organizationId, [...new Set(phoneNumbers)].sort()],
    );
  }
}
