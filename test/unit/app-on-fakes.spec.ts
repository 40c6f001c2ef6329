// The README's "Building the app on in-memory fakes" example, kept true by running it.
import { INestApplication } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { Test } from '@nestjs/testing';
import request from 'supertest';
import { Clock } from '../../src/common/clock/clock.js';
import { HttpExceptionFilter } from '../../src/common/http/http-exception.filter.js';
import { RouteTable } from '../../src/common/http/route-table.js';
import { UnitOfWork } from '../../src/common/persistence/unit-of-work.js';
import { PydanticValidationPipe } from '../../src/common/validation/pydantic-validation.pipe.js';
import { AppConfig, loadConfig } from '../../src/config/app-config.js';
import { CampaignReader } from '../../src/modules/campaign/application/ports/campaign-reader.js';
import { TargetController } from '../../src/modules/target/api/target.controller.js';
import { TargetRepository } from '../../src/modules/target/application/ports/target.repository.js';
import { TargetService } from '../../src/modules/target/application/target.service.js';
import { TargetTimelineService } from '../../src/modules/target/application/target-timeline.service.js';
import { TargetEventLog } from '../../src/modules/target/application/ports/target-event-log.js';
import { TargetTransitions } from '../../src/modules/target/application/ports/target-transitions.js';
import { TargetNotifications } from '../../src/modules/webhook/application/ports/target-notifications.js';
import {
  aCampaign,
  FakeClock,
  FixedOrganizationGuard,
  InMemoryCampaignReader,
  InMemoryTargetEventLog,
  InMemoryTargetRepository,
  InMemoryTargetTransitions,
  InMemoryWebhookDeliveryRepository,
  InMemoryUnitOfWork,
  inMemoryCompliance,
  TEST_ORG,
} from '../../src/testing/index.js';
import { ComplianceService } from '../../src/modules/compliance/application/compliance.service.js';

describe('the target API on in-memory fakes (no database)', () => {
  let app: INestApplication;
  const events = new InMemoryTargetEventLog(); // records target changes as the triggers do
  const targets = new InMemoryTargetRepository(events);
  const campaigns = new InMemoryCampaignReader();
  const notifications = new InMemoryWebhookDeliveryRepository(campaigns);

  beforeAll(async () => {
    const moduleRef = await Test.createTestingModule({
      controllers: [TargetController],
      providers: [
        TargetService,
        TargetTimelineService,
        { provide: TargetRepository, useValue: targets },
        {
          provide: TargetTransitions,
          useValue: new InMemoryTargetTransitions(() => targets.table()),
        },
        { provide: TargetEventLog, useValue: events },
        { provide: TargetNotifications, useValue: notifications },
        { provide: CampaignReader, useValue: campaigns },
        {
          provide: ComplianceService,
          useValue: inMemoryCompliance(new FakeClock('2026-03-02T14:00:00Z')).service,
        },
        { provide: UnitOfWork, useValue: new InMemoryUnitOfWork(targets) },
        { provide: Clock, useValue: new FakeClock('2026-03-02T14:00:00Z') },
        { provide: AppConfig, useValue: loadConfig({ PUBLIC_BASE_URL: 'https://calls.example' }) },
        {
          provide: APP_GUARD,
          useValue: new FixedOrganizationGuard({ organizationId: TEST_ORG, apiKeyId: 'k' }),
        },
      ],
    }).compile();
    app = moduleRef.createNestApplication();
    app.useGlobalPipes(new PydanticValidationPipe());
    app.useGlobalFilters(new HttpExceptionFilter(new RouteTable()));
    await app.init();
  });
  afterAll(() => app.close());

  it('adds, launches and reads back a target, and validates like the real app', async () => {
    const campaign = aCampaign();
    campaigns.put(campaign);
    const added = await request(app.getHttpServer())
      .post(`/api/v1/campaigns/${campaign.id}/targets`)
      .send({ targets: [{ phone_number: '+1 555 010 1234', input_data: { a: 1 } }], launch: true });
    expect(added.status).toBe(200);
    expect(added.body).toEqual({ created: 1, ignored: [], target_ids: [expect.any(String)] });
    const [id] = added.body.target_ids;

    const read = await request(app.getHttpServer()).get(`/api/v1/targets/${id}`);
    expect(read.body).toMatchObject({
      id,
      target_url: `https://calls.example/api/v1/targets/${id}`,
      status: 'Scheduled',
      phone_number: '+15550101234',
      input_data: { a: 1 },
      scheduled_time: '2026-03-02T14:00:00.000Z',
      waiting_reason: 'due: the next dispatcher round calls it',
    });

    const timeline = await request(app.getHttpServer()).get(`/api/v1/targets/${id}/events`);
    expect(timeline.body).toEqual({
      items: [
        {
          id: expect.any(String),
          at: '2026-03-02T14:00:00.000Z',
          kind: 'added',
          status: 'Scheduled',
          actor: { type: 'api_key', id: 'k' },
          reason: 'added and launched',
          data: {},
        },
      ],
      next_cursor: null,
    });

    const bad = await request(app.getHttpServer())
      .post(`/api/v1/campaigns/${campaign.id}/targets`)
      .send({ targets: [] });
    expect(bad.status).toBe(422);
    expect(bad.body.detail[0]).toMatchObject({ type: 'too_short', loc: ['body', 'targets'] });
  });
});
