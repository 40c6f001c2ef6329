import { randomUUID } from 'crypto';
import {
  CallFinishedEvent,
  Outbox,
  CampaignEventListener,
  TargetRepository,
  type TargetTimelineEvent,
  UnitOfWork,
} from '../../src/index.js';
import { createTestApp, TestApp, waitFor } from '../support/test-app.js';
import { absentFields } from '../../src/modules/target/domain/target-fields.js';
import { scenarioTargetEvents } from '../support/target-event-scenario.js';

/** A team's audit trail, told of events in-process (`forRoot({ listeners })`). */
class AuditListener extends CampaignEventListener {
  readonly calls: CallFinishedEvent[] = [];
  /** What the service had committed when the listener was told: the target's status, read back. */
  readonly committedStatus: (string | undefined)[] = [];
  constructor(private readonly statusOf: (targetId: string) => Promise<string | undefined>) {
    super();
  }
  readonly changes: TargetTimelineEvent[] = [];
  override async onCallFinished(event: CallFinishedEvent): Promise<void> {
    this.calls.push(event);
    this.committedStatus.push(await this.statusOf(event.targetId));
  }
  override onTargetEvent(event: TargetTimelineEvent): void {
    this.changes.push(event);
  }
}

describe('event listeners (CampaignCallingModule.forRoot({ listeners }))', () => {
  let t: TestApp;
  const audit = new AuditListener(async (targetId) => {
    const [row] = await t.sql<{ status: string }>(`SELECT status FROM targets WHERE id = $1`, [
      targetId,
    ]);
    return row?.status;
  });

  beforeAll(async () => {
    t = await createTestApp({ module: { listeners: [audit] } });
  });
  afterAll(async () => {
    await t?.close();
  });

  it("tells a listener of a call's end and the target's new status once they have committed", async () => {
    const { apiKey } = await t.createOrganization();
    const campaign = await t.createCampaign(apiKey, { max_attempts: 1 });
    const [id] = await t.addTargets(apiKey, campaign.id, {
      targets: [{ phone_number: '+15550107101' }],
      launch: true,
    });

    await waitFor(
      async () => audit.calls.filter((c) => c.targetId === id),
      (calls) => calls.length === 1,
    );
    const i = audit.calls.findIndex((c) => c.targetId === id);
    expect(audit.calls[i]).toEqual({
      organizationId: expect.any(String),
      campaignId: campaign.id,
      targetId: id,
      callLogId: expect.any(Number),
      attempt: 1,
      maxAttempts: 1,
      nextAttemptScheduled: null,
      status: 'Finished',
      resolution: expect.any(String),
      category: expect.any(String),
      subcategory: null,
    });
    // Read from another connection while the listener ran (it records the event before the read
    // answers): the change had committed.
    await waitFor(
      async () => audit.committedStatus.length,
      (n) => n > i,
    );
    expect(audit.committedStatus[i]).toBe('Finished');
    const [log] = await t.sql<{ id: number }>(`SELECT id FROM call_logs WHERE target_id = $1`, [
      id,
    ]);
    expect(audit.calls[i].callLogId).toBe(Number(log.id));
    // The target's own changes, from the dispatcher's and the call's end's transactions too.
    const changes = await waitFor(
      async () => audit.changes.filter((e) => e.targetId === id),
      (events) => events.some((e) => e.kind === 'call_ended'),
    );
    expect(changes.map((e) => [e.kind, e.status, e.actor.type, e.data.call_log_id])).toEqual([
      ['added', 'Scheduled', 'api_key', undefined],
      ['call_started', 'In Progress', 'worker', Number(log.id)],
      ['call_ended', 'Finished', 'provider', Number(log.id)],
    ]);
  });

  it('never tells a listener of an event whose transaction rolled back', async () => {
    const { apiKey } = await t.createOrganization();
    const campaign = await t.createCampaign(apiKey, { max_attempts: 1 });
    const [rolledBack, committed] = await t.addTargets(apiKey, campaign.id, {
      targets: [{ phone_number: '+15550107102' }, { phone_number: '+15550107103' }],
    });
    const event = (targetId: string): CallFinishedEvent => ({
      organizationId: campaign.organization_id,
      campaignId: campaign.id,
      targetId,
      callLogId: null,
      attempt: 0,
      maxAttempts: 1,
      nextAttemptScheduled: null,
      status: 'Failed',
      resolution: null,
      category: null,
      subcategory: null,
    });
    const unitOfWork = t.app.get(UnitOfWork);
    const outbox = t.app.get(Outbox);

    await expect(
      unitOfWork.run(async (tx) => {
        await outbox.record(tx, [{ kind: 'call_finished', event: event(rolledBack) }]);
        throw new Error('the change fails after its event was recorded');
      }),
    ).rejects.toThrow('the change fails');
    await unitOfWork.run((tx) =>
      outbox.record(tx, [{ kind: 'call_finished', event: event(committed) }]),
    );

    // Events reach a listener in commit order: once the later one is there, the earlier would be too.
    await waitFor(
      async () => audit.calls.map((c) => c.targetId),
      (ids) => ids.includes(committed),
    );
    expect(audit.calls.map((c) => c.targetId)).not.toContain(rolledBack);
    expect(
      await t.sql(`SELECT count(*)::int AS n FROM webhook_events WHERE target_id = $1`, [
        rolledBack,
      ]),
    ).toEqual([{ n: 0 }]);
  });

  it("tells a listener of each target's changes as its timeline records them, in order", async () => {
    const { apiKey, organizationId } = await t.createOrganization();
    const [key] = await t.sql<{ id: string }>(
      `SELECT id FROM api_keys WHERE organization_id = $1`,
      [organizationId],
    );
    const as = (path: string, method: 'get' | 'post' | 'patch' | 'delete' = 'get') =>
      t.http()[method](path).set('X-API-Key', apiKey);
    const campaign = await t.createCampaign(apiKey, {
      steps: [{ friendly_id: 'labs', type: 'webhook', on_receive: 'merge' }],
      entry_step: 'labs',
    });
    // Paused: the triggered target stays Scheduled, no call starts.
    expect((await as(`/api/v1/campaigns/${campaign.id}/pause`, 'post')).status).toBe(200);
    const [first, second] = await t.addTargets(apiKey, campaign.id, {
      targets: [{ phone_number: '+15550107111' }, { phone_number: '+15550107112' }],
      launch: true,
    });
    const step = await as(
      `/api/v1/campaigns/${campaign.id}/targets/${first}/step/labs`,
      'post',
    ).send({ hba1c: 6.1 });
    expect(step.status).toBe(200);
    // An edit has no transaction of its own without listeners: with them it is given one.
    const edited = await as(`/api/v1/targets/${first}`, 'patch').send({
      input_data: { note: 'x' },
    });
    expect(edited.status).toBe(200);
    const triggered = await as(`/api/v1/campaigns/${campaign.id}/calls`, 'post').send({
      target_ids: [first],
    });
    expect(triggered.body.scheduled).toEqual([first]);
    const deleted = await as(`/api/v1/campaigns/${campaign.id}/targets`, 'delete').send({
      target_ids: [first, second],
    });
    expect([...deleted.body.deleted].sort()).toEqual([first, second].sort());

    const told = await waitFor(
      async () => audit.changes.filter((e) => e.campaignId === campaign.id),
      (events) => events.filter((e) => e.kind === 'deleted').length === 2,
    );
    const of = (targetId: string) => ({
      id: expect.stringMatching(/^[0-9]+$/),
      organizationId: campaign.organization_id,
      campaignId: campaign.id,
      targetId,
      at: expect.any(Date),
      actor: { type: 'api_key', id: key.id },
    });
    const expected = scenarioTargetEvents(of, first, second);
    expect(told.filter((e) => e.targetId === first)).toEqual(expected.first);
    expect(told.filter((e) => e.targetId === second)).toEqual(expected.second);
    // Exactly the timeline's events, ids and times included.
    const timeline = await t.sql<{ id: string; at: Date }>(
      `SELECT id::text AS id, at FROM target_events WHERE target_id = $1 ORDER BY target_events.id`,
      [first],
    );
    expect(told.filter((e) => e.targetId === first).map((e) => ({ id: e.id, at: e.at }))).toEqual(
      timeline,
    );
  });

  it('never tells a listener of target events whose transaction rolled back', async () => {
    const { apiKey } = await t.createOrganization();
    const campaign = await t.createCampaign(apiKey);
    const [taken] = await t.addTargets(apiKey, campaign.id, {
      targets: [{ phone_number: '+15550107121', external_id: 'taken' }],
    });
    // A batch refused whole (409): one of its external ids is taken.
    const refused = await t
      .http()
      .post(`/api/v1/campaigns/${campaign.id}/targets`)
      .set('X-API-Key', apiKey)
      .send({
        targets: [
          { phone_number: '+15550107122', external_id: 'fresh' },
          { phone_number: '+15550107123', external_id: 'taken' },
        ],
        allow_duplicates: false,
      });
    expect(refused.status).toBe(409);
    // A change whose events the triggers had recorded before its transaction failed.
    const targets = t.app.get(TargetRepository);
    const unitOfWork = t.app.get(UnitOfWork);
    const rolledBack = randomUUID();
    const newTarget = (id: string) => ({
      id,
      organizationId: campaign.organization_id,
      campaignId: campaign.id,
      externalId: null,
      phoneNumber: '+15550107124',
      phoneOperatingHours: null,
      fallbackPhoneNumber: null,
      fallbackOperatingHours: null,
      patient: null,
      ...absentFields(),
      status: 'Pending' as const,
      currentStep: null,
      scheduledTime: null,
    });
    await expect(
      unitOfWork.run(async (tx) => {
        await targets.insertMany(tx, [newTarget(rolledBack)], {
          now: new Date(),
          skipTakenExternalIds: false,
        });
        throw new Error('the change fails after its events were recorded');
      }),
    ).rejects.toThrow('the change fails');
    const committed = randomUUID();
    await unitOfWork.run((tx) =>
      targets.insertMany(tx, [newTarget(committed)], {
        now: new Date(),
        skipTakenExternalIds: false,
      }),
    );

    // Events reach a listener in commit order: once the later one is there, the earlier would be too.
    const told = await waitFor(
      async () => audit.changes.filter((e) => e.campaignId === campaign.id),
      (events) => events.some((e) => e.targetId === committed),
    );
    expect(told.map((e) => [e.targetId, e.kind])).toEqual([
      [taken, 'added'],
      [committed, 'added'],
    ]);
  });
});
