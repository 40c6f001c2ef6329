// In-process listeners (`listeners` of forRoot) on the whole service running on its fakes.
import { INestApplication } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import request from 'supertest';
import {
  CallFinishedEvent,
  CampaignEventListener,
  type TargetTimelineEvent,
} from '../../src/index.js';
import { CampaignCallingTestingModule, waitUntil } from '../../src/testing/index.js';
import { scenarioTargetEvents } from '../support/target-event-scenario.js';

const API_KEY = 'test-key-0123456789abcdef0123456789';

/** A team's audit trail: what it was told, in the order it was told. */
class AuditListener extends CampaignEventListener {
  readonly calls: CallFinishedEvent[] = [];
  readonly changes: TargetTimelineEvent[] = [];
  override onCallFinished(event: CallFinishedEvent): void {
    this.calls.push(event);
  }
  override onTargetEvent(event: TargetTimelineEvent): void {
    this.changes.push(event);
  }
}

/** An EHR write-back whose server is down: every event throws. */
class BrokenListener extends CampaignEventListener {
  told = 0;
  override async onCallFinished(): Promise<void> {
    this.told++;
    throw new Error('EHR unreachable');
  }
}

describe('event listeners on CampaignCallingTestingModule', () => {
  let app: INestApplication;
  const broken = new BrokenListener();
  const audit = new AuditListener();

  beforeAll(async () => {
    const moduleRef = await Test.createTestingModule({
      imports: [
        CampaignCallingTestingModule.forRoot({ apiKey: API_KEY, listeners: [broken, audit] }),
      ],
    }).compile();
    app = moduleRef.createNestApplication({ logger: false });
    await app.init();
  });
  afterAll(async () => {
    await app?.close();
  });

  const as = (req: request.Test) => req.set('X-API-Key', API_KEY);
  const http = () => request(app.getHttpServer());

  it("tells a listener of each of a call's attempts in order, whatever another listener throws", async () => {
    const campaign = await as(http().post('/api/v1/campaigns')).send({
      name: 'Reminders',
      type: 'patient',
      max_attempts: 2,
      retry_delay_minutes: 0,
    });
    expect(campaign.status).toBe(201);
    // 0000: the simulator's no-answer call, so the first attempt is retried and the second ends it.
    const added = await as(http().post(`/api/v1/campaigns/${campaign.body.id}/targets`)).send({
      targets: [{ phone_number: '+1 555 010 0000' }],
      launch: true,
    });
    const [id] = added.body.target_ids;

    const ended = await waitUntil(
      () => as(http().get(`/api/v1/targets/${id}`)),
      (res) => res.body.status === 'Finished',
    );
    expect(ended.body).toMatchObject({ status: 'Finished' });
    await waitUntil(
      async () => audit.calls.length,
      (n) => n === 2,
    );
    const common = {
      organizationId: expect.any(String),
      campaignId: campaign.body.id,
      targetId: id,
      callLogId: expect.any(Number),
      maxAttempts: 2,
    };
    expect(audit.calls).toEqual([
      expect.objectContaining({ ...common, attempt: 1, status: 'Scheduled' }),
      expect.objectContaining({ ...common, attempt: 2, status: 'Finished' }),
    ]);
    expect(broken.told).toBe(2);
    // The target's changes as its timeline (the fake event log) recorded them, calls included.
    const timeline = await as(http().get(`/api/v1/targets/${id}/events?limit=50`));
    const recorded = [...timeline.body.items]
      .reverse()
      .filter((e: { kind: string }) => e.kind !== 'notification')
      .map((e: { id: string; kind: string; status: string | null }) => [e.id, e.kind, e.status]);
    expect(recorded.map(([, kind]) => kind)).toEqual([
      'added',
      'call_started',
      'call_ended',
      'call_started',
      'call_ended',
    ]);
    const told = await waitUntil(
      async () => audit.changes.filter((e) => e.targetId === id),
      (events) => events.length === recorded.length,
    );
    expect(told.map((e) => [e.id, e.kind, e.status])).toEqual(recorded);
  });

  it("tells a listener of each target's changes as its timeline records them, in order", async () => {
    const campaign = await as(http().post('/api/v1/campaigns')).send({
      name: 'Labs first',
      type: 'patient',
      steps: [{ friendly_id: 'labs', type: 'webhook', on_receive: 'merge' }],
      entry_step: 'labs',
    });
    expect(campaign.status).toBe(201);
    const campaignId: string = campaign.body.id;
    // Paused: the triggered target stays Scheduled, no call starts.
    expect((await as(http().post(`/api/v1/campaigns/${campaignId}/pause`))).status).toBe(200);
    const added = await as(http().post(`/api/v1/campaigns/${campaignId}/targets`)).send({
      targets: [{ phone_number: '+1 555 010 1001' }, { phone_number: '+1 555 010 1002' }],
      launch: true,
    });
    const [first, second] = added.body.target_ids as string[];
    const step = await as(
      http().post(`/api/v1/campaigns/${campaignId}/targets/${first}/step/labs`),
    ).send({ hba1c: 6.1 });
    expect(step.status).toBe(200);
    const edited = await as(http().patch(`/api/v1/targets/${first}`)).send({
      input_data: { note: 'x' },
    });
    expect(edited.status).toBe(200);
    const triggered = await as(http().post(`/api/v1/campaigns/${campaignId}/calls`)).send({
      target_ids: [first],
    });
    expect(triggered.body.scheduled).toEqual([first]);
    const deleted = await as(http().delete(`/api/v1/campaigns/${campaignId}/targets`)).send({
      target_ids: [first, second],
    });
    expect(deleted.body.deleted).toEqual(expect.arrayContaining([first, second]));

    const told = await waitUntil(
      async () => audit.changes.filter((e) => e.campaignId === campaignId),
      (events) => events.filter((e) => e.kind === 'deleted').length === 2,
    );
    const key = { type: 'api_key', id: expect.any(String) };
    const of = (targetId: string) => ({
      id: expect.any(String),
      organizationId: campaign.body.organization_id,
      campaignId,
      targetId,
      at: expect.any(Date),
      actor: key,
    });
    const expected = scenarioTargetEvents(of, first, second);
    expect(told.filter((e) => e.targetId === first)).toEqual(expected.first);
    expect(told.filter((e) => e.targetId === second)).toEqual(expected.second);
    // The same events as the timeline shows, with the same ids.
    const timeline = await as(http().get(`/api/v1/targets/${first}/events?limit=50`));
    expect(told.filter((e) => e.targetId === first).map((e) => [e.id, e.kind, e.reason])).toEqual(
      [...timeline.body.items]
        .reverse()
        .filter((e: { kind: string }) => e.kind !== 'notification')
        .map((e: { id: string; kind: string; reason: string }) => [e.id, e.kind, e.reason]),
    );
  });
});
