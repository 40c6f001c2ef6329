// The service with our extensions on its in-memory fakes (CampaignCallingTestingModule), over HTTP:
// a carrier of our own (the CallProviders port overridden), the consent check with its injected
// ConsentService, our audit trail listener, our own routes.
import { INestApplication } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { AddressInfo } from 'node:net';
import request from 'supertest';
import { CallProviders } from 'campaign-calling-service';
import {
  CampaignCallingTestingModule,
  waitUntil,
} from 'campaign-calling-service/testing';
import {
  AcmeCallProvider,
  AcmeCallProviders,
} from '../src/acme/acme-carrier.js';
import { AcmeRoutesModule } from '../src/acme/campaign-summary.controller.js';
import { AuditTrail } from '../src/audit/audit-trail.listener.js';
import { EXTENSIONS } from '../src/campaign-calling.options.js';
import { AcmeEmulator } from './acme-emulator.js';

const API_KEY = 'example-key-0123456789abcdef01234567';

describe('the service extended with Acme Voice, a consent check and routes of our own', () => {
  const acme = new AcmeEmulator();
  let app: INestApplication;

  beforeAll(async () => {
    const acmeUrl = await acme.start();
    // #region testing-module
    const moduleRef = await Test.createTestingModule({
      imports: [
        CampaignCallingTestingModule.forRoot({
          apiKey: API_KEY,
          ...EXTENSIONS,
        }),
        AcmeRoutesModule,
      ],
    })
      // The one port overridden: every campaign's calls go through Acme.
      .overrideProvider(CallProviders)
      .useValue(
        new AcmeCallProviders(
          new AcmeCallProvider({
            baseUrl: acmeUrl,
            apiKey: acme.apiKey,
            signingSecret: acme.signingSecret,
          }),
        ),
      )
      .compile();
    // rawBody: Acme signs the exact bytes of its events.
    app = moduleRef.createNestApplication({ rawBody: true, logger: false });
    await app.listen(0, '127.0.0.1');
    // #endregion testing-module
    acme.serviceOrigin = `http://127.0.0.1:${(app.getHttpServer().address() as AddressInfo).port}`;
  }, 60_000);
  afterAll(async () => {
    await acme.stop();
    await app?.close();
  });

  const as = (req: request.Test) => req.set('X-API-Key', API_KEY);
  const http = () => request(app.getHttpServer());
  const target = (id: string) => as(http().get(`/api/v1/targets/${id}`));

  it('calls through Acme, refuses a number that opted out, and tells our audit trail', async () => {
    const optedOut = await as(http().post('/api/v1/consent/opt-outs')).send({
      phone_number: '+15550104444',
    });
    expect(optedOut.status).toBe(204);
    const campaign = await as(http().post('/api/v1/campaigns')).send({
      name: 'Acme reminders',
      type: 'patient',
      max_attempts: 1,
    });
    expect(campaign.status).toBe(201);
    const added = await as(
      http().post(`/api/v1/campaigns/${campaign.body.id}/targets`),
    ).send({
      targets: [
        { phone_number: '+15550101234' },
        { phone_number: '+15550104444' },
      ],
      launch: true,
    });
    expect(added.status).toBe(200);
    const [called, refused] = added.body.target_ids;

    const finished = await waitUntil(
      () => target(called),
      (res) => res.body.status === 'Finished',
    );
    expect(finished.body).toMatchObject({
      status: 'Finished',
      output_data: { acme_disposition: 'answered' },
    });
    expect(acme.calls).toEqual([
      expect.objectContaining({
        to: '+15550101234',
        callback_url: 'http://localhost:3000/api/v1/telephony/acme/events',
      }),
    ]);
    expect(acme.calls[0].events).toEqual([{ status: 200 }, { status: 200 }]);

    const ended = await waitUntil(
      () => target(refused),
      (res) => res.body.status === 'Failed',
    );
    expect(ended.body.waiting_reason).toBeNull();
    const timeline = await as(http().get(`/api/v1/targets/${refused}/events`));
    expect(timeline.body.items).toContainEqual(
      expect.objectContaining({
        reason:
          'ended without a call: Refused by a pre-dial check: consent: the patient opted out',
      }),
    );

    // Our audit trail was told of both ends, once each, after the service committed them.
    const audit = app.get(AuditTrail);
    await waitUntil(
      async () => audit.entries.length,
      (n) => n === 2,
    );
    expect(audit.entries).toEqual(
      expect.arrayContaining([
        {
          targetId: called,
          attempt: 1,
          status: 'Finished',
          callLogId: expect.any(Number),
        },
        {
          targetId: refused,
          attempt: expect.any(Number),
          status: 'Failed',
          callLogId: null,
        },
      ]),
    );
    // And of each change of the refused target, as its timeline shows them.
    const recorded = [...timeline.body.items]
      .reverse()
      .filter((e) => e.kind !== 'notification')
      .map(({ id, kind, status, reason }) => ({
        id,
        targetId: refused,
        kind,
        status,
        reason,
      }));
    const heard = await waitUntil(
      async () => audit.changes.filter((c) => c.targetId === refused),
      (changes) => changes.length === recorded.length,
    );
    expect(heard).toEqual(recorded);

    const summary = await as(
      http().get(`/api/v1/acme/campaigns/${campaign.body.id}/summary`),
    );
    expect(summary.status).toBe(200);
    expect(summary.body).toEqual({
      campaign: 'Acme reminders',
      carrier: 'acme',
      total: 2,
      targets: expect.arrayContaining([
        { phone_number: '+15550101234', status: 'Finished' },
        { phone_number: '+15550104444', status: 'Failed' },
      ]),
    });
  });

  it('answers our own routes as the service answers its own: 401, 404, 422', async () => {
    const anonymous = await http()
      .post('/api/v1/consent/opt-outs')
      .send({ phone_number: '+15550104444' });
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toEqual({
      detail:
        'Not authenticated: send your API key in the X-API-Key header (or Authorization: Bearer <key>)',
    });
    const unknown = await as(
      http().get(
        '/api/v1/acme/campaigns/00000000-0000-4000-8000-000000000404/summary',
      ),
    );
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({
      detail: 'Campaign 00000000-0000-4000-8000-000000000404 not found',
    });
    const invalid = await as(http().post('/api/v1/consent/opt-outs')).send({
      phone_number: 'tomorrow',
    });
    expect(invalid.status).toBe(422);
    expect(invalid.body).toEqual({
      detail: [
        {
          type: 'value_error',
          loc: ['body', 'phone_number'],
          msg: 'Value error, phone_number must be an E.164 number',
          input: 'tomorrow',
          ctx: { error: {} },
        },
      ],
    });
  });

  it('refuses an event with a forged signature (401), as the service refuses its own', async () => {
    const res = await http()
      .post('/api/v1/telephony/acme/events')
      .set('content-type', 'application/json')
      .set('acme-signature', '00'.repeat(32))
      .send(
        '{"event_id":"x","type":"call.answered","call_id":"c","reference":"1","at":"2026-01-05T15:00:00Z"}',
      );
    expect(res.status).toBe(401);
  });
});
