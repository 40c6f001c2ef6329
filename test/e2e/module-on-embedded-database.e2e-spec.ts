// CampaignCallingModule.forRoot with no database URL: the app starts embedded PGlite itself, as
// `npm start` does, and stops it on close. Its extension classes inject services of the app's own
// modules (`imports`) and providers (`providers`), none of them global.
import { Injectable, INestApplication, Module } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { Client } from 'pg';
import request from 'supertest';
import { DataSource } from 'typeorm';
import {
  AppConfig,
  CallFinishedEvent,
  CampaignCallingModule,
  CampaignEventListener,
  CampaignEventListeners,
  PreDialCall,
  PreDialCheck,
  PreDialChecks,
  PreDialVerdict,
  type RunningService,
  startService,
} from '../../src/index.js';
import { freePort } from '../support/run-process.js';
import { TEST_ENV, waitFor } from '../support/test-app.js';

const KEY = 'ccs_embedded_module_key_0123456789abcdef';

/** The app's own consent service, in a module of its own that exports it (not global). */
@Injectable()
class ConsentClient {
  readonly refused = new Set(['+15550108001']);
  readonly asked: string[] = [];
  async lookup(numbers: string[]): Promise<Record<string, 'given' | 'refused'>> {
    this.asked.push(...numbers);
    return Object.fromEntries(numbers.map((n) => [n, this.refused.has(n) ? 'refused' : 'given']));
  }
}

@Module({ providers: [ConsentClient], exports: [ConsentClient] })
class ConsentModule {}

@Injectable()
class ConsentCheck extends PreDialCheck {
  readonly name = 'consent';
  constructor(private readonly consents: ConsentClient) {
    super();
  }
  async check(calls: PreDialCall[]): Promise<PreDialVerdict[]> {
    const answers = await this.consents.lookup(calls.map((c) => c.to));
    return calls.map((c) =>
      answers[c.to] === 'refused'
        ? { action: 'refuse', reason: 'no consent on file' }
        : { action: 'call' },
    );
  }
}

/** Given to the module through `providers`: no module of the app exports it. */
class AuditLog {
  readonly ended: Pick<CallFinishedEvent, 'targetId' | 'status' | 'callLogId'>[] = [];
}

@Injectable()
class CallEndings extends CampaignEventListener {
  constructor(readonly log: AuditLog) {
    super();
  }
  override onCallFinished({ targetId, status, callLogId }: CallFinishedEvent): void {
    this.log.ended.push({ targetId, status, callLogId });
  }
}

describe('CampaignCallingModule.forRoot with no database URL (embedded PGlite)', () => {
  let app: INestApplication;
  let databaseUrl: string;

  beforeAll(async () => {
    const moduleRef = await Test.createTestingModule({
      imports: [
        CampaignCallingModule.forRoot({
          config: { ...TEST_ENV, BOOTSTRAP_API_KEYS: `acme=${KEY}` },
          database: { embedded: true },
          preDialChecks: [ConsentCheck],
          listeners: [CallEndings],
          imports: [ConsentModule],
          providers: [AuditLog],
        }),
      ],
    }).compile();
    app = moduleRef.createNestApplication({ logger: false });
    await app.init();
    databaseUrl = (app.get(DataSource).options as { url: string }).url;
  });
  afterAll(async () => {
    await app?.close();
  });

  const http = () => request(app.getHttpServer());

  it('runs on an embedded database of its own', () => {
    expect(databaseUrl).toMatch(/^postgres:\/\/postgres@127\.0\.0\.1:\d+\/postgres$/);
    // Its settings say so: a generated credentials key is kept in memory, not in a file.
    expect(app.get(AppConfig).get('database')).toEqual({ kind: 'pglite', dataDir: null });
  });

  it('answers health', async () => {
    const res = await http().get('/api/v1/health');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ok' });
  });

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

  it("consults a check built with the app's own service, and tells a listener built with a provider", async () => {
    const campaign = await http()
      .post('/api/v1/campaigns')
      .set('X-API-Key', KEY)
      .send({ name: 'Consent first', type: 'patient', max_attempts: 1 });
    expect(campaign.status).toBe(201);
    const added = await http()
      .post(`/api/v1/campaigns/${campaign.body.id}/targets`)
      .set('X-API-Key', KEY)
      .send({ targets: [{ phone_number: '+15550108001' }], launch: true });
    expect(added.status).toBe(200);
    const [refused] = added.body.target_ids;

    const ended = await waitFor(
      async () => (await http().get(`/api/v1/targets/${refused}`).set('X-API-Key', KEY)).body,
      (target) => target.status === 'Failed',
    );
    expect(ended).toMatchObject({ status: 'Failed', waiting_reason: null });
    expect(app.get(ConsentClient).asked).toEqual(['+15550108001']);
    const heard = await waitFor(
      async () => app.get(AuditLog).ended,
      (events) => events.length > 0,
    );
    expect(heard).toEqual([{ targetId: refused, status: 'Failed', callLogId: null }]);
  });

  it('stops the embedded database when the app closes', async () => {
    await app.close();
    const client = new Client({ connectionString: databaseUrl, connectionTimeoutMillis: 3_000 });
    await expect(client.connect()).rejects.toMatchObject({ code: 'ECONNREFUSED' });
    app = undefined as unknown as INestApplication;
  });
});

describe('startService with extensions (as npm start, with forRoot options)', () => {
  let service: RunningService | undefined;
  afterAll(async () => {
    await service?.close();
  });

  it("serves the app with checks and listeners built with the app's own dependencies", async () => {
    const port = await freePort();
    service = await startService(
      {
        DATABASE_URL: 'pglite://memory',
        PORT: String(port),
        HOST: '127.0.0.1',
        LOG_LEVEL: 'silent',
        DEMO_SEED: 'false',
        BOOTSTRAP_API_KEYS: `acme=${KEY}`,
      },
      {
        preDialChecks: [ConsentCheck],
        listeners: [CallEndings],
        imports: [ConsentModule],
        providers: [AuditLog],
      },
    );
    const health = await request(`http://127.0.0.1:${port}`).get('/api/v1/health');
    expect(health.status).toBe(200);
    expect(health.body).toEqual({ status: 'ok' });
    const [check] = service.app.get(PreDialChecks).checks;
    expect(check).toBeInstanceOf(ConsentCheck);
    const [listener] = service.app.get(CampaignEventListeners).listeners;
    expect(listener).toBeInstanceOf(CallEndings);
    expect((listener as CallEndings).log).toBe(service.app.get(AuditLog));
  });
});
