import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { Tx } from '../../../common/persistence/unit-of-work.js';
import { NoRows, sqlExecutor } from '../../../database/sql.js';
import { WebhookData } from '../../retention/application/ports/patient-data-holders.js';
import type { RetentionPart } from '../../retention/domain/retention-policy.js';

/**
 * The retention module's view of the stored webhooks (docs/compliance.md, "Retention"). Payloads
 * carry ids, statuses and categories only (no input data, transcript or text body), so they stay;
 * what a receiver answered is kept as an excerpt and may echo anything: it goes with the target row.
 */
@Injectable()
export class SqlWebhookData extends WebhookData {
  constructor(private readonly dataSource: DataSource) {
    super();
  }

  async purge(
    tx: Tx,
    organizationId: string,
    targetIds: string[],
    parts: RetentionPart[],
  ): Promise<Record<string, number>> {
    if (!parts.includes('finished_targets')) return {};
    const { rowCount } = await sqlExecutor(this.dataSource, tx).query<NoRows>(
      `UPDATE webhook_delivery_attempts a SET response_excerpt = NULL
         FROM webhook_deliveries d JOIN webhook_events e ON e.id = d.event_id
        WHERE a.delivery_id = d.id AND e.organization_id = $1 AND e.target_id = ANY($2::uuid[])
          AND a.response_excerpt IS NOT NULL`,
      [organizationId, targetIds],
    );
    return { webhook_delivery_attempts: rowCount };
  }
}
