import type { Pool, PoolClient } from 'pg';

type ErrorSink = (err: Error) => void;

const GUARDED = Symbol('ccs.errorGuarded');

/**
 * Every client of a `pg` pool gets an 'error' listener of its own for its whole life. When PostgreSQL
 * terminates a connection (restart, failover, pg_terminate_backend) the client can emit 'error' while
 * checked out after its borrower (TypeORM's query runner, pg-boss) has already dropped its listener;
 * an 'error' event with no listener ends the process. The pool's own 'error' event (idle clients)
 * goes to the same sink.
 */
export function guardPool(pool: Pool, onError: ErrorSink): void {
  const guard = (client: PoolClient) => {
    const marked = client as PoolClient & { [GUARDED]?: true };
    if (marked[GUARDED]) return;
    marked[GUARDED] = true;
    client.on('error', onError);
  };
  if (!(pool as Pool & { [GUARDED]?: true })[GUARDED]) {
    (pool as Pool & { [GUARDED]?: true })[GUARDED] = true;
    pool.on('error', onError);
    pool.on('connect', guard);
  }
  // Clients opened before the guard (the driver's first connection) are guarded too.
  for (const client of (pool as unknown as { _clients?: PoolClient[] })._clients ?? [])
    guard(client);
}
