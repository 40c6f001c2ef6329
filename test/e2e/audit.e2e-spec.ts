import { Clock } from '../../src/common/clock/clock.js';
import { AUDIT_ACTIONS } from '../../src/modules/audit/domain/audit-actions.js';
import { AuditTrailService } from '../../src/modules/audit/application/audit-trail.service.js';
import { FakeClock } from '../../src/testing/fake-clock.js';
import { declaredRoutes } from '../support/declared-routes.js';
import { runCli } from '../support/run-process.js';
import { createTestApp, TestApp, waitFor } from '../support/test-app.js';

const NOW = '2026-03-02T12:00:00.000Z';
const HASH = expect.stringMatching(/^[0-9a-f]{64}$/);
const ANY_ID = expect.any(String);

/** The reads that return no patient data and are not recorded (but for refusals). */
const NOT_AUDITED_READS = [
  'GET /api/v1/blacklists',
  'GET /api/v1/blacklists/:blacklist_id',
  'GET /api/v1/campaigns',
  'GET /api/v1/campaigns/:campaign_id',
  'GET /api/v1/campaigns/:campaign_id/stats',
  'GET /api/v1/campaigns/:campaign_id/variables',
  'GET /api/v1/compliance/policy',
  'GET /api/v1/compliance/retention',
  'GET /api/v1/compliance/retention/campaigns/:campaign_id',
  'GET /api/v1/me',
  'GET /api/v1/provider-connections',
  'GET /api/v1/provider-connections/:connection_id',
  'GET /api/v1/sign-in-policy',
];

