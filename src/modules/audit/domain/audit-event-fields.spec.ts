import type { AuditEvent } from './audit-event.js';
import {
  FLAT_AUDIT_COLUMNS,
  flatAuditEvent,
  fromFlatAuditEvent,
  namedAuditEvent,
} from './audit-event-fields.js';

const EVENT: AuditEvent = {
  id: '5f0e7c9a-0000-4000-8000-000000000001',
  organizationId: '5f0e7c9a-0000-4000-8000-0000000000aa',
  seq: 7,
  occurredAt: new Date('2026-03-02T12:00:00.000Z'),
  actor: { kind: 'user', id: 'u-1', name: 'Dana Reyes', role: 'admin' },
  action: 'policy.update',
  resourceType: 'policy',
  resourceId: null,
  campaignId: null,
  resourceIds: [],
  outcome: 'allowed',
  clientAddress: '127.0.0.1',
  requestId: 'req-1',
  changedFields: ['state_rules'],
  changes: { state_rules: { before: true, after: false } },
  detail: null,
  prevHash: 'a'.repeat(64),
  hash: 'b'.repeat(64),
};

describe('the fields of an audit event', () => {
  it('are the CSV columns, in this order (the export a reader parses)', () => {
    expect(FLAT_AUDIT_COLUMNS).toEqual([
      'seq',
      'id',
      'occurred_at',
      'actor_kind',
      'actor_id',
      'actor_name',
      'actor_role',
      'action',
      'resource_type',
      'resource_id',
      'campaign_id',
      'resource_ids',
      'outcome',
      'client_address',
      'request_id',
      'changed_fields',
      'changes',
      'detail',
      'prev_hash',
      'hash',
    ]);
  });

  it('name every property but the organization, and read back from a flat row as they were', () => {
    const { organizationId: _trail, ...fields } = EVENT;
    expect(Object.values(namedAuditEvent(EVENT)).sort()).toEqual(Object.values(fields).sort());
    expect(flatAuditEvent(EVENT)).toMatchObject({
      actor_name: 'Dana Reyes',
      prev_hash: 'a'.repeat(64),
    });
    expect(fromFlatAuditEvent(EVENT.organizationId, flatAuditEvent(EVENT))).toEqual(EVENT);
  });
});
