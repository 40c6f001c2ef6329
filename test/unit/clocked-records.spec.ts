import { INestApplication } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { CampaignCallingTestingModule, FakeClock } from '../../src/testing/index.js';
import { CREATED_AT, expectClockedRecords, recordEverything } from '../support/clocked-records.js';

// A test that sets the clock sets every time the service records (issue 30): created_at included.
describe('the Clock port on the in-memory fakes (CampaignCallingTestingModule)', () => {
  let app: INestApplication;
  const clock = new FakeClock(CREATED_AT);

  beforeAll(async () => {
    const moduleRef = await Test.createTestingModule({
      imports: [
        CampaignCallingTestingModule.forRoot({
          apiKey: 'test-key-0123456789abcdef0123456789',
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
