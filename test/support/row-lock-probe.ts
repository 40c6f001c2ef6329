import { Client } from 'pg';

/**
 * How long a writer waits for a target's row lock while something else (the retention purge) runs:
 * until `running()` turns false, locks a random one of `ids` in a short transaction of its own, on a
 * connection of its own, and answers each wait in milliseconds.
 */
export async function rowLockWaits(
  databaseUrl: string,
  ids: string[],
  running: () => boolean,
): Promise<number[]> {
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  const waits: number[] = [];
  try {
    while (running()) {
      const id = ids[Math.floor(Math.random() * ids.length)];
      const start = performance.now();
      await client.query('BEGIN');
      await client.query('SELECT 1 FROM targets WHERE id = $1 FOR UPDATE', [id]);
      waits.push(performance.now() - start);
      await client.query('COMMIT');
    }
  } finally {
    await client.end();
  }
  return waits;
}
