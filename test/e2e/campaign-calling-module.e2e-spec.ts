// CampaignCallingModule imported alone, as a team's own Nest app would: no configureApp, nothing of
// ours but the module. Its answers are the service's: the 422 pipe, the error filter and the API-key
// guard come with the module.
import { INestApplication } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import request from 'supertest';
import { CampaignCallingModule, WebhookSender } from '../../src/index.js';
import { RecordingWebhookSender } from '../../src/testing/index.js';
import { createTestDatabase, TestDatabase } from '../support/test-database.js';
import { TEST_ENV } from '../support/test-app.js';

const KEY = 'ccs_module_alone_key_0123456789abcdef';

describe('CampaignCallingModule imported alone', () => {
  let database: TestDatabase;
  let app: INestApplication;
  const sender = new RecordingWebhookSender();

  beforeAll(async () => {
    database = await createTestDatabase();
    const moduleRef = await Test.createTestingModule({
      imports: [
        CampaignCallingModule.forRoot({
          config: { ...TEST_ENV, BOOTSTRAP_API_KEYS: `acme=${KEY}` },
          database: { url: database.url },
          adapters: [[WebhookSender, { useValue: sender }]],
        }),
      ],
    }).compile();
    app = moduleRef.createNestApplication({ logger: false });
    await app.init();
  });
  afterAll(async () => {
    await app?.close();
    await database?.drop();
  });

  const http = () => request(app.getHttpServer());

  it('answers a bad body with the FastAPI 422 body', async () => {
    const res = await http()
      .post('/api/v1/campaigns')
      .set('X-API-Key', KEY)
      .send({ type: 'patient' });
    expect(res.status).toBe(422);
    expect(res.body).toEqual({
      detail: [
        {
          type: 'missing',
          loc: ['body', 'name'],
          msg: 'Field required',
          input: { type: 'patient' },
        },
      ],
    });
  });

  it('answers an unknown campaign with the FastAPI 404 body', async () => {
    const id = '00000000-0000-4000-8000-0000000000ff';
    const res = await http().get(`/api/v1/campaigns/${id}`).set('X-API-Key', KEY);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ detail: `Campaign ${id} not found` });
  });

  it('refuses a request without a key with 401', async () => {
    const res = await http().get('/api/v1/campaigns');
    expect(res.status).toBe(401);
    expect(res.body).toEqual({
      detail:
        'Not authenticated: send your API key in the X-API-Key header (or Authorization: Bearer <key>)',
    });
  });

  it('uses the adapter chosen for a port', () => {
    expect(app.get(WebhookSender)).toBe(sender);
  });
});
