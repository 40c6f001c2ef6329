import { Client } from 'pg';
import { NotificationListener } from '../../src/database/notification-listener.js';
import { createTestDatabase, TestDatabase } from '../support/test-database.js';
import { waitFor } from '../support/test-app.js';

const LISTENER_NAME = 'ccs-test-listener';
// Embedded PGlite delivers no notifications across its socket (callers keep a poll for it).
const onPostgres = process.env.DATABASE_URL?.startsWith('postgres') ? describe : describe.skip;

onPostgres('a LISTEN connection (PostgreSQL)', () => {
  let database: TestDatabase;
  let admin: Client;

  beforeAll(async () => {
    database = await createTestDatabase();
    admin = new Client({ connectionString: database.url });
    await admin.connect();
  });
  afterAll(async () => {
    await admin?.end();
    await database?.drop();
  });

  it('is notified on commit, and again after its connection was killed (reconnects)', async () => {
    let notified = 0;
    const listener = new NotificationListener({
      url: database.url,
      channel: 'targets_due',
      applicationName: LISTENER_NAME,
      onNotification: () => notified++,
      lostMessage: 'test listener lost',
    });
    listener.start();
    try {
      const listening = () =>
        admin
          .query(
            `SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND application_name = $1
               AND query ILIKE 'LISTEN%'`,
            [LISTENER_NAME],
          )
          .then((r) => r.rows as { pid: number }[]);
      const [first] = await waitFor(listening, (rows) => rows.length === 1);
      const before = notified;
      await admin.query(`SELECT pg_notify('targets_due', '')`);
      await waitFor(
        async () => notified,
        (n) => n > before,
      );

      await admin.query(`SELECT pg_terminate_backend($1)`, [first.pid]);
      const [second] = await waitFor(
        listening,
        (rows) => rows.length === 1 && rows[0].pid !== first.pid,
      );
      expect(second.pid).not.toBe(first.pid);
      const afterReconnect = notified;
      await admin.query(`SELECT pg_notify('targets_due', '')`);
      await waitFor(
        async () => notified,
        (n) => n > afterReconnect,
      );
    } finally {
      await listener.stop();
    }
  });
});
