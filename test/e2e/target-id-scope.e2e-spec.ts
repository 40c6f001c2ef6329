import { randomUUID } from 'crypto';
import { createTestApp, TestApp, waitFor } from '../support/test-app.js';
import { freshTargetBody, listedTarget, UNKNOWN_ZONE_RECIPIENT } from '../support/target-bodies.js';
import { WebhookReceivers } from '../support/webhook-receiver.js';

/**
 * Issue 16: a caller-chosen target id is unique within its organization, not across organizations, so
 * no answer tells "another organization has this id" from "nobody has it". Two organizations hold a
 * target of the same id here, and every path (add, read, trigger, dispatch, completion, call logs,
 * webhooks, timeline, step data, delete) keeps each to its own.
 */
describe('target ids are scoped per organization', () => {
  let t: TestApp;
  const receivers = new WebhookReceivers();

  beforeAll(async () => {
    t = await createTestApp();
  }, 120_000);
  afterAll(async () => {
    await receivers.closeAll();
    await t?.close();
  });

  const STEPS = [{ friendly_id: 'labs', type: 'webhook', on_receive: 'merge' }];

  async function tenant() {
    const hook = await receivers.start();
    const { organizationId, apiKey } = await t.createOrganization();
    const { id: campaignId } = await t.createCampaign(apiKey, {
      steps: STEPS,
      webhook_url: hook.url,
      max_attempts: 1,
    });
    const as = (path: string, method: 'get' | 'post' | 'delete' = 'get') =>
      t.http()[method](path).set('X-API-Key', apiKey);
    return {
      organizationId,
      campaignId,
      hook,
      add: (targets: object[]) =>
        as(`/api/v1/campaigns/${campaignId}/targets`, 'post').send({ targets }),
      get: (id: string) => as(`/api/v1/targets/${id}`),
      trigger: (ids: string[]) =>
        as(`/api/v1/campaigns/${campaignId}/calls`, 'post').send({ target_ids: ids }),
      step: (id: string, data: object) =>
        as(`/api/v1/campaigns/${campaignId}/targets/${id}/step/labs`, 'post').send(data),
      events: async (id: string) => {
        const res = await as(`/api/v1/targets/${id}/events?limit=200`);
        expect(res.status).toBe(200);
        return res.body.items as { kind: string; status: string | null; data: object }[];
      },
      callLogs: async () => {
        const res = await as(`/api/v1/call-logs`);
        expect(res.status).toBe(200);
        return res.body.call_logs as { id: string; campaign_target_id: string; to: string }[];
      },
      remove: (ids: string[]) =>
        as(`/api/v1/campaigns/${campaignId}/targets`, 'delete').send({ target_ids: ids }),
    };
  }

  /** The single read of a target just added (Pending, never called). */
  function pendingBody(
    owner: { organizationId: string; campaignId: string },
    id: string,
    phone: string,
    input: object,
  ) {
    return {
      ...freshTargetBody(owner, id),
      created_at: expect.any(String),
      updated_at: expect.any(String),
      scheduled_time: null,
      input_data: input,
      phone_number: phone,
      waiting_reason: 'not launched: trigger calls or add with launch=true',
      ...UNKNOWN_ZONE_RECIPIENT,
    };
  }

  it('two organizations each add, read, call, step, list and delete their own target of one id', async () => {
    const a = await tenant();
    const b = await tenant();
    const x = randomUUID();
    // The simulator picks the outcome by the number: ...0006 is GOOD.
    const A_PHONE = '+15550180006';
    const B_PHONE = '+15550190006';

    const addedA = await a.add([{ id: x, phone_number: A_PHONE, input_data: { who: 'a' } }]);
    expect([addedA.status, addedA.body]).toEqual([
      200,
      { created: 1, ignored: [], target_ids: [x] },
    ]);
    // The same id in another organization is created, not a 409: it tells nothing about A.
    const addedB = await b.add([{ id: x, phone_number: B_PHONE, input_data: { who: 'b' } }]);
    expect([addedB.status, addedB.body]).toEqual([
      200,
      { created: 1, ignored: [], target_ids: [x] },
    ]);
    // Within one organization the id is still taken: the same 409 as before.
    const again = await a.add([{ id: x, phone_number: A_PHONE }]);
    expect([again.status, again.body]).toEqual([409, { detail: `Target ids already exist: ${x}` }]);

    const readA = await a.get(x);
    expect([readA.status, readA.body]).toEqual([200, pendingBody(a, x, A_PHONE, { who: 'a' })]);
    const readB = await b.get(x);
    expect([readB.status, readB.body]).toEqual([200, pendingBody(b, x, B_PHONE, { who: 'b' })]);

    // B calls its target; the dispatcher, the simulator and the completion touch B's only.
    const triggered = await b.trigger([x]);
    expect([triggered.status, triggered.body]).toEqual([200, { scheduled: [x], skipped: [] }]);
    const doneB = await waitFor(
      async () => (await b.get(x)).body,
      (body) => body.status === 'Finished',
      30_000,
    );
    expect(doneB).toMatchObject({
      organization_id: b.organizationId,
      campaign_id: b.campaignId,
      phone_number: B_PHONE,
      status: 'Finished',
      category: 'GOOD',
      call_log_ids: [expect.any(Number)],
      input_data: { who: 'b' },
    });
    const [logB] = doneB.call_log_ids as number[];
    expect(await a.get(x).then((r) => r.body)).toEqual(readA.body);

    const logsB = await b.callLogs();
    expect(logsB.map((l) => [l.id, l.campaign_target_id, l.to])).toEqual([
      [String(logB), x, B_PHONE],
    ]);
    expect(await a.callLogs()).toEqual([]);
    expect(
      await t.sql(`SELECT organization_id, to_number FROM call_logs WHERE target_id = $1`, [x]),
    ).toEqual([{ organization_id: b.organizationId, to_number: B_PHONE }]);

    // B's target.call_finished goes to B's receiver; A's campaign recorded no event at all.
    const [finished] = await b.hook.waitForRequests(1, 30_000);
    expect(JSON.parse(finished.body)).toMatchObject({
      type: 'target.call_finished',
      target_id: x,
      campaign_id: b.campaignId,
    });
    expect(
      await t.sql(`SELECT organization_id FROM webhook_events WHERE target_id = $1`, [x]),
    ).toEqual([{ organization_id: b.organizationId }]);

    // Step data for A's target merges into A's, never B's.
    const stepped = await a.step(x, { hba1c: 6.1 });
    expect(stepped.status).toBe(200);
    expect(stepped.body).toEqual({
      ...listedTarget(readA.body),
      input_data: { who: 'a', hba1c: 6.1 },
      updated_at: expect.any(String),
      pre_call_ehr_ids: {},
    });
    expect((await b.get(x)).body).toEqual(doneB);
    expect(
      await t.sql(
        `SELECT organization_id, data FROM target_step_events WHERE target_id = $1 ORDER BY seq`,
        [x],
      ),
    ).toEqual([{ organization_id: a.organizationId, data: { hba1c: 6.1 } }]);

    // Each timeline holds its own target's story only.
    expect((await a.events(x)).map((e) => [e.kind, e.status]).reverse()).toEqual([
      ['added', 'Pending'],
      ['step_data', null],
    ]);
    const kindsB = (await b.events(x)).map((e) => e.kind).reverse();
    expect(kindsB.slice(0, 4)).toEqual(['added', 'status_changed', 'call_started', 'call_ended']);
    expect(kindsB).not.toContain('step_data');

    // A deletes its target; B's stays, with its history.
    const removed = await a.remove([x]);
    expect([removed.status, removed.body]).toEqual([
      200,
      { deleted: [x], not_found: [], skipped: [] },
    ]);
    expect((await a.get(x)).status).toBe(404);
    expect((await b.get(x)).body).toEqual(doneB);
    expect((await b.events(x)).map((e) => e.kind)).not.toContain('deleted');
    const removedAgain = await a.remove([x]);
    expect(removedAgain.body).toEqual({ deleted: [], not_found: [x], skipped: [] });
  });

  it('a trigger names only its campaign’s target of that id; the other organization’s stays Pending', async () => {
    const a = await tenant();
    const b = await tenant();
    const x = randomUUID();
    await a.add([{ id: x, phone_number: '+15550180105' }]);
    await b.add([{ id: x, phone_number: '+15550190105' }]);

    const triggered = await a.trigger([x]);
    expect(triggered.body).toEqual({ scheduled: [x], skipped: [] });
    await waitFor(
      async () => (await a.get(x)).body,
      (body) => body.status === 'Finished',
      30_000,
    );
    expect((await b.get(x)).body).toMatchObject({ status: 'Pending', call_log_ids: null });
    // B may still call its own.
    expect((await b.trigger([x])).body).toEqual({ scheduled: [x], skipped: [] });
    const doneB = await waitFor(
      async () => (await b.get(x)).body,
      (body) => body.status === 'Finished',
      30_000,
    );
    expect(doneB).toMatchObject({
      phone_number: '+15550190105',
      call_log_ids: [expect.any(Number)],
    });
    const logs = await t.sql(
      `SELECT organization_id, to_number FROM call_logs WHERE target_id = $1 ORDER BY id`,
      [x],
    );
    expect(logs).toEqual([
      { organization_id: a.organizationId, to_number: '+15550180105' },
      { organization_id: b.organizationId, to_number: '+15550190105' },
    ]);
  });
});
