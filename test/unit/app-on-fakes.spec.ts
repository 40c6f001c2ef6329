// The whole service on its in-memory fakes (CampaignCallingTestingModule, `./testing`), and the ports
// it binds them to. One file, not one per story: each test file loads the service's whole module graph
// afresh, about a second of the unit project's time.
import { existsSync, readFileSync } from 'fs';
import { join } from 'path';
import { Controller, Get, Injectable, INestApplication, Module } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import request from 'supertest';
import { providedToken } from '../../src/common/adapters/adapter-binding.js';
import { databaseOf, DOMAIN_MODULES } from '../../src/campaign-calling.module.js';
import { DATABASE_ADAPTERS } from '../../src/database/database.module.js';
import { METRICS_ADAPTERS } from '../../src/metrics/metrics.module.js';
import * as root from '../../src/index.js';
import {
  BlacklistModule,
  BlacklistService,
  CallFinishedEvent,
  CampaignEventListener,
  Clock,
  RequiresPermission,
  type TargetTimelineEvent,
  WebhookSender,
} from '../../src/index.js';
import * as testing from '../../src/testing/index.js';
import {
  CampaignCallingTestingModule,
  FakeClock,
  RecordingWebhookSender,
  waitUntil,
} from '../../src/testing/index.js';
import { CREATED_AT, expectClockedRecords, recordEverything } from '../support/clocked-records.js';
import { scenarioTargetEvents } from '../support/target-event-scenario.js';

const API_KEY = 'test-key-0123456789abcdef0123456789';

// The README's "The whole service on in-memory fakes" example, kept true by running it.
async function appOnFakes(clock: FakeClock): Promise<INestApplication> {
  const moduleRef = await Test.createTestingModule({
    imports: [CampaignCallingTestingModule.forRoot({ apiKey: API_KEY })],
  })
    .overrideProvider(Clock)
    .useValue(clock)
    .overrideProvider(WebhookSender)
    .useValue(new RecordingWebhookSender())
    .compile();
  const app = moduleRef.createNestApplication({ logger: false });
  await app.init();
  return app;
}

describe('the whole service on in-memory fakes (CampaignCallingTestingModule)', () => {
  let app: INestApplication;
  const clock = new FakeClock('2026-03-02T14:00:00Z');

  beforeAll(async () => {
    app = await appOnFakes(clock);
  });
  afterAll(() => app.close());

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
});

// An app of its own, so that closing it is no other test's concern, whatever order tests run in.
describe('the whole service on in-memory fakes, closed', () => {
  const timeouts = () => process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;

  it('leaves no timer running once closed', async () => {
    const before = timeouts();
    const app = await appOnFakes(new FakeClock('2026-03-02T14:00:00Z'));
    await app.close();
    expect(timeouts()).toBeLessThanOrEqual(before);
  });
});

// A test that sets the clock sets every time the service records (issue 30): created_at included.
describe('the Clock port on the in-memory fakes (CampaignCallingTestingModule)', () => {
  let app: INestApplication;
  const clock = new FakeClock(CREATED_AT);

  beforeAll(async () => {
    const moduleRef = await Test.createTestingModule({
      imports: [
        CampaignCallingTestingModule.forRoot({
          apiKey: API_KEY,
          clock,
        }),
      ],
    }).compile();
    app = moduleRef.createNestApplication({ logger: false });
    await app.init();
  });
  afterAll(() => app.close());

  it('stamps every object an organization creates and changes with the clock', async () => {
    const records = await recordEverything(app, clock);
    expectClockedRecords(records);
  });
});

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

// In-process listeners (`listeners` of forRoot) on the whole service running on its fakes.
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

