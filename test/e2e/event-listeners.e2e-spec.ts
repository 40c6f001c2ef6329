import {
  CallFinishedEvent,
  CallFinishedOutbox,
  CampaignEventListener,
  UnitOfWork,
} from '../../src/index.js';
import { createTestApp, TestApp, waitFor } from '../support/test-app.js';

/** A team's audit trail, told of events in-process (`forRoot({ listeners })`). */
class AuditListener extends CampaignEventListener {
  readonly calls: CallFinishedEvent[] = [];
  /** What the service had committed when the listener was told: the target's status, read back. */
  readonly committedStatus: (string | undefined)[] = [];
  constructor(private readonly statusOf: (targetId: string) => Promise<string | undefined>) {
    super();
  }
  override async onCallFinished(event: CallFinishedEvent): Promise<void> {
    this.calls.push(event);
    this.committedStatus.push(await this.statusOf(event.targetId));
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
    // Read from another connection while the listener ran: the change had committed.
    expect(audit.committedStatus[i]).toBe('Finished');
    const [log] = await t.sql<{ id: number }>(`SELECT id FROM call_logs WHERE target_id = $1`, [
      id,
    ]);
    expect(audit.calls[i].callLogId).toBe(Number(log.id));
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
    const outbox = t.app.get(CallFinishedOutbox);

    await expect(
      unitOfWork.run(async (tx) => {
        await outbox.record(tx, event(rolledBack));
        throw new Error('the change fails after its event was recorded');
      }),
    ).rejects.toThrow('the change fails');
    await unitOfWork.run((tx) => outbox.record(tx, event(committed)));

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
});
