import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { rowMapper, type RowOf } from '../../../common/persistence/row-of.js';
import type { Tx } from '../../../common/persistence/unit-of-work.js';
import { blankTargetColumns, NoRows, sqlExecutor } from '../../../database/sql.js';
import { MessageData } from '../../retention/application/ports/patient-data-holders.js';
import type { PatientMessage } from '../../retention/domain/patient-record.js';
import type { RetentionPart } from '../../retention/domain/retention-policy.js';

/** The person's number on a text: the recipient of one sent, the sender of one received. */
const BLANK_NUMBERS = `to_number = CASE WHEN direction = 'outbound' THEN '' ELSE to_number END,
                       from_number = CASE WHEN direction = 'inbound' THEN NULL ELSE from_number END`;

const SET: Partial<Record<RetentionPart, string>> = {
  messages: `body = ''`,
  finished_targets: BLANK_NUMBERS,
};

const PATIENT_MESSAGE_COLUMNS =
  'id, campaign_id, target_id, direction, to_number, from_number, body, status, created_at';
const patientMessageFromRow = rowMapper<PatientMessage>()(PATIENT_MESSAGE_COLUMNS);

/** The retention module's view of `messages` (docs/compliance.md, "Retention"). */
@Injectable()
export class SqlMessageData extends MessageData {
  constructor(private readonly dataSource: DataSource) {
    super();
  }

  async purge(
    tx: Tx,
    organizationId: string,
    targetIds: string[],
    parts: RetentionPart[],
  ): Promise<Record<string, number>> {
    const sql = sqlExecutor(this.dataSource, tx);
    return blankTargetColumns(sql, 'messages', SET, parts, organizationId, targetIds);
  }

  async eraseUnmatched(tx: Tx, organizationId: string, phoneNumber: string): Promise<number> {
    const { rowCount } = await sqlExecutor(this.dataSource, tx).query<NoRows>(
      `UPDATE messages SET body = '', ${BLANK_NUMBERS}
        WHERE organization_id = $1 AND target_id IS NULL
          AND ((direction = 'inbound' AND from_number = $2)
               OR (direction = 'outbound' AND to_number = $2))`,
      [organizationId, phoneNumber],
    );
    return rowCount;
  }

  async patientMessages(
    organizationId: string,
    targetIds: string[],
    phoneNumbers: string[],
  ): Promise<PatientMessage[]> {
    const { rows } = await sqlExecutor(this.dataSource, null).query<RowOf<PatientMessage>>(
      `SELECT ${PATIENT_MESSAGE_COLUMNS}
         FROM messages
        WHERE organization_id = $1
          AND (target_id = ANY($2::uuid[])
               OR (target_id IS NULL
                   AND ((direction = 'inbound' AND from_number = ANY($3::text[]))
                        OR (direction = 'outbound' AND to_number = ANY($3::text[])))))
        ORDER BY created_at, id`,
      [organizationId, targetIds, phoneNumbers],
    );
    return rows.map(patientMessageFromRow);
  }
}
