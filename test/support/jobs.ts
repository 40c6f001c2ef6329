import { DELIVERY_QUEUE } from '../../src/modules/webhook/application/webhook-outbox.js';
import { TestApp, waitFor } from './test-app.js';

/** pg-boss states of a job that may still run: queued, waiting to retry, or running. */
const UNFINISHED = ['created', 'retry', 'active'];

/**
 * Waits until no job that could still send one of these deliveries is left (apart from `except`,
 * jobs held by a worker that was killed). With the deliveries finished too, nothing can send them
 * again: this is the condition to wait on before asserting that a receiver got no further request.
 */
export async function waitForNoDeliveryJobs(
  t: TestApp,
  deliveryIds: string[],
  except: string[] = [],
): Promise<void> {
  await waitFor(
    () =>
      t.sql<{ id: string }>(
        `SELECT id FROM pgboss.job
          WHERE name = $1 AND state::text = ANY($2) AND data->>'deliveryId' = ANY($3)
            AND NOT (id::text = ANY($4))`,
        [DELIVERY_QUEUE, UNFINISHED, deliveryIds, except],
      ),
    (jobs) => jobs.length === 0,
  );
}

/** Ids of the unfinished jobs of these deliveries, e.g. the one a worker held when it was killed. */
export async function unfinishedDeliveryJobs(t: TestApp, deliveryIds: string[]): Promise<string[]> {
  const rows = await t.sql<{ id: string }>(
    `SELECT id FROM pgboss.job WHERE name = $1 AND state::text = ANY($2) AND data->>'deliveryId' = ANY($3)`,
    [DELIVERY_QUEUE, UNFINISHED, deliveryIds],
  );
  return rows.map((r) => r.id);
}

/** Delivery jobs whose delivery does not exist: none may be left by a rolled-back transaction. */
export async function orphanDeliveryJobs(t: TestApp): Promise<string[]> {
  const rows = await t.sql<{ id: string }>(
    `SELECT j.id FROM pgboss.job j
      WHERE j.name = $1
        AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.id::text = j.data->>'deliveryId')`,
    [DELIVERY_QUEUE],
  );
  return rows.map((r) => r.id);
}
