import { DataSource } from 'typeorm';
import { dataSourceOptions } from '../../src/database/data-source.options.js';
import { ApiKeyRevocations } from '../../src/modules/organization/application/ports/api-key-revocations.js';
import { SqlOrganizationRepository } from '../../src/modules/organization/infrastructure/organization-repository.sql.js';
import { usesPglite } from '../support/test-database.js';
import { createTestApp, TestApp, waitFor } from '../support/test-app.js';

/**
 * The API-key cache: keys are kept in memory, and a key revoked by another process stops working here
 * within a second (PostgreSQL: the revoke's NOTIFY clears every process's cache; PGlite delivers no
 * NOTIFY, so keys are kept half a second there).
 */
describe('API-key cache', () => {
  let t: TestApp;
  /** Another process's connections to the same database, revoking as the CLI or another API would. */
  let elsewhere: DataSource;
  beforeAll(async () => {
    t = await createTestApp({ env: { ROLE: 'api' } });
    elsewhere = await new DataSource(dataSourceOptions(t.databaseUrl, 1)).initialize();
  });
  afterAll(async () => {
    await elsewhere?.destroy();
    await t.close();
  });

  const status = async (key: string) =>
    (await t.http().get('/api/v1/campaigns').set('X-API-Key', key)).status;
  const keyId = async (organizationId: string) =>
    (await t.sql(`SELECT id FROM api_keys WHERE organization_id = $1`, [organizationId]))[0]
      .id as string;

  it('a key revoked by another process stops working here within one second', async () => {
    const { organizationId, apiKey } = await t.createOrganization();
    expect(await status(apiKey)).toBe(200);

    const revokedAt = Date.now();
    expect(
      await new SqlOrganizationRepository(elsewhere).revokeApiKey(
        await keyId(organizationId),
        new Date(),
      ),
    ).toBe(true);
    expect(
      await waitFor(
        () => status(apiKey),
        (s) => s === 401,
        1000,
        20,
      ),
    ).toBe(401);
    expect(Date.now() - revokedAt).toBeLessThan(1000);
  });

  it('serves known keys from memory (PostgreSQL, once revocations are heard)', async () => {
    const revocations = t.app.get(ApiKeyRevocations);
    // PGlite hears no revocations: keys live half a second, and the first test shows they go.
    expect(!usesPglite() || revocations.cacheTtlMs() <= 1000).toBe(true);
    if (usesPglite()) return;
    // The listener trusts notifications once a probe from another connection came back.
    expect(
      await waitFor(
        async () => revocations.cacheTtlMs(),
        (ttl) => ttl > 1000,
      ),
    ).toBe(60_000);

    const a = await t.createOrganization();
    const b = await t.createOrganization();
    expect([await status(a.apiKey), await status(b.apiKey)]).toEqual([200, 200]);
    // Revoked behind the service's back (no notification): still honoured from memory.
    await t.sql(`UPDATE api_keys SET revoked_at = now() WHERE organization_id = $1`, [
      a.organizationId,
    ]);
    expect(await status(a.apiKey)).toBe(200);
    // Any revocation heard clears the cache: both are refused within a second.
    const revokedAt = Date.now();
    await new SqlOrganizationRepository(elsewhere).revokeApiKey(
      await keyId(b.organizationId),
      new Date(),
    );
    await waitFor(
      async () => [await status(a.apiKey), await status(b.apiKey)],
      (s) => s[0] === 401 && s[1] === 401,
      1000,
      20,
    );
    expect(Date.now() - revokedAt).toBeLessThan(1000);
  });
});
