import { DataSource } from 'typeorm';
import { dataSourceOptions } from '../../src/database/data-source.options.js';
import {
  enableStatementPreparation,
  NoRows,
  preparedSql,
  preparesStatements,
  sqlExecutor,
} from '../../src/database/sql.js';
import { usesPglite } from '../support/test-database.js';
import { createTestApp, TestApp } from '../support/test-app.js';

/**
 * Prepared statements (`PreparedSql`): on PostgreSQL each connection parses and plans a hot statement
 * once; on embedded PGlite (one session behind every connection) they run unprepared. Either way the
 * answers are the same, and a statement that no longer fits the server (a migration changed a column
 * beside this process, a session reset) is answered, not failed.
 */
describe('Prepared statements', () => {
  let t: TestApp;
  /** One connection, so the session's prepared statements can be read back on it. */
  let single: DataSource;
  const probe = preparedSql('prepared_probe_all', 'SELECT * FROM prepared_probe ORDER BY a');
  const run = () => sqlExecutor(single, null).query<Record<string, number>>(probe);
  const preparedNames = async () =>
    (
      await sqlExecutor(single, null).query<{ name: string }>(
        'SELECT name FROM pg_prepared_statements ORDER BY name',
      )
    ).rows.map((r) => r.name);

  beforeAll(async () => {
    t = await createTestApp({ env: { ROLE: 'api' } });
    single = await new DataSource(dataSourceOptions(t.databaseUrl, 1)).initialize();
    await enableStatementPreparation(single);
  });
  afterAll(async () => {
    await single?.destroy();
    await t.close();
  });
  beforeEach(async () => {
    await t.sql('DROP TABLE IF EXISTS prepared_probe');
    await t.sql('CREATE TABLE prepared_probe (a integer)');
    await t.sql('INSERT INTO prepared_probe VALUES (1), (2)');
  });

  it('prepares on PostgreSQL only, and the app reads targets and campaigns through them', async () => {
    expect(preparesStatements(single)).toBe(!usesPglite());
    expect(preparesStatements(t.app.get(DataSource))).toBe(!usesPglite());

    expect((await run()).rows).toEqual([{ a: 1 }, { a: 2 }]);
    expect(await preparedNames()).toEqual(usesPglite() ? [] : ['prepared_probe_all']);

    const { apiKey } = await t.createOrganization();
    const campaign = await t.createCampaign(apiKey);
    const [id] = await t.addTargets(apiKey, campaign.id, {
      targets: [{ phone_number: '+15555550123', input_data: { first_name: 'Ada' } }],
    });
    const read = () => t.http().get(`/api/v1/targets/${id}`).set('X-API-Key', apiKey);
    const first = await read();
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({
      id,
      campaign_id: campaign.id,
      phone_number: '+15555550123',
      input_data: { first_name: 'Ada' },
    });
    // Several reads on each connection of the pool: prepared once, then bound and run, same answer.
    const reads = await Promise.all(Array.from({ length: 30 }, read));
    for (const res of reads) {
      expect(res.status).toBe(200);
      expect(res.body).toEqual(first.body);
    }
    const other = await t.createOrganization();
    const foreign = await t.http().get(`/api/v1/targets/${id}`).set('X-API-Key', other.apiKey);
    expect(foreign.status).toBe(404);
  });

  it('answers after a migration beside it changes what a prepared statement returns', async () => {
    expect((await run()).rows).toEqual([{ a: 1 }, { a: 2 }]);
    // PostgreSQL refuses the prepared plan now ("cached plan must not change result type"): the
    // connection is closed and the statement answered unprepared, then prepared again.
    await t.sql('ALTER TABLE prepared_probe ADD COLUMN b integer NOT NULL DEFAULT 7');
    expect((await run()).rows).toEqual([
      { a: 1, b: 7 },
      { a: 2, b: 7 },
    ]);
    expect((await run()).rows).toEqual([
      { a: 1, b: 7 },
      { a: 2, b: 7 },
    ]);
    expect(await preparedNames()).toEqual(usesPglite() ? [] : ['prepared_probe_all']);
  });

  it('answers after the session forgot its prepared statements', async () => {
    expect((await run()).rows).toEqual([{ a: 1 }, { a: 2 }]);
    await sqlExecutor(single, null).query<NoRows>('DEALLOCATE ALL');
    expect((await run()).rows).toEqual([{ a: 1 }, { a: 2 }]);
    expect((await run()).rows).toEqual([{ a: 1 }, { a: 2 }]);
  });

  it('a name stands for one text', () => {
    expect(preparedSql('prepared_probe_all', 'SELECT * FROM prepared_probe ORDER BY a')).toEqual(
      probe,
    );
    expect(() => preparedSql('prepared_probe_all', 'SELECT 1')).toThrow(/another text/);
  });

  it('a failing prepared statement fails as any statement does, and its connection stays', async () => {
    const missing = preparedSql('prepared_probe_missing', 'SELECT * FROM no_such_table');
    await expect(sqlExecutor(single, null).query<NoRows>(missing)).rejects.toMatchObject({
      name: 'QueryFailedError',
      driverError: expect.objectContaining({ code: '42P01' }),
    });
    expect((await run()).rows).toEqual([{ a: 1 }, { a: 2 }]);
  });
});
