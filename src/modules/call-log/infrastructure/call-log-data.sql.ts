import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { rowMapper, type RowOf } from '../../../common/persistence/row-of.js';
import type { Tx } from '../../../common/persistence/unit-of-work.js';
import { blankTargetColumns, sqlExecutor } from '../../../database/sql.js';
import { CallLogData } from '../../retention/application/ports/patient-data-holders.js';
import type { PatientCallLog } from '../../retention/domain/patient-record.js';
import type { RetentionPart } from '../../retention/domain/retention-policy.js';

/** What each part blanks on a target's call logs; outcomes, dates and durations stay. */
const SET: Partial<Record<RetentionPart, string>> = {
  transcripts: `transcripts = '[]'::jsonb, post_call_data = NULL, qa = NULL`,
  recordings: `recording_urls = '{}'`,
  input_data: `agent_data = '{}'::jsonb, output_data = NULL`,
  finished_targets: `to_number = ''`,
};

/** The bigint id comes back as a string. */
type PatientCallLogRow = RowOf<Omit<PatientCallLog, 'id'>> & { id: string };

const PATIENT_CALL_LOG_COLUMNS = `id, campaign_id, target_id, to_number, outcome, transcripts,
  post_call_data, recording_urls, started_at, ended_at`;
const patientCallLogFromRow = rowMapper<PatientCallLog, PatientCallLogRow>()(
  PATIENT_CALL_LOG_COLUMNS,
  { id: (r) => Number(r.id) },
);

/** The retention module's view of `call_logs` (docs/compliance.md, "Retention"). */
@Injectable()
export class SqlCallLogData extends CallLogData {
  constructor(private readonly dataSource: DataSource) {
    super();
  }

  async purge(
    tx: Tx,
    organizationId: string,
    targetIds: string[],
    parts: RetentionPart[],
  ): Promise<Record<string, number>> {
    // One statement for every part: each call log is rewritten once.
    const sql = sqlExecutor(this.dataSource, tx);
    return blankTargetColumns(sql, 'call_logs', SET, parts, organizationId, targetIds);
  }

  async patientCallLogs(organizationId: string, targetIds: string[]): Promise<PatientCallLog[]> {
    const { rows } = await sqlExecutor(this.dataSource, null).query<PatientCallLogRow>(
      `SELECT ${PATIENT_CALL_LOG_COLUMNS}
         FROM call_logs WHERE organization_id = $1 AND target_id = ANY($2::uuid[])
        ORDER BY id`,
      [organizationId, targetIds],
    );
    return rows.map(patientCallLogFromRow);
  }
}
