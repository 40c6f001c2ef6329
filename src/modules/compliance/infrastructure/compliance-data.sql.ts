import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { rowMapper, type RowOf } from '../../../common/persistence/row-of.js';
import type { Tx } from '../../../common/persistence/unit-of-work.js';
import { NoRows, sqlExecutor } from '../../../database/sql.js';
import { ComplianceData } from '../../retention/application/ports/patient-data-holders.js';
import type {
  PatientDecision,
  PatientDoNotCallEntry,
} from '../../retention/domain/patient-record.js';

type PatientDoNotCallRow = RowOf<Omit<PatientDoNotCallEntry, 'addedAt'>> & { created_at: Date };

const DO_NOT_CALL_COLUMNS = 'id, phone_number, reason, source, created_at, removed_at';
const patientDoNotCallFromRow = rowMapper<PatientDoNotCallEntry, PatientDoNotCallRow>()(
  DO_NOT_CALL_COLUMNS,
  { id: (r) => String(r.id) },
  { created_at: 'addedAt' },
);

const DECISION_COLUMNS = 'id, campaign_id, target_id, rule, action, reason, decided_at';
const patientDecisionFromRow = rowMapper<PatientDecision>()(DECISION_COLUMNS, {
  id: (r) => String(r.id),
});

/** The retention module's view of the do-not-call list and the decisions log. */
@Injectable()
export class SqlComplianceData extends ComplianceData {
  constructor(private readonly dataSource: DataSource) {
    super();
  }

  async eraseDoNotCall(tx: Tx, organizationId: string, phoneNumbers: string[]): Promise<number> {
    const { rowCount } = await sqlExecutor(this.dataSource, tx).query<NoRows>(
      `DELETE FROM do_not_call_entries WHERE organization_id = $1 AND phone_number = ANY($2::text[])`,
      [organizationId, phoneNumbers],
    );
    return rowCount;
  }

  async doNotCallEntries(
    organizationId: string,
    phoneNumbers: string[],
  ): Promise<PatientDoNotCallEntry[]> {
    const { rows } = await sqlExecutor(this.dataSource, null).query<PatientDoNotCallRow>(
      `SELECT ${DO_NOT_CALL_COLUMNS} FROM do_not_call_entries
        WHERE organization_id = $1 AND phone_number = ANY($2::text[]) ORDER BY id`,
      [organizationId, phoneNumbers],
    );
    return rows.map(patientDoNotCallFromRow);
  }

  async decisions(organizationId: string, targetIds: string[]): Promise<PatientDecision[]> {
    const { rows } = await sqlExecutor(this.dataSource, null).query<RowOf<PatientDecision>>(
      `SELECT ${DECISION_COLUMNS} FROM compliance_decisions
        WHERE organization_id = $1 AND target_id = ANY($2::text[]) ORDER BY decided_at, id`,
      [organizationId, targetIds],
    );
    return rows.map(patientDecisionFromRow);
  }
}
