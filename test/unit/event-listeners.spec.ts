// In-process listeners (`listeners` of forRoot) on the whole service running on its fakes.
import { INestApplication } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import request from 'supertest';
import { CallFinishedEvent, CampaignEventListener } from '../../src/index.js';
import { CampaignCallingTestingModule, waitUntil } from '../../src/testing/index.js';

const API_KEY = 'test-key-0123456789abcdef0123456789';

/** A team's audit trail: what it was told, in the order it was told. */
class AuditListener extends CampaignEventListener {
  readonly calls: CallFinishedEvent[] = [];
  override onCallFinished(event: CallFinishedEvent): void {
    this.calls.push(event);
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
  });
});
