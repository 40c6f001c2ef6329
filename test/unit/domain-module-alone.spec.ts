// A domain module imported alone, its ports bound by the testing module: the routes of that module
// (and of those it imports) answer as the service's; no other module's do.
import { INestApplication } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import request from 'supertest';
import { BlacklistModule, BlacklistService } from '../../src/index.js';
import { CampaignCallingTestingModule } from '../../src/testing/index.js';

const API_KEY = 'alone-key-0123456789abcdef0123456789';

describe('BlacklistModule imported alone', () => {
  let app: INestApplication;

  beforeAll(async () => {
    const moduleRef = await Test.createTestingModule({
      imports: [
        CampaignCallingTestingModule.forRoot({ apiKey: API_KEY, modules: [BlacklistModule] }),
      ],
    }).compile();
    app = moduleRef.createNestApplication({ logger: false });
    await app.init();
  });
  afterAll(() => app.close());

  const as = (req: request.Test) => req.set('X-API-Key', API_KEY);

  it('serves its routes with the service answers, and no route of another module', async () => {
    const created = await as(request(app.getHttpServer()).post('/api/v1/blacklists')).send({
      name: 'Opted out',
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name: 'Opted out' });
    const bad = await as(request(app.getHttpServer()).post('/api/v1/blacklists')).send({});
    expect(bad.status).toBe(422);
    expect(bad.body.detail[0]).toMatchObject({ type: 'missing', loc: ['body', 'name'] });
    expect(app.get(BlacklistService)).toBeInstanceOf(BlacklistService);
    const campaigns = await as(request(app.getHttpServer()).get('/api/v1/campaigns'));
    expect(campaigns.status).toBe(404);
    expect(campaigns.body).toEqual({ detail: 'Not Found' });
  });
});
