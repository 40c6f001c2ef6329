import { createTestApp, TestApp } from '../support/test-app.js';

/**
 * The storage settings the migrations give tables and indexes that reads wait on (docs/operations.md,
 * "Autovacuum"; docs/access.md, "The audit trail").
 */
describe('storage settings', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ env: { ROLE: 'api' } });
  });
  afterAll(() => t?.close());

  const options = async (relation: string) =>
    (
      await t.sql<{ options: string[] | null }>(
        `SELECT reloptions AS options FROM pg_class WHERE oid = $1::regclass`,
        [relation],
      )
    )[0].options;

  it('vacuums targets after 1% of its rows changed, and analyzes it after 2%', async () => {
    expect(await options('targets')).toEqual([
      'autovacuum_vacuum_scale_factor=0.01',
      'autovacuum_vacuum_insert_scale_factor=0.01',
      'autovacuum_analyze_scale_factor=0.02',
    ]);
  });

  it("writes the audit trail's resource index entries as each event is inserted (no pending list)", async () => {
    expect(await options('audit_events_resource_ids')).toEqual(['fastupdate=off']);
  });
});