// A domain module imported alone, its ports bound by the testing module: the routes of that module
// (and of those it imports) answer as the service's; no other module's do.
describe('BlacklistModule imported alone', () => {
  const API_KEY = 'alone-key-0123456789abcdef0123456789';
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

/**
 * Where each port's fake is held equal to its real adapter: every port whose adapter is SQL has a
 * contract suite in test/contracts. A port whose adapter talks to the outside (HTTP, the system clock,
 * the job queue's workers, encryption) is proved by the suite named here instead, against local
 * emulators or the real thing.
 */
const CONTRACTS: Record<string, string> = {
  Clock:
    'src/modules/telephony/domain/calling-rules.spec.ts (FakeClock drives the rules) and every e2e on SystemClock',
  UnitOfWork:
    'test/contracts/* (every SQL suite runs in TypeOrmUnitOfWork, every fake suite in InMemoryUnitOfWork)',
  JobQueue: 'test/e2e/webhooks.e2e-spec.ts and test/e2e/pg-boss-upgrade.e2e-spec.ts (pg-boss)',
  ExclusiveRunner: 'test/e2e/concurrency.e2e-spec.ts (advisory locks)',
  Metrics: 'test/e2e/operations.e2e-spec.ts (/metrics)',
  OrganizationRepository: 'test/contracts/organization-repository.contract.ts',
  AuditEventStore: 'test/contracts/audit-event-store.contract.ts',
  ApiKeyRevocations: 'test/contracts/api-key-revocations.contract.ts',
  UserRepository: 'test/contracts/people.contract.ts',
  SessionStore: 'test/contracts/people.contract.ts',
  IdentityProvider: 'test/e2e/sso.e2e-spec.ts (a real OpenID Connect provider on loopback)',
  BlacklistRepository: 'test/contracts/blacklist-repository.contract.ts',
  CompliancePolicyRepository: 'test/contracts/compliance.contract.ts',
  CallLedger: 'test/contracts/compliance.contract.ts',
  DecisionLog: 'test/contracts/compliance.contract.ts',
  DoNotCallRepository: 'test/contracts/do-not-call-repository.contract.ts',
  RecipientLocks: 'test/contracts/compliance.contract.ts',
  CampaignRepository: 'test/contracts/campaign-repository.contract.ts',
  TargetRepository: 'test/contracts/target-repository.contract.ts',
  TargetTransitions: 'test/contracts/target-transitions.contract.ts',
  TargetEventLog: 'test/contracts/target-event-log.contract.ts',
  TargetImportRepository: 'test/contracts/target-import-repository.contract.ts',
  CallLogRepository: 'test/contracts/call-log-repository.contract.ts',
  CallEventStore: 'test/contracts/calling-stores.contract.ts',
  PlacementRate: 'test/contracts/calling-stores.contract.ts',
  SimulatedCallStore: 'test/contracts/calling-stores.contract.ts',
  CallProviders: 'src/modules/calling/infrastructure/connection-call-providers.spec.ts',
  TargetStepData: 'test/contracts/target-step-data.contract.ts',
  WebhookDeliveryRepository: 'test/contracts/webhook-delivery-repository.contract.ts',
  TargetNotifications: 'test/contracts/webhook-delivery-repository.contract.ts',
  WebhookSender: 'test/e2e/webhooks.e2e-spec.ts and webhooks-ssrf.e2e-spec.ts (a local receiver)',
  ProviderConnectionRepository: 'test/contracts/provider-connection-repository.contract.ts',
  ProviderCallClients: 'test/e2e/provider-clients.e2e-spec.ts (against the provider emulators)',
  ProviderDestinations: 'test/e2e/provider-connections.e2e-spec.ts (private addresses refused)',
  SecretBox: 'src/common/secrets/aes-gcm-secret-box.spec.ts',
  MessageRepository: 'test/contracts/message-repository.contract.ts',
  ProviderTextClients:
    'test/e2e/providers-twilio-messaging.e2e-spec.ts (against the Twilio Messaging emulator)',
  RetentionStore: 'test/e2e/retention.e2e-spec.ts (policies and run records through the API)',
  RetentionCampaigns:
    'test/contracts/campaign-repository.contract.ts (the one implementation, CampaignOwnership, runs over the campaign repository, fake or SQL)',
  Redactor:
    'src/modules/retention/domain/redaction.spec.ts (the default adapter is pure: its own fake)',
  TargetData: 'test/e2e/retention.e2e-spec.ts (every copy purged and read back, both databases)',
  CallLogData: 'test/e2e/retention.e2e-spec.ts (every copy purged and read back, both databases)',
  MessageData: 'test/e2e/retention.e2e-spec.ts (every copy purged and read back, both databases)',
  WebhookData: 'test/e2e/retention.e2e-spec.ts (every copy purged and read back, both databases)',
  ComplianceData:
    'test/e2e/retention.e2e-spec.ts (every copy purged and read back, both databases)',
};

const repo = join(import.meta.dirname, '..', '..');
const exportedTesting = Object.values(testing).filter((v) => typeof v === 'function');

/** A team's own routes: one forgot its permission, one declares it. */
@Controller('api/v1/acme')
class AcmeController {
  @Get('undeclared')
  undeclared() {
    return { ok: true };
  }

  @RequiresPermission('campaigns.read')
  @Get('declared')
  declared() {
    return { ok: true };
  }
}

@Module({ controllers: [AcmeController] })
class AcmeModule {}

describe('a route of its own that declares no permission', () => {
  const API_KEY = 'acme-key-0123456789abcdef0123456789';
  let app: INestApplication;

  beforeAll(async () => {
    const moduleRef = await Test.createTestingModule({
      imports: [
        CampaignCallingTestingModule.forRoot({ apiKey: API_KEY, modules: [BlacklistModule] }),
        AcmeModule,
      ],
    }).compile();
    app = moduleRef.createNestApplication({ logger: false });
    await app.init();
  });
  afterAll(() => app.close());

  it('is refused to every key (403), while a declared one answers', async () => {
    const get = (path: string) => request(app.getHttpServer()).get(path).set('X-API-Key', API_KEY);
    const refused = await get('/api/v1/acme/undeclared');
    expect([refused.status, refused.body]).toEqual([
      403,
      { detail: 'GET /api/v1/acme/undeclared declares no permission: refused to every role' },
    ]);
    const declared = await get('/api/v1/acme/declared');
    expect([declared.status, declared.body]).toEqual([200, { ok: true }]);
  });
});

describe('the ports the package exports', () => {
  const bound = new Set(
    [...DATABASE_ADAPTERS, ...METRICS_ADAPTERS, ...DOMAIN_MODULES.flatMap((d) => d.adapters)].map(
      providedToken,
    ),
  );

  it('are exactly the ones the root module binds, each exported from the root by its name', () => {
    expect(new Set(root.PORTS)).toEqual(bound);
    for (const port of root.PORTS) expect((root as Record<string, unknown>)[port.name]).toBe(port);
  });

  // What the testing module runs on: a fake exported from ./testing for every port it binds.
  const fakes = new Map(testing.inMemoryAdapters(new testing.FakeClock()));

  it.each(root.PORTS.map((p) => [p.name, p] as const))('%s has a fake in ./testing', (_, port) => {
    const bound = fakes.get(port) as { useValue?: object } | undefined;
    const fake = bound?.useValue?.constructor;
    const candidates = fake
      ? [fake]
      : exportedTesting.filter((v) => (v as { prototype?: object }).prototype instanceof port);
    expect(candidates.length).toBeGreaterThan(0);
    for (const c of candidates) expect(exportedTesting).toContain(c);
  });

  it.each(root.PORTS.map((p) => [p.name] as const))(
    '%s has a suite holding its fake to its adapter',
    (name) => {
      const where = CONTRACTS[name];
      expect(where).toBeDefined();
      const file = where.split(' ')[0];
      const path = file.endsWith('*') ? join(repo, 'test/contracts') : join(repo, file);
      expect(existsSync(path)).toBe(true);
      // A suite file of its own must name the port (a folder of suites is checked by the line above).
      const ownFile = file.startsWith('test/contracts/') && !file.endsWith('*');
      expect(ownFile ? readFileSync(path, 'utf8') : name).toContain(name);
    },
  );
});

// docs/extending.md, "Giving a check, a carrier or a listener its own dependencies".
describe('extension classes with dependencies of their own (forRoot({ imports, providers }))', () => {
  @Injectable()
  class ConsentClient {
    async lookup(numbers: string[]) {
      return Object.fromEntries(numbers.map((n) => [n, 'given']));
    }
  }
  @Module({ providers: [ConsentClient], exports: [ConsentClient] })
  class ConsentModule {}
  class Region {
    readonly name = 'eu';
  }
  @Injectable()
  class ConsentCheck extends root.PreDialCheck {
    readonly name = 'consent';
    constructor(
      readonly consents: ConsentClient,
      readonly region: Region,
    ) {
      super();
    }
    async check(calls: root.PreDialCall[]): Promise<root.PreDialVerdict[]> {
      return calls.map(() => ({ action: 'call' }));
    }
  }

  it('builds a check class with a service of an imported module and a provider given', async () => {
    const moduleRef = await Test.createTestingModule({
      imports: [
        CampaignCallingTestingModule.forRoot({
          apiKey: API_KEY,
          preDialChecks: [ConsentCheck],
          imports: [ConsentModule],
          providers: [Region],
        }),
      ],
    }).compile();
    const [check] = moduleRef.get(root.PreDialChecks).checks as ConsentCheck[];
    expect(check).toBeInstanceOf(ConsentCheck);
    expect(check.consents).toBe(moduleRef.get(ConsentClient));
    expect(check.region).toBeInstanceOf(Region);
    await moduleRef.close();
  });

  it('fails as Nest does when the dependency is not given', async () => {
    await expect(
      Test.createTestingModule({
        imports: [
          CampaignCallingTestingModule.forRoot({ apiKey: API_KEY, preDialChecks: [ConsentCheck] }),
        ],
      }).compile(),
    ).rejects.toThrow(/Nest can't resolve dependencies of the ConsentCheck \(\?, Region\)/);
  });
});

describe('the database forRoot runs on (databaseOf)', () => {
  const config = (env: Record<string, string>) => root.loadConfig(env);

  it("is the configuration's DATABASE_URL, and with none the embedded PGlite npm start uses", () => {
    expect(databaseOf(undefined, config({}))).toEqual({
      kind: 'pglite',
      dataDir: './.data/pglite',
    });
    expect(databaseOf(undefined, config({ DATABASE_URL: 'pglite://memory' }))).toEqual({
      kind: 'pglite',
      dataDir: null,
    });
    expect(databaseOf(undefined, config({ DATABASE_URL: 'postgres://db/x' }))).toEqual({
      kind: 'postgres',
      url: 'postgres://db/x',
    });
  });

  it('is the database option when given: a URL, or embedded (in memory unless a directory is named)', () => {
    const fromEnv = config({ DATABASE_URL: 'postgres://db/x' });
    expect(databaseOf({ url: 'postgres://other/y' }, fromEnv)).toEqual({
      kind: 'postgres',
      url: 'postgres://other/y',
    });
    expect(databaseOf({ url: 'pglite://./data' }, fromEnv)).toEqual({
      kind: 'pglite',
      dataDir: './data',
    });
    expect(databaseOf({ embedded: true }, fromEnv)).toEqual({ kind: 'pglite', dataDir: null });
    expect(databaseOf({ embedded: true, dataDir: './d' }, fromEnv)).toEqual({
      kind: 'pglite',
      dataDir: './d',
    });
  });
});

// docs/providers.md, "Adding a provider": the built-in types are registered VoiceProviders, in the
// registry a team's carrier joins, and a connection's calls go through its type's provider alike.
describe('voice providers: the built-in types and a team’s in one registry', () => {
  class AcmeVoiceProvider extends root.VoiceProvider {
    readonly type: string = 'acme';
    readonly credentialFields = ['api_key'];
    readonly settingFields = [];
    readonly provider = new testing.ScriptedCallProvider('acme');
    readonly connected: string[] = [];
    checkSettings(): root.SettingProblem[] {
      return [];
    }
    connect(connection: root.ResolvedConnection): root.CallProvider {
      this.connected.push(connection.id);
      return this.provider;
    }
  }
  const twilioClient = new testing.ScriptedCallProvider('twilio-client');
  let app: INestApplication;
  const acme = new AcmeVoiceProvider();

  beforeAll(async () => {
    const moduleRef = await Test.createTestingModule({
      imports: [CampaignCallingTestingModule.forRoot({ apiKey: API_KEY, voiceProviders: [acme] })],
    })
      .overrideProvider(root.ProviderCallClients)
      .useValue(new testing.ScriptedProviderCallClients({ twilio: twilioClient }))
      .compile();
    app = moduleRef.createNestApplication({ logger: false });
    await app.init();
  });
  afterAll(() => app.close());

  const create = (body: object) =>
    request(app.getHttpServer())
      .post('/api/v1/provider-connections')
      .set('X-API-Key', API_KEY)
      .send(body);

  it('holds the built-in types first, then the team’s, each a VoiceProvider', () => {
    const registry = app.get(root.VoiceProviders);
    expect(registry.types()).toEqual(['simulated', 'http', 'twilio', 'vapi', 'retell', 'acme']);
    for (const type of registry.types()) {
      expect(registry.find(type)).toBeInstanceOf(root.VoiceProvider);
      expect(registry.find(type)?.type).toBe(type);
    }
    expect(registry.find('acme')).toBe(acme);
  });

  it('places a built-in connection and a team’s through the provider registered for its type', async () => {
    const twilio = await create({
      type: 'twilio',
      name: 'Twilio',
      credentials: { account_sid: 'AC' + '1'.repeat(32), auth_token: 'token-token-token' },
      settings: { twiml_url: 'https://example.com/t.xml' },
    });
    const own = await create({ type: 'acme', name: 'Acme', credentials: { api_key: 'k-123' } });
    const sim = await create({ type: 'simulated', name: 'Sim' });
    expect([twilio.status, own.status, sim.status]).toEqual([201, 201, 201]);
    const providers = app.get(root.CallProviders);
    const organizationId = twilio.body.organization_id;
    const through = (providerConnectionId: string) =>
      providers.forCampaign({ organizationId, providerConnectionId });
    expect(await through(twilio.body.id)).toBe(twilioClient);
    expect(await through(own.body.id)).toBe(acme.provider);
    expect(acme.connected).toEqual([own.body.id]);
    expect(await through(sim.body.id)).toBe(await providers.get('simulated'));
  });

  it('refuses a team’s provider that takes a built-in type', () => {
    class OtherTwilio extends AcmeVoiceProvider {
      override readonly type = 'twilio';
    }
    expect(() => new root.VoiceProviders([new OtherTwilio()])).toThrow(
      'voiceProviders: "twilio" cannot be a connection type (a built-in one, or not lowercase letters, digits, - and _)',
    );
  });
});
