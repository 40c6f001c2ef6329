import { Pool } from 'pg';
import { createTestDatabase, TestDatabase } from '../support/test-database.js';

/**
 * Many connections at once on one database, as the API, the workers and pg-boss use it. On PGlite
 * every connection shares one session, so this checks that PgliteServer keeps each connection's
 * extended-protocol exchange and transaction together (before it, this deadlocked or mixed up
 * statements: "bind message supplies 3 parameters, but prepared statement requires 2").
 */
describe('concurrent connections on the database', () => {
  let database: TestDatabase;
  let pool: Pool;
  let ended = false;
  beforeAll(async () => {
    database = await createTestDatabase();
    pool = new Pool({ connectionString: database.url, max: 10 });
    // `pool.end()` resolves once it has asked its connections to close, not once the server saw them
    // go: dropping the database (WITH FORCE) may terminate one still closing. Only that is expected.
    pool.on('error', (err) => {
      if (!ended) throw err;
    });
  });
  afterAll(async () => {
    await pool.end();
    ended = true;
    await database.drop();
  });

  it('answers every query correctly with transactions and errors in between', async () => {
    const results = await Promise.all(
      Array.from({ length: 1500 }, async (_, i) => {
        const params = Array.from({ length: 1 + (i % 4) }, (_, k) => k + i);
        const sql = `SELECT ${params.map((_, k) => `$${k + 1}::int`).join(' + ')} AS s`;
        const expected = params.reduce((a, b) => a + b, 0);
        if (i % 3 === 0) {
          const client = await pool.connect();
          try {
            await client.query('BEGIN');
            const { rows } = await client.query(sql, params);
            await client.query('SELECT $1::text AS t', ['in transaction']);
            await client.query('COMMIT');
            return rows[0].s === expected;
          } finally {
            client.release();
          }
        }
        // Every seventh exchange fails on the server first.
        const failed =
          i % 7 === 0
            ? pool.query('SELECT 1 / $1::int', [0]).then(
                () => 'no error',
                (e: Error) => e.message,
              )
            : 'division by zero';
        expect(await failed).toContain('division by zero');
        const { rows } = await pool.query(sql, params);
        return rows[0].s === expected;
      }),
    );
    expect(results.filter((ok) => !ok)).toEqual([]);
  });

  it('rolls back the transaction of a connection that goes away', async () => {
    await pool.query('CREATE TABLE IF NOT EXISTS abandoned (id int)');
    const client = await pool.connect();
    await client.query('BEGIN');
    await client.query('INSERT INTO abandoned VALUES (1)');
    client.release(new Error('drop this connection'));
    const { rows } = await pool.query('SELECT count(*)::int AS n FROM abandoned');
    expect(rows).toEqual([{ n: 0 }]);
  });
});
