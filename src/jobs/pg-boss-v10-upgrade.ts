import type { PgBoss } from 'pg-boss';
import { DataSource } from 'typeorm';

/**
 * Moving a job database made by pg-boss 10 (schema version 24) to pg-boss 12, in place.
 *
 * pg-boss 11 rewrote its schema and ships no migration from version 24: its release notes ask for the
 * jobs to be moved to a new schema. So, under the schema lock:
 * 1. `parkV10Schema` renames the old `pgboss` schema to `pgboss_v10` (one statement: a crash leaves
 *    either the old schema in place or the parked one, never half of each);
 * 2. pg-boss 12 installs its own schema on `start()`;
 * 3. `moveV10Jobs` recreates each old queue with its settings and moves the jobs that had not ended
 *    (created, retry, active) in batches: each batch is inserted with its ids kept, then deleted from
 *    the parked schema. pg-boss's insert skips an id it already holds, so a crash between the two
 *    repeats nothing and loses nothing. Then it drops the parked schema.
 *
 * A moved job keeps its id, data, priority, singleton key, start time and retry settings. A job that was
 * active (its worker was stopped for the upgrade) runs again from `created`: handlers are idempotent.
 * Its retry count restarts at 0, which pg-boss's insert does not take.
 */
export const PARKED_V10_SCHEMA = 'pgboss_v10';

/** pg-boss 11 and later start at schema version 25; 21-24 are pg-boss 10's. */
const FIRST_V11_SCHEMA_VERSION = 25;

const MOVE_BATCH = 1_000;

/** Parks a pg-boss 10 schema under `pgboss_v10`; true when there are old jobs to move. */
export async function parkV10Schema(dataSource: DataSource, schema: string): Promise<boolean> {
  const [{ installed, parked }] = await dataSource.query<{ installed: boolean; parked: boolean }[]>(
    `SELECT to_regclass($1) IS NOT NULL AS installed, to_regclass($2) IS NOT NULL AS parked`,
    [`${schema}.version`, `${PARKED_V10_SCHEMA}.version`],
  );
  if (installed) {
    const [{ version }] = await dataSource.query<{ version: string | number }[]>(
      `SELECT version FROM ${schema}.version`,
    );
    if (Number(version) < FIRST_V11_SCHEMA_VERSION) {
      if (parked) {
        throw new Error(
          `pg-boss: both ${schema} and ${PARKED_V10_SCHEMA} hold a pg-boss 10 schema; move or drop one`,
        );
      }
      await dataSource.query(`ALTER SCHEMA ${schema} RENAME TO ${PARKED_V10_SCHEMA}`);
      return true;
    }
  }
  return parked;
}

interface V10QueueRow {
  name: string;
  retry_limit: number | null;
  retry_delay: number | null;
  retry_backoff: boolean | null;
  expire_seconds: number | null;
  retention_minutes: number | null;
}

interface V10JobRow {
  id: string;
  name: string;
  priority: number;
  data: object | null;
  retry_limit: number;
  retry_delay: number;
  retry_backoff: boolean;
  start_after: Date;
  singleton_key: string | null;
  expire_seconds: number;
}

/** Moves the parked pg-boss 10 queues and unfinished jobs into pg-boss 12, then drops the parked schema. */
export async function moveV10Jobs(dataSource: DataSource, boss: PgBoss): Promise<number> {
  const queues = await dataSource.query<V10QueueRow[]>(
    `SELECT name, retry_limit, retry_delay, retry_backoff, expire_seconds, retention_minutes
       FROM ${PARKED_V10_SCHEMA}.queue ORDER BY name`,
  );
  for (const queue of queues) {
    if (await boss.getQueue(queue.name)) continue;
    const settings = {
      retryLimit: queue.retry_limit,
      retryDelay: queue.retry_delay,
      retryBackoff: queue.retry_backoff,
      expireInSeconds: queue.expire_seconds,
      retentionSeconds: queue.retention_minutes === null ? null : queue.retention_minutes * 60,
    };
    // pg-boss checks every option it is given: a setting the old queue left unset is left out.
    await boss.createQueue(
      queue.name,
      Object.fromEntries(Object.entries(settings).filter(([, value]) => value !== null)),
    );
  }
  let moved = 0;
  for (;;) {
    const jobs = await dataSource.query<V10JobRow[]>(
      `SELECT id, name, priority, data, retry_limit, retry_delay, retry_backoff, start_after,
              singleton_key, extract(epoch FROM expire_in)::int AS expire_seconds
         FROM ${PARKED_V10_SCHEMA}.job
        WHERE state IN ('created', 'retry', 'active')
        ORDER BY id LIMIT $1`,
      [MOVE_BATCH],
    );
    for (const [name, ofQueue] of Map.groupBy(jobs, (job) => job.name)) {
      await boss.insert(
        name,
        ofQueue.map((job) => ({
          id: job.id,
          data: job.data ?? undefined,
          priority: job.priority,
          retryLimit: job.retry_limit,
          retryDelay: job.retry_delay,
          retryBackoff: job.retry_backoff,
          startAfter: job.start_after,
          singletonKey: job.singleton_key ?? undefined,
          expireInSeconds: job.expire_seconds,
        })),
      );
    }
    await dataSource.query(`DELETE FROM ${PARKED_V10_SCHEMA}.job WHERE id = ANY($1::uuid[])`, [
      jobs.map((job) => job.id),
    ]);
    moved += jobs.length;
    if (jobs.length < MOVE_BATCH) break;
  }
  await dataSource.query(`DROP SCHEMA ${PARKED_V10_SCHEMA} CASCADE`);
  return moved;
}
