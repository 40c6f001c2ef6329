import { randomBytes } from 'crypto';
import { Clock } from '../../src/common/clock/clock.js';
import { FakeClock } from '../../src/testing/fake-clock.js';
import { CREATED_AT, expectClockedRecords, recordEverything } from '../support/clocked-records.js';
import { createTestApp, TestApp } from '../support/test-app.js';

// The SQL adapters and the triggers take every time they record from the service's clock, never from
// the database's now(): the same story as test/unit/app-on-fakes.spec.ts tells on the fakes.
describe('the Clock port on a real database', () => {
  let t: TestApp;
  const clock = new FakeClock(CREATED_AT);

  beforeAll(async () => {
    t = await createTestApp({
      // Provider credentials are sealed with it.
      env: { SECRETS_KEY: randomBytes(32).toString('base64') },
      customize: (b) => b.overrideProvider(Clock).useValue(clock),
    });
  });
  afterAll(() => t?.close());

  it('stamps every object an organization creates and changes with the clock', async () => {
    const records = await recordEverything(t.app, clock);
    expectClockedRecords(records);
    // What the routes do not show: blacklist entries keep the time they were added.
    const [{ id: blacklistId }] = [records.created.blacklist as { id: string }];
    expect(
      await t.sql(
        `SELECT phone_number, created_at FROM blacklist_phone_numbers WHERE blacklist_id = $1
          ORDER BY phone_number`,
        [blacklistId],
      ),
    ).toEqual([
      { phone_number: '+15550170003', created_at: new Date(CREATED_AT) },
      { phone_number: '+15550170005', created_at: new Date('2026-04-06T10:15:30.750Z') },
    ]);
  });
});