describe('audit trail', () => {
  let t: TestApp;
  let admin: string;
  let adminKeyId: string;
  let organizationId: string;
  const clock = new FakeClock(NOW);

  beforeAll(async () => {
    t = await createTestApp({ customize: (b) => b.overrideProvider(Clock).useValue(clock) });
    ({ apiKey: admin, organizationId } = await t.createOrganization('Audited'));
    [{ id: adminKeyId }] = await t.sql<{ id: string }>(
      'SELECT id FROM api_keys WHERE organization_id = $1',
      [organizationId],
    );
  });
  afterAll(() => t?.close());

  /** The organization's events after number `after`, oldest first, as the API answers them. */
  async function eventsAfter(after: number, key = admin): Promise<Record<string, any>[]> {
    const res = await t.http().get('/api/v1/audit-events?limit=1000').set('X-API-Key', key);
    expect(res.status).toBe(200);
    return res.body.audit_events.filter((e: { seq: number }) => e.seq > after);
  }
  async function lastSeq(): Promise<number> {
    const [row] = await t.sql<{ seq: string | null }>(
      'SELECT max(seq) AS seq FROM audit_events WHERE organization_id = $1',
      [organizationId],
    );
    return Number(row.seq ?? 0);
  }
  const actor = () => ({ kind: 'api_key', id: adminKeyId, name: 'test', role: 'admin' });
  function event(fields: Record<string, unknown>) {
    return {
      id: ANY_ID,
      seq: expect.any(Number),
      occurred_at: NOW,
      actor: actor(),
      resource_id: null,
      campaign_id: null,
      resource_ids: [],
      outcome: 'allowed',
      client_address: expect.any(String),
      request_id: ANY_ID,
      changed_fields: [],
      changes: null,
      detail: null,
      prev_hash: HASH,
      hash: HASH,
      ...fields,
    };
  }

  it('has every route that reads patient data or changes anything declare its audit action', () => {
    const routes = declaredRoutes(t.app).filter((r) => !r.isPublic);
    const problems: string[] = [];
    const notAudited: string[] = [];
    for (const route of routes) {
      const name = `${route.method} ${route.path}`;
      const spec = route.audit;
      const exempt = route.notAudited;
      if (!spec && !exempt) problems.push(`${name}: declares neither @Audit nor @NotAudited`);
      if (spec && exempt) problems.push(`${name}: declares both`);
      if (exempt) notAudited.push(name);
      for (const action of [spec?.action, spec?.csvExport].filter(Boolean) as string[]) {
        if (!(action in AUDIT_ACTIONS)) problems.push(`${name}: unknown action ${action}`);
      }
    }
    expect(problems).toEqual([]);
    // Every change is audited; only these reads, which return no patient data, are not.
    expect(notAudited.sort()).toEqual(NOT_AUDITED_READS);
  });

  it('records a read of a target, naming it, its campaign, the actor and the request', async () => {
    const campaign = await t.createCampaign(admin, { name: 'Reads' });
    const [targetId] = await t.addTargets(admin, campaign.id, {
      targets: [{ phone_number: '+14155550101', input_data: { first_name: 'Ada' } }],
    });
    const after = await lastSeq();
    const res = await t
      .http()
      .get(`/api/v1/targets/${targetId}`)
      .set('X-API-Key', admin)
      .set('X-Request-Id', 'req-target-read');
    expect(res.status).toBe(200);
    expect(await eventsAfter(after)).toEqual([
      event({
        seq: after + 1,
        action: 'target.read',
        resource_type: 'target',
        resource_id: targetId,
        campaign_id: campaign.id,
        request_id: 'req-target-read',
      }),
    ]);
  });

  it('records a list page as one event naming the targets it returned', async () => {
    const campaign = await t.createCampaign(admin, { name: 'List' });
    const ids = await t.addTargets(admin, campaign.id, {
      targets: [1, 2, 3].map((i) => ({ phone_number: `+1415555020${i}` })),
    });
    const after = await lastSeq();
    const res = await t
      .http()
      .get(`/api/v1/campaigns/${campaign.id}/targets?limit=2`)
      .set('X-API-Key', admin);
    expect(res.status).toBe(200);
    const returned = res.body.targets.map((x: { id: string }) => x.id);
    expect(returned).toHaveLength(2);
    expect(ids).toEqual(expect.arrayContaining(returned));
    expect(await eventsAfter(after)).toEqual([
      event({
        action: 'target.list',
        resource_type: 'target',
        campaign_id: campaign.id,
        resource_ids: returned,
        detail: { query: { limit: '2' } },
      }),
    ]);
  });

  it('records each kind of read and change with its action and resource', async () => {
    const campaign = await t.createCampaign(admin, { name: 'Kinds' });
    const [targetId] = await t.addTargets(admin, campaign.id, {
      targets: [{ phone_number: '+14155550301', input_data: { dob: '1950-01-01' } }],
    });
    const c = campaign.id;
    const cases: [string, string, unknown, Record<string, unknown>][] = [
      [
        'get',
        `/api/v1/targets/${targetId}/events`,
        null,
        { action: 'target.timeline', resource_type: 'target', resource_id: targetId },
      ],
      [
        'get',
        `/api/v1/targets/${targetId}/messages`,
        null,
        { action: 'message.list', resource_type: 'target', resource_id: targetId },
      ],
      ['get', `/api/v1/call-logs`, null, { action: 'call_log.list', resource_type: 'call_log' }],
      [
        'get',
        `/api/v1/compliance/decisions`,
        null,
        { action: 'compliance_decision.list', resource_type: 'compliance_decision' },
      ],
      [
        'get',
        `/api/v1/campaigns/${c}/webhooks/deliveries`,
        null,
        { action: 'webhook_delivery.list', resource_type: 'webhook_delivery', campaign_id: c },
      ],
      [
        'get',
        `/api/v1/compliance/do-not-call`,
        null,
        { action: 'do_not_call.list', resource_type: 'do_not_call' },
      ],
      [
        'post',
        `/api/v1/compliance/do-not-call`,
        { phone_numbers: [{ phone_number: '+14155550399', reason: 'asked' }] },
        {
          action: 'do_not_call.add',
          resource_type: 'do_not_call',
          resource_ids: ['+14155550399'],
          changed_fields: ['phone_numbers'],
        },
      ],
      [
        'delete',
        `/api/v1/compliance/do-not-call`,
        { phone_numbers: ['+14155550399'], reason: 'consent again' },
        {
          action: 'do_not_call.remove',
          resource_type: 'do_not_call',
          resource_ids: ['+14155550399'],
          changed_fields: ['phone_numbers', 'reason'],
        },
      ],
      [
        'patch',
        `/api/v1/targets/${targetId}`,
        { input_data: { dob: '1950-01-02' } },
        {
          action: 'target.update',
          resource_type: 'target',
          resource_id: targetId,
          campaign_id: c,
          changed_fields: ['input_data.dob'],
        },
      ],
      [
        'post',
        `/api/v1/campaigns/${c}/pause`,
        {},
        { action: 'campaign.pause', resource_type: 'campaign', resource_id: c, campaign_id: c },
      ],
      [
        'delete',
        `/api/v1/campaigns/${c}/targets`,
        { target_ids: [targetId] },
        {
          action: 'target.delete',
          resource_type: 'target',
          campaign_id: c,
          resource_ids: [targetId],
          changed_fields: ['target_ids'],
        },
      ],
    ];
    for (const [method, path, body, expected] of cases) {
      const after = await lastSeq();
      let req = t.http()[method as 'get'](path).set('X-API-Key', admin);
      if (body) req = req.send(body as object);
      const res = await req;
      expect([path, res.status]).toEqual([path, 200]);
      expect(await eventsAfter(after)).toEqual([event(expected)]);
    }
  });

  it('records reads of a call log, its recordings and the call logs listed', async () => {
    const campaign = await t.createCampaign(admin, { name: 'Calls' });
    const [targetId] = await t.addTargets(admin, campaign.id, {
      targets: [{ phone_number: '+14155550501' }],
    });
    const called = await t
      .http()
      .post(`/api/v1/campaigns/${campaign.id}/calls`)
      .set('X-API-Key', admin)
      .send({ target_ids: [targetId] });
    expect(called.status).toBe(200);
    const [log] = await waitFor(
      () => t.sql<{ id: string }>('SELECT id FROM call_logs WHERE target_id = $1', [targetId]),
      (rows) => rows.length === 1,
    );
    const c = campaign.id;
    const cases: [string, Record<string, unknown>][] = [
      [
        `/api/v1/call-logs/${log.id}`,
        // A call log's answer names its target, not its campaign.
        { action: 'call_log.read', resource_type: 'call_log', resource_id: log.id },
      ],
      [
        `/api/v1/call-logs/${log.id}?include_recordings=true`,
        {
          action: 'recording.read',
          resource_type: 'call_log',
          resource_id: log.id,
          detail: { query: { include_recordings: 'true' } },
        },
      ],
      [
        `/api/v1/call-logs?campaign_id=${c}`,
        {
          action: 'call_log.list',
          resource_type: 'call_log',
          campaign_id: c,
          resource_ids: [log.id],
          detail: { query: { campaign_id: c } },
        },
      ],
    ];
    for (const [path, expected] of cases) {
      const after = await lastSeq();
      const res = await t.http().get(path).set('X-API-Key', admin);
      expect([path, res.status]).toEqual([path, 200]);
      expect(await eventsAfter(after)).toEqual([event(expected)]);
    }
  });

  it('records a policy change with the values before and after of the fields that changed', async () => {
    const before = (await t.http().get('/api/v1/compliance/policy').set('X-API-Key', admin)).body;
    const after = await lastSeq();
    const policy = {
      quiet_hours: { start: '09:00', end: '20:00' },
      state_rules: before.state_rules,
      max_calls_per_number: before.max_calls_per_number,
      restricted_dates: before.restricted_dates,
      default_time_zone: before.default_time_zone,
    };
    const res = await t
      .http()
      .put('/api/v1/compliance/policy')
      .set('X-API-Key', admin)
      .send(policy);
    expect(res.status).toBe(200);
    expect(await eventsAfter(after)).toEqual([
      event({
        action: 'policy.update',
        resource_type: 'policy',
        changed_fields: ['quiet_hours'],
        changes: {
          quiet_hours: { before: before.quiet_hours, after: { start: '09:00', end: '20:00' } },
        },
      }),
    ]);
  });

  it('records a key made with its role, and a refusal with the role and why', async () => {
    let after = await lastSeq();
    const created = await t
      .http()
      .post('/api/v1/api-keys')
      .set('X-API-Key', admin)
      .send({ name: 'Viewer', role: 'viewer' });
    expect(created.status).toBe(201);
    expect(await eventsAfter(after)).toEqual([
      event({
        action: 'api_key.create',
        resource_type: 'api_key',
        resource_id: created.body.id,
        changed_fields: ['name', 'role'],
        changes: {
          name: { before: null, after: 'Viewer' },
          role: { before: null, after: 'viewer' },
        },
      }),
    ]);
    after = await lastSeq();
    const refused = await t
      .http()
      .put('/api/v1/compliance/policy')
      .set('X-API-Key', created.body.key)
      .send({});
    expect(refused.status).toBe(403);
    expect(await eventsAfter(after)).toEqual([
      event({
        actor: { kind: 'api_key', id: created.body.id, name: 'Viewer', role: 'viewer' },
        outcome: 'refused',
        action: 'policy.update',
        resource_type: 'policy',
        detail: {
          route: 'PUT /api/v1/compliance/policy',
          reason:
            'The viewer role may not change the calling-rules policy (needs compliance.write)',
        },
      }),
    ]);
    // Only admins read the trail.
    const denied = await t.http().get('/api/v1/audit-events').set('X-API-Key', created.body.key);
    expect(denied.status).toBe(403);
    expect(denied.body).toEqual({
      detail:
        'The viewer role may not read, export and verify the audit trail (needs audit_events.read)',
    });
  });

  it('records a CSV download before streaming it, and exports the trail as CSV', async () => {
    const after = await lastSeq();
    const csv = await t
      .http()
      .get('/api/v1/compliance/decisions')
      .set('X-API-Key', admin)
      .set('Accept', 'text/csv');
    expect(csv.status).toBe(200);
    expect(await eventsAfter(after)).toEqual([
      event({ action: 'compliance_decision.export', resource_type: 'compliance_decision' }),
    ]);
    const trail = await t
      .http()
      .get('/api/v1/audit-events?action=compliance_decision.export')
      .set('X-API-Key', admin)
      .set('Accept', 'text/csv');
    expect(trail.status).toBe(200);
    expect(trail.headers['content-type']).toBe('text/csv; charset=utf-8');
    const lines = trail.text.trim().split('\n');
    expect(lines[0]).toBe(
      'seq,id,occurred_at,actor_kind,actor_id,actor_name,actor_role,action,resource_type,resource_id,campaign_id,resource_ids,outcome,client_address,request_id,changed_fields,changes,detail,prev_hash,hash',
    );
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain(
      `,${NOW},api_key,${adminKeyId},test,admin,compliance_decision.export,`,
    );
  });

  it('filters and pages the trail oldest first', async () => {
    const all = await eventsAfter(0);
    const page = await t
      .http()
      .get('/api/v1/audit-events?action=target.read&limit=1&page=0')
      .set('X-API-Key', admin);
    expect(page.status).toBe(200);
    const reads = all.filter((e) => e.action === 'target.read');
    expect(page.body).toEqual({
      audit_events: [reads[0]],
      page_count: reads.length,
      next_page: reads.length > 1 ? 1 : null,
    });
    const bad = await t
      .http()
      .get('/api/v1/audit-events?campaign_id=nope&limit=0')
      .set('X-API-Key', admin);
    expect(bad.status).toBe(422);
    expect(bad.body.detail.map((d: { loc: unknown[] }) => d.loc)).toEqual([
      ['query', 'limit'],
      ['query', 'campaign_id'],
    ]);
  });

  it('verifies the chain (API and CLI) and names the first event that was tampered with', async () => {
    const other = await t.createOrganization('Tampered');
    const campaign = await t.createCampaign(other.apiKey, { name: 'Tamper' });
    for (let i = 0; i < 3; i++) {
      await t.http().get(`/api/v1/campaigns/${campaign.id}/targets`).set('X-API-Key', other.apiKey);
    }
    const valid = await t.http().get('/api/v1/audit-events/verify').set('X-API-Key', other.apiKey);
    expect(valid.body).toEqual({
      valid: true,
      events_checked: 4,
      last_hash: HASH,
      first_mismatch: null,
    });
    const cli = () =>
      runCli(['audit:verify', '--org', other.organizationId], { DATABASE_URL: t.databaseUrl });
    expect(cli()).toMatchObject({
      status: 0,
      // The API's check is itself an event: one more than it counted.
      stdout: [
        {
          organization_id: other.organizationId,
          valid: true,
          events_checked: 5,
          last_hash: HASH,
          first_mismatch: null,
        },
      ],
    });
    const [second] = await t.sql<{ id: string }>(
      'SELECT id FROM audit_events WHERE organization_id = $1 AND seq = 2',
      [other.organizationId],
    );
    // Someone with the power to drop the guard (the table's owner) edits an event behind it.
    await t.sql('ALTER TABLE audit_events DISABLE TRIGGER audit_events_refuse_update_delete');
    try {
      await t.sql(`UPDATE audit_events SET actor_name = 'someone else' WHERE id = $1`, [second.id]);
    } finally {
      await t.sql('ALTER TABLE audit_events ENABLE TRIGGER audit_events_refuse_update_delete');
    }
    const broken = await t.http().get('/api/v1/audit-events/verify').set('X-API-Key', other.apiKey);
    expect(broken.body).toEqual({
      valid: false,
      events_checked: 1,
      last_hash: HASH,
      first_mismatch: { id: second.id, seq: 2, reason: 'hash does not match the content' },
    });
    // The CLI names the same event, and exits 1.
    expect(cli()).toMatchObject({
      status: 1,
      stdout: [{ organization_id: other.organizationId, ...broken.body }],
    });
    const trail = t.app.get(AuditTrailService);
    expect((await trail.verify(organizationId)).valid).toBe(true);
  }, 120_000);

  it('has the database refuse UPDATE, DELETE and TRUNCATE of audit events', async () => {
    for (const statement of [
      `UPDATE audit_events SET action = 'x'`,
      'DELETE FROM audit_events',
      'TRUNCATE audit_events',
    ]) {
      await expect(t.sql(statement)).rejects.toThrow(/audit events are append-only/);
    }
    expect(await lastSeq()).toBeGreaterThan(0);
  });

  it('answers no data when its event cannot be written', async () => {
    const campaign = await t.createCampaign(admin, { name: 'Failing audit' });
    const [targetId] = await t.addTargets(admin, campaign.id, {
      targets: [{ phone_number: '+14155550401', input_data: { first_name: 'Grace' } }],
    });
    const after = await lastSeq();
    // The database refuses the audit insert for real, as a full disk or a lost connection would.
    await t.sql(`CREATE FUNCTION audit_test_fail() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN RAISE EXCEPTION 'audit insert refused by the test'; END $$`);
    await t.sql(`CREATE TRIGGER audit_test_fail BEFORE INSERT ON audit_events
      FOR EACH STATEMENT EXECUTE FUNCTION audit_test_fail()`);
    try {
      const read = await t.http().get(`/api/v1/targets/${targetId}`).set('X-API-Key', admin);
      expect(read.status).toBe(500);
      expect(Object.keys(read.body)).toEqual(['detail']);
      expect(read.text).not.toContain('Grace');
      expect(read.text).not.toContain('4155550401');
      const list = await t
        .http()
        .get(`/api/v1/campaigns/${campaign.id}/targets`)
        .set('X-API-Key', admin);
      expect(list.status).toBe(500);
      expect(list.text).not.toContain('Grace');
    } finally {
      await t.sql('DROP TRIGGER audit_test_fail ON audit_events');
      await t.sql('DROP FUNCTION audit_test_fail()');
    }
    expect(await lastSeq()).toBe(after);
  });
});
