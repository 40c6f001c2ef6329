// Our app's modules on a real database with nothing installed: CampaignCallingModule.forRoot on
// embedded PGlite, in memory, started with the app and stopped by app.close().
import { INestApplication, Module } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import request from 'supertest';
import { CampaignCallingModule } from 'campaign-calling-service';
import { AcmeRoutesModule } from '../src/acme/campaign-summary.controller.js';
import { EXTENSIONS } from '../src/campaign-calling.options.js';

const API_KEY = 'example-key-0123456789abcdef01234567';

// #region embedded
/** AppModule's parts, on an in-memory database and a key of the test's own. */
@Module({
  imports: [
    CampaignCallingModule.forRoot({
      config: { LOG_LEVEL: 'silent', BOOTSTRAP_API_KEYS: `team=${API_KEY}` },
      database: { embedded: true },
      ...EXTENSIONS,
    }),
    AcmeRoutesModule,
  ],
})
class AppOnEmbeddedDatabase {}
// #endregion embedded

describe('our app on the embedded database', () => {
  let app: INestApplication;

  beforeAll(async () => {
    const moduleRef = await Test.createTestingModule({
      imports: [AppOnEmbeddedDatabase],
    }).compile();
    app = moduleRef.createNestApplication({ rawBody: true, logger: false });
    await app.init();
  }, 120_000);
  afterAll(async () => {
    await app?.close();
  });

  const http = () => request(app.getHttpServer());
  const as = (req: request.Test) => req.set('X-API-Key', API_KEY);

  it('answers health', async () => {
    const res = await http().get('/api/v1/health');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ok' });
  });

  it('answers a bad body with the service 422 body', async () => {
    const res = await as(http().post('/api/v1/campaigns')).send({
      type: 'patient',
    });
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

  it('takes connections of our own carrier type, its settings checked by us', async () => {
    const created = await as(http().post('/api/v1/provider-connections')).send({
      type: 'acme',
      name: 'Acme production',
      credentials: {
        api_key: 'acme-live-key-1234',
        signing_secret: 'whsec-5678',
      },
      settings: { api_base_url: 'https://api.acme-voice.example' },
    });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.any(String),
      organization_id: expect.any(String),
      type: 'acme',
      name: 'Acme production',
      credentials: { api_key: '***1234', signing_secret: '***5678' },
      settings: { api_base_url: 'https://api.acme-voice.example' },
      is_default: false,
      events_url_path: `/api/v1/telephony/${created.body.id}/events`,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    const refused = await as(http().post('/api/v1/provider-connections')).send({
      type: 'acme',
      name: 'Acme nowhere',
      credentials: {
        api_key: 'acme-live-key-1234',
        signing_secret: 'whsec-5678',
      },
      settings: { api_base_url: 'ftp://acme' },
    });
    expect(refused.status).toBe(422);
    expect(refused.body).toEqual({
      detail: [
        {
          type: 'value_error',
          loc: ['body', 'settings', 'api_base_url'],
          msg: "Value error, Acme's API address, an http(s) URL, is required",
          input: 'ftp://acme',
          ctx: { error: {} },
        },
      ],
    });
  });

  it('serves our own route on the stored campaigns', async () => {
    const campaign = await as(http().post('/api/v1/campaigns')).send({
      name: 'Flu shots',
      type: 'patient',
    });
    expect(campaign.status).toBe(201);
    const summary = await as(
      http().get(`/api/v1/acme/campaigns/${campaign.body.id}/summary`),
    );
    expect(summary.status).toBe(200);
    expect(summary.body).toEqual({
      campaign: 'Flu shots',
      carrier: 'acme',
      total: 0,
      targets: [],
    });
  });
});
