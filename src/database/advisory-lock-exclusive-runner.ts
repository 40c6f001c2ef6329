import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { ExclusiveRunner } from '../common/persistence/exclusive-runner.js';

/**
 * Session advisory lock keys. One key guards everything that creates or alters schema (TypeORM
 * migrations, pg-boss's schema and its queues' partitions): run concurrently from several processes,
 * pg-boss's queue creation deadlocks, so every process takes this lock and the others wait.
 */
export const SCHEMA_LOCK = 727_001;
/** The demo seed (organization, key, campaign, policy): one process seeds at a time. */
export const DEMO_SEED_LOCK = 727_002;

/** Runs `work` while this session holds `pg_advisory_lock(key)`; other processes wait for it. */
export async function withAdvisoryLock<T>(
  dataSource: DataSource,
  key: number,
  work: () => Promise<T>,
): Promise<T> {
  const runner = dataSource.createQueryRunner();
  await runner.connect();
  try {
    await runner.query('SELECT pg_advisory_lock($1)', [key]);
    try {
      return await work();
    } finally {
      // A lost connection has released the lock already; that must not hide work's own outcome.
      await runner.query('SELECT pg_advisory_unlock($1)', [key]).catch(() => undefined);
    }
  } finally {
    await runner.release();
  }
}

/** `ExclusiveRunner` on a session advisory lock keyed by the task's name (`hashtext`). */
@Injectable()
export class AdvisoryLockExclusiveRunner extends ExclusiveRunner {
  constructor(private readonly dataSource: DataSource) {
    super();
  }

  async runExclusive<T>(
    task: string,
    work: () => Promise<T>,
  ): Promise<{ ran: true; result: T } | { ran: false }> {
    const runner = this.dataSource.createQueryRunner();
    await runner.connect();
    try {
      const [{ locked }]: { locked: boolean }[] = await runner.query(
        `SELECT pg_try_advisory_lock(hashtext($1)) AS locked`,
        [task],
      );
      if (!locked) return { ran: false };
      try {
        return { ran: true, result: await work() };
      } finally {
        await runner
          .query('SELECT pg_advisory_unlock(hashtext($1))', [task])
          .catch(() => undefined);
      }
    } finally {
      await runner.release();
    }
  }
}
