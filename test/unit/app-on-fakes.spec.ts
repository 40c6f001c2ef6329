// The README's "The whole service on in-memory fakes" example, kept true by running it.
import { INestApplication } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import request from 'supertest';
import { Clock, WebhookSender } from '../../src/index.js';
import {
  CampaignCallingTestingModule,
  FakeClock,
  RecordingWebhookSender,
  waitUntil,
} from '../../src/testing/index.js';

const API_KEY = 'test-key-0123456789abcdef0123456789';

describe('the whole service on in-memory fakes (CampaignCallingTestingModule)', () => {
  let app: INestApplication;
  const clock = new FakeClock('2026-03-02T14:00:00Z');
  const webhooks = new RecordingWebhookSender();
  const timersBefore = () => process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;
  let timers: number;

  beforeAll(async () => {
    timers = timersBefore();
    const moduleRef = await Test.createTestingModule({
      imports: [CampaignCallingTestingModule.forRoot({ apiKey: API_KEY })],
    })
      .overrideProvider(Clock)
      .useValue(clock)
      .overrideProvider(WebhookSender)
      .useValue(webhooks)
      .compile();
    app = moduleRef.createNestApplication({ logger: false });
    await app.init();
  });

  const http = () => request(app.getHttpServer());
  const as = (req: request.Test) => req.set('X-API-Key', API_KEY);

  it('creates a campaign at the clock time, calls a target through the simulator, and answers as the app', async () => {
    const created = await as(http().post('/api/v1/campaigns')).send({
      name: 'Reminders',
      type: 'patient',
    });
    expect(created.status).toBe(201);
    expect(created.body.created_at).toBe('2026-03-02T14:00:00.000Z');

    const added = await as(http().post(`/api/v1/campaigns/${created.body.id}/targets`)).send({
      targets: [{ phone_number: '+1 555 010 1234', input_data: { a: 1 } }],
      launch: true,
    });
    expect(added.status).toBe(200);
    expect(added.body).toEqual({ created: 1, ignored: [], target_ids: [expect.any(String)] });
    const [id] = added.body.target_ids;

    const called = await waitUntil(
      () => as(http().get(`/api/v1/targets/${id}`)),
      (res) => res.body.status === 'Finished',
    );
    expect(called.body).toMatchObject({
      id,
      status: 'Finished',
      phone_number: '+15550101234',
      output_data: { confirmed: true },
    });

    const bad = await as(http().post(`/api/v1/campaigns/${created.body.id}/targets`)).send({
      targets: [],
    });
    expect(bad.status).toBe(422);
    expect(bad.body.detail[0]).toMatchObject({ type: 'too_short', loc: ['body', 'targets'] });
    const missing = await as(http().get('/api/v1/targets/00000000-0000-4000-8000-000000000999'));
    expect(missing.status).toBe(404);
    expect((await http().get('/api/v1/campaigns')).status).toBe(401);
  });

  it('leaves no timer running once closed', async () => {
    await app.close();
    expect(timersBefore()).toBeLessThanOrEqual(timers);
  });
});
