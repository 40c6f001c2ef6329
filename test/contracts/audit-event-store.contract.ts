import { randomUUID } from 'crypto';
import type {
  AuditEventStore,
  NewAuditEvent,
} from '../../src/modules/audit/application/ports/audit-event.store.js';
import { chainBreak } from '../../src/modules/audit/domain/audit-event.js';

export interface AuditEventStoreHarness {
  store: AuditEventStore;
  /** An organization the store may hold events of (the SQL adapter: one that exists). */
  newOrganization(): Promise<string>;
  close(): Promise<void>;
}

function anEvent(organizationId: string, action: string, at: string): NewAuditEvent {
  return {
    organizationId,
    occurredAt: new Date(at),
    actor: { kind: 'api_key', id: 'key-1', name: 'EHR', role: 'integration' },
    action,
    resourceType: 'target',
    resourceId: `t-${action}`,
    resourceIds: ['a', 'b'],
    outcome: 'allowed',
    clientAddress: '127.0.0.1',
    requestId: 'r-1',
    changedFields: ['quiet_hours'],
    changes: { quiet_hours: { before: { end: '21:00', start: '08:00' }, after: null } },
    detail: { query: { limit: '2', status: 'Pending' } },
  };
}

/** The AuditEventStore port: each organization's events numbered and chained, found by filters. */
export function auditEventStoreContract(
  name: string,
  setup: () => Promise<AuditEventStoreHarness>,
): void {
  describe(`AuditEventStore contract: ${name}`, () => {
    let h: AuditEventStoreHarness;
    beforeAll(async () => {
      h = await setup();
    });
    afterAll(() => h.close());

    it('numbers and chains each organization on its own, concurrent batches included', async () => {
      const [a, b] = [await h.newOrganization(), await h.newOrganization()];
      await Promise.all([
        h.store.append([anEvent(a, 'target.read', '2026-03-01T10:00:00Z')]),
        h.store.append([
          anEvent(b, 'target.list', '2026-03-01T10:00:01Z'),
          anEvent(a, 'target.list', '2026-03-01T10:00:02Z'),
        ]),
        h.store.append([anEvent(a, 'target.update', '2026-03-01T10:00:03Z')]),
      ]);
      const chainA = await h.store.chainAfter(a, 0, 100);
      expect(chainA.map((e) => e.seq)).toEqual([1, 2, 3]);
      chainA.forEach((e, i) => expect(chainBreak(e, chainA[i - 1] ?? null)).toBeNull());
      const [onlyB] = await h.store.chainAfter(b, 0, 100);
      expect(onlyB).toEqual({
        ...anEvent(b, 'target.list', '2026-03-01T10:00:01Z'),
        id: expect.any(String),
        seq: 1,
        campaignId: null,
        prevHash: null,
        hash: expect.stringMatching(/^[0-9a-f]{64}$/),
      });
      expect(chainBreak(onlyB, null)).toBeNull();
      expect(await h.store.organizationsWithEvents()).toEqual(expect.arrayContaining([a, b]));
    });

    it('pages and filters oldest first, a returned resource found among resource_ids', async () => {
      const org = await h.newOrganization();
      await h.store.append([
        anEvent(org, 'target.read', '2026-03-01T10:00:00Z'),
        anEvent(org, 'target.list', '2026-03-02T10:00:00Z'),
        anEvent(org, 'target.read', '2026-03-03T10:00:00Z'),
      ]);
      const reads = await h.store.page({ organizationId: org, action: 'target.read' }, 0, 1);
      expect([reads.total, reads.events.map((e) => e.seq)]).toEqual([2, [1]]);
      const byResource = await h.store.page({ organizationId: org, resourceId: 'b' }, 0, 10);
      expect(byResource.events.map((e) => e.seq)).toEqual([1, 2, 3]);
      const window = await h.store.page(
        {
          organizationId: org,
          from: new Date('2026-03-02T00:00:00Z'),
          to: new Date('2026-03-03T00:00:00Z'),
        },
        0,
        10,
      );
      expect(window.events.map((e) => e.action)).toEqual(['target.list']);
      const batches = [];
      for await (const batch of h.store.all({ organizationId: org }, 2)) {
        batches.push(batch.map((e) => e.seq));
      }
      expect(batches).toEqual([[1, 2], [3]]);
      expect((await h.store.page({ organizationId: randomUUID() }, 0, 10)).total).toBe(0);
    });
  });
}
