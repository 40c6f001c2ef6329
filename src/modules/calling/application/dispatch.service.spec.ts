import { Logger } from '@nestjs/common';
import { CallLogService } from '../../call-log/application/call-log.service';
import type { Campaign } from '../../campaign/domain/campaign';
import type { Target } from '../../target/domain/target';
import {
  InMemoryNumberBlacklist,
  RecordingCallFinishedOutbox,
} from '../../../testing/calling-fakes';
import { InMemoryCampaignReader } from '../../../testing/in-memory-campaign-reader';
import { FakeClock } from '../../../testing/fake-clock';
import { InMemoryCallLogRepository } from '../../../testing/in-memory-call-log.repository';
import { InMemoryDispatchRepository } from '../../../testing/in-memory-dispatch.repository';
import { ScriptedCallProvider } from '../../../testing/scripted-call-provider';
import { RecordingCallScheduler } from '../../../testing/recording-call-scheduler';
import { CallingSettings } from './calling-settings';
import { DispatchService } from './dispatch.service';
import { InMemoryUnitOfWork } from '../../../testing/in-memory-unit-of-work';
import { aCampaign, aTarget } from '../../../testing/test-data';

beforeAll(() => Logger.overrideLogger(false));

const T0 = '2026-01-05T15:00:00.000Z'; // Monday 10:00 in New York

function setup(campaignOverrides: Partial<Campaign> = {}) {
  const clock = new FakeClock(T0);
  const targets = new InMemoryDispatchRepository();
  const logs = new InMemoryCallLogRepository();
  const campaigns = new InMemoryCampaignReader();
  const blacklist = new InMemoryNumberBlacklist();
  const provider = new ScriptedCallProvider();
  const outbox = new RecordingCallFinishedOutbox();
  const scheduler = new RecordingCallScheduler();
  const campaign = aCampaign(campaignOverrides);
  campaigns.put(campaign);
  const service = new DispatchService(
    targets,
    new CallLogService(logs),
    campaigns,
    blacklist,
    provider,
    outbox,
    scheduler,
    new InMemoryUnitOfWork(),
    clock,
    new CallingSettings(30, 15, 60, 120, 15),
  );
  const scheduledTarget = (overrides: Partial<Target> = {}) => {
    const t = aTarget({
      inputData: { name: 'x' },
      status: 'Scheduled',
      scheduledTime: clock.now(),
      ...overrides,
    });
    targets.put(t);
    return t;
  };
  return {
    clock,
    targets,
    logs,
    campaigns,
    blacklist,
    provider,
    outbox,
    scheduler,
    campaign,
    service,
    scheduledTarget,
  };
}

describe('DispatchService.dispatch', () => {
  it('GOOD: Finished, successful, call log written and attached, one event', async () => {
    const s = setup();
    const t = s.scheduledTarget();
    await expect(s.service.dispatch(t.id)).resolves.toBe('called');

    const after = s.targets.get(t.id);
    expect(after).toMatchObject({
      status: 'Finished',
      resolution: 'successful',
      category: 'GOOD',
      subcategory: null,
      outcome: 'Call completed',
      attempts: 1,
      retries: 0,
      callLogIds: [1],
      executionSeconds: 65,
      outputData: { confirmed: true },
      lastCallDate: new Date(T0),
      categorization: {
        category: 'GOOD',
        subcategory: null,
        resolution: 'successful',
        outcome: 'GOOD',
        call_log_id: 1,
      },
      statistics: {
        attempts: 1,
        execution_seconds: 65,
        last_call_outcome: 'GOOD',
        last_call_log_id: 1,
      },
    });
    const log = s.logs.logs.get(1)!;
    expect(log).toMatchObject({
      targetId: t.id,
      attempt: 1,
      to: '+15550101234',
      from: '+15550009999',
      outcome: 'GOOD',
      endedReason: 'scripted-good',
      durationSeconds: 65,
      leaseExpiresAt: null,
      transcripts: [{ role: 'assistant', message: 'hello' }],
    });
    expect(s.provider.calls).toEqual([
      expect.objectContaining({
        targetId: t.id,
        to: '+15550101234',
        attempt: 1,
        inputData: { name: 'x' },
      }),
    ]);
    expect(s.outbox.events).toEqual([
      {
        organizationId: t.organizationId,
        campaignId: t.campaignId,
        targetId: t.id,
        callLogId: 1,
        attempt: 1,
        maxAttempts: 3,
        nextAttemptScheduled: null,
        status: 'Finished',
        resolution: 'successful',
        category: 'GOOD',
        subcategory: null,
      },
    ]);
    expect(s.scheduler.scheduled).toEqual([]);
  });

  it('uses the payor resolutions and the category enum of the campaign type', async () => {
    const payor = setup({ type: 'payor' });
    const a = payor.scheduledTarget();
    await payor.service.dispatch(a.id);
    expect(payor.targets.get(a.id)).toMatchObject({
      status: 'Finished',
      resolution: 'retrieved',
      category: 'GOOD',
    });

    const billing = setup({ type: 'patient_billing' });
    const b = billing.scheduledTarget();
    await billing.service.dispatch(b.id);
    expect(billing.targets.get(b.id)).toMatchObject({
      status: 'Finished',
      resolution: 'successful',
      category: 'RESOLVED',
    });
  });

  it('HUMAN_ONLY: To review, no retry', async () => {
    const s = setup();
    s.provider.then('HUMAN_ONLY');
    const t = s.scheduledTarget();
    await s.service.dispatch(t.id);
    expect(s.targets.get(t.id)).toMatchObject({
      status: 'To review',
      resolution: null,
      category: 'HUMAN_ONLY',
      subcategory: 'MID_CALL',
    });
    expect(s.scheduler.scheduled).toEqual([]);
  });

  it.each(['NO_RESPONSE', 'VOICEMAIL', 'DISCONNECTED'] as const)(
    '%s: back to Scheduled after retry_delay while attempts are left, then Finished unsuccessful',
    async (outcome) => {
      const s = setup({ maxAttempts: 2, retryDelayMinutes: 30 });
      s.provider.then(outcome, outcome);
      const t = s.scheduledTarget({ fallbackPhoneNumber: null });
      await s.service.dispatch(t.id);

      const retryAt = new Date(new Date(T0).getTime() + 30 * 60_000);
      expect(s.targets.get(t.id)).toMatchObject({
        status: 'Scheduled',
        scheduledTime: retryAt,
        attempts: 1,
        retries: 0,
        resolution: null,
        category: outcome,
      });
      expect(s.scheduler.scheduled).toEqual([
        { targetId: t.id, campaignId: t.campaignId, at: retryAt },
      ]);
      expect(s.outbox.events[0]).toMatchObject({
        status: 'Scheduled',
        attempt: 1,
        nextAttemptScheduled: retryAt,
      });

      // Too early: a stale job does nothing.
      await expect(s.service.dispatch(t.id)).resolves.toBe('not_due');
      s.clock.set(retryAt);
      await s.service.dispatch(t.id);
      expect(s.targets.get(t.id)).toMatchObject({
        status: 'Finished',
        resolution: 'unsuccessful',
        category: outcome,
        attempts: 2,
        retries: 1,
        callLogIds: [1, 2],
        executionSeconds: 10,
      });
      expect(s.outbox.events[1]).toMatchObject({
        status: 'Finished',
        attempt: 2,
        nextAttemptScheduled: null,
      });
      expect(s.provider.calls).toHaveLength(2);
    },
  );

  it('technical failure: retried, then Failed after the last attempt', async () => {
    const s = setup({ maxAttempts: 2, retryDelayMinutes: 1 });
    s.provider.then(new Error('carrier down'), 'TECHNICAL_FAILURE');
    const t = s.scheduledTarget();
    await s.service.dispatch(t.id);
    expect(s.targets.get(t.id)).toMatchObject({
      status: 'Scheduled',
      category: 'SERVICE_NOT_AVAILABLE',
    });
    expect(s.logs.logs.get(1)).toMatchObject({
      outcome: 'TECHNICAL_FAILURE',
      endedReason: 'provider-error',
    });
    s.clock.advanceMinutes(1);
    await s.service.dispatch(t.id);
    expect(s.targets.get(t.id)).toMatchObject({
      status: 'Failed',
      resolution: 'unsuccessful',
      category: 'SERVICE_NOT_AVAILABLE',
      subcategory: 'TECHNICAL_ISSUE',
      attempts: 2,
    });
  });

  it('dials the fallback number on the attempt after a failed connect, and its operating hours apply', async () => {
    const s = setup({ retryDelayMinutes: 10 });
    s.provider.then('DISCONNECTED', 'NO_RESPONSE', 'GOOD');
    const t = s.scheduledTarget({
      phoneNumber: '+15550100002',
      fallbackPhoneNumber: '+15550107777',
      // The fallback answers from 11:00 New York time only.
      fallbackOperatingHours: {
        tz: 'America/New_York',
        monday: [{ start: '11:00', end: '18:00' }],
      },
    });
    await s.service.dispatch(t.id);
    s.clock.advanceMinutes(10); // 10:10 New York: the fallback is closed until 11:00
    await expect(s.service.dispatch(t.id)).resolves.toBe('deferred');
    const opening = new Date('2026-01-05T16:00:00.000Z');
    expect(s.targets.get(t.id)).toMatchObject({ status: 'Scheduled', scheduledTime: opening });
    s.clock.set(opening);
    await s.service.dispatch(t.id);
    // No answer on the fallback: the next attempt tries the fallback again (it did connect).
    s.clock.advanceMinutes(10);
    await s.service.dispatch(t.id);
    expect(s.provider.calls.map((c) => c.to)).toEqual([
      '+15550100002',
      '+15550107777',
      '+15550107777',
    ]);
    expect(s.targets.get(t.id)).toMatchObject({ status: 'Finished', attempts: 3 });
  });

  it('defers outside the calling window to the next opening in the campaign time zone', async () => {
    const s = setup({
      callingWindow: { tz: 'America/Los_Angeles', monday: [{ start: '09:00', end: '17:00' }] },
    });
    const t = s.scheduledTarget(); // 07:00 in Los Angeles
    await expect(s.service.dispatch(t.id)).resolves.toBe('deferred');
    const opening = new Date('2026-01-05T17:00:00.000Z');
    expect(s.targets.get(t.id)).toMatchObject({
      status: 'Scheduled',
      scheduledTime: opening,
      attempts: 0,
    });
    expect(s.scheduler.scheduled).toEqual([
      { targetId: t.id, campaignId: t.campaignId, at: opening },
    ]);
    expect(s.provider.calls).toEqual([]);
    s.clock.set(opening);
    await expect(s.service.dispatch(t.id)).resolves.toBe('called');
  });

  it('defers across a DST boundary to the local opening time', async () => {
    // Saturday 2026-03-07 12:00 New York (EST); next weekday opening is Monday 09:00 EDT = 13:00Z.
    const s = setup({
      callingWindow: { tz: 'America/New_York', monday: [{ start: '09:00', end: '17:00' }] },
    });
    s.clock.set('2026-03-07T17:00:00.000Z');
    const t = s.scheduledTarget();
    await s.service.dispatch(t.id);
    expect(s.targets.get(t.id).scheduledTime).toEqual(new Date('2026-03-09T13:00:00.000Z'));
  });

  it('never dials a blacklisted number: Finished / BLACKLISTED_PHONE, no call log, one event', async () => {
    const blacklistId = '00000000-0000-4000-8000-0000000000b1';
    const s = setup({ blacklistIds: [blacklistId], type: 'payor' });
    s.blacklist.add(blacklistId, '+15550101234');
    const t = s.scheduledTarget();
    await expect(s.service.dispatch(t.id)).resolves.toBe('blacklisted');
    expect(s.targets.get(t.id)).toMatchObject({
      status: 'Finished',
      category: 'BLACKLISTED_PHONE',
      resolution: 'not_retrieved',
      callLogIds: null,
      attempts: 0,
    });
    expect(s.provider.calls).toEqual([]);
    expect(s.logs.logs.size).toBe(0);
    expect(s.outbox.events).toEqual([
      expect.objectContaining({
        callLogId: null,
        status: 'Finished',
        category: 'BLACKLISTED_PHONE',
        attempt: 0,
      }),
    ]);
  });

  it('defers when the campaign is at max_concurrent_calls', async () => {
    const s = setup({ maxConcurrentCalls: 1 });
    const a = s.scheduledTarget();
    const b = s.scheduledTarget();
    s.provider.hold();
    const first = s.service.dispatch(a.id);
    await new Promise((r) => setImmediate(r));
    expect(s.targets.get(a.id).status).toBe('In Progress');
    await expect(s.service.dispatch(b.id)).resolves.toBe('busy');
    const deferred = s.targets.get(b.id);
    expect(deferred.status).toBe('Scheduled');
    expect(deferred.scheduledTime!.getTime()).toBeGreaterThan(new Date(T0).getTime());
    expect(s.scheduler.scheduled).toEqual([
      { targetId: b.id, campaignId: b.campaignId, at: deferred.scheduledTime },
    ]);
    expect([...s.targets.waitlist.keys()]).toEqual([b.id]);
    s.provider.release();
    await first;
    expect(s.targets.get(a.id).status).toBe('Finished');
    // The freed slot goes to the waiting target at once, with a job for now.
    expect(s.targets.waitlist.size).toBe(0);
    expect(s.targets.get(b.id).scheduledTime).toEqual(s.clock.now());
    expect(s.scheduler.scheduled.at(-1)).toEqual({
      targetId: b.id,
      campaignId: b.campaignId,
      at: s.clock.now(),
    });
    // The backstop job is now stale; the wake-up job calls.
    await expect(s.service.dispatch(b.id, deferred.scheduledTime)).resolves.toBe('stale');
    await expect(s.service.dispatch(b.id, s.clock.now())).resolves.toBe('called');
  });

  it('a woken target that cannot use the slot (outside its hours) passes it to the next one', async () => {
    const s = setup({ maxConcurrentCalls: 1 });
    const a = s.scheduledTarget();
    // b's number only answers on Sundays; T0 is a Monday.
    const b = s.scheduledTarget({
      phoneOperatingHours: { tz: 'UTC', sunday: [{ start: '00:00', end: '24:00' }] },
    });
    const c = s.scheduledTarget();
    s.provider.hold();
    const first = s.service.dispatch(a.id);
    await new Promise((r) => setImmediate(r));
    s.targets.targets.get(b.id)!.phoneOperatingHours = null; // queue b behind the cap first
    await expect(s.service.dispatch(b.id)).resolves.toBe('busy');
    s.targets.targets.get(b.id)!.phoneOperatingHours = {
      tz: 'UTC',
      sunday: [{ start: '00:00', end: '24:00' }],
    };
    await expect(s.service.dispatch(c.id)).resolves.toBe('busy');
    s.provider.release();
    await first;
    expect(s.targets.get(b.id).scheduledTime).toEqual(s.clock.now()); // woken
    await expect(s.service.dispatch(b.id, s.clock.now())).resolves.toBe('deferred');
    expect(s.targets.get(c.id).scheduledTime).toEqual(s.clock.now()); // the slot went on to c
    await expect(s.service.dispatch(c.id, s.clock.now())).resolves.toBe('called');
  });

  it('a job early for its time (clock skew) looks again at the scheduled time', async () => {
    const s = setup();
    const later = new Date(new Date(T0).getTime() + 60_000);
    const t = s.scheduledTarget({ scheduledTime: later });
    await expect(s.service.dispatch(t.id, later)).resolves.toBe('not_due');
    expect(s.scheduler.scheduled).toEqual([
      { targetId: t.id, campaignId: t.campaignId, at: later },
    ]);
    expect(s.provider.calls).toEqual([]);
  });

  it('is idempotent: a second run for a handled target does nothing', async () => {
    const s = setup();
    const t = s.scheduledTarget();
    await s.service.dispatch(t.id);
    await expect(s.service.dispatch(t.id)).resolves.toBe('skipped');
    expect(s.provider.calls).toHaveLength(1);
    expect(s.outbox.events).toHaveLength(1);
  });

  it('a target without any phone number ends Failed without a call', async () => {
    const s = setup();
    const t = s.scheduledTarget({ phoneNumber: null });
    await expect(s.service.dispatch(t.id)).resolves.toBe('undialable');
    expect(s.targets.get(t.id)).toMatchObject({
      status: 'Failed',
      category: 'INVALID_PHONE_NUMBER',
    });
  });
});

describe('DispatchService.sweep (recovery)', () => {
  it('a call whose worker died (lease expired) goes to review and is never dialled again', async () => {
    const s = setup({ retryDelayMinutes: 5 });
    const t = s.scheduledTarget();
    s.provider.hold();
    void s.service.dispatch(t.id); // the "worker" that will never come back
    await new Promise((r) => setImmediate(r));
    expect(s.targets.get(t.id).status).toBe('In Progress');

    s.clock.advance(10_000);
    await expect(s.service.sweep()).resolves.toEqual({ recovered: 0, rescued: 0 }); // lease still valid
    s.clock.advance(31_000);
    await expect(s.service.sweep()).resolves.toEqual({ recovered: 1, rescued: 0 });
    expect(s.targets.get(t.id)).toMatchObject({
      status: 'To review',
      attempts: 1,
      resolution: null,
      category: 'SERVICE_NOT_AVAILABLE',
      outcome: 'Call lost with its worker: outcome unknown',
    });
    expect(s.logs.logs.get(1)).toMatchObject({
      outcome: 'TECHNICAL_FAILURE',
      endedReason: 'worker-lost',
      leaseExpiresAt: null,
    });
    expect(s.outbox.events).toEqual([
      expect.objectContaining({ callLogId: 1, status: 'To review', nextAttemptScheduled: null }),
    ]);
    expect(s.scheduler.scheduled).toEqual([]); // no retry was scheduled

    // The dead worker's late result is ignored: the recovered outcome stands.
    s.provider.release();
    await new Promise((r) => setImmediate(r));
    expect(s.targets.get(t.id).status).toBe('To review');
    expect(s.outbox.events).toHaveLength(1);
  });

  it('a call stuck in Post-processing is finished from its call log', async () => {
    const s = setup();
    const t = s.scheduledTarget();
    await s.service.dispatch(t.id);
    // Simulate a crash between Post-processing and the outcome: rewind the target, keep the lease.
    const produced = s.targets.get(t.id).outputData;
    expect(produced).not.toEqual({});
    Object.assign(s.targets.targets.get(t.id)!, { status: 'Post-processing', outputData: {} });
    s.logs.logs.get(1)!.leaseExpiresAt = new Date(new Date(T0).getTime() + 30_000);
    s.clock.advance(60_000);
    await expect(s.service.sweep()).resolves.toEqual({ recovered: 1, rescued: 0 });
    expect(s.targets.get(t.id)).toMatchObject({
      status: 'Finished',
      resolution: 'successful',
      category: 'GOOD',
      outputData: produced, // kept with the call log, so recovery loses nothing
    });
  });

  it('gives a due Scheduled target whose job was lost a new dispatch job, once per grace period', async () => {
    const s = setup();
    const t = s.scheduledTarget();
    s.clock.advance(121_000);
    await expect(s.service.sweep()).resolves.toEqual({ recovered: 0, rescued: 1 });
    expect(s.scheduler.scheduled).toEqual([
      { targetId: t.id, campaignId: t.campaignId, at: s.clock.now() },
    ]);
    await expect(s.service.sweep()).resolves.toEqual({ recovered: 0, rescued: 0 });
  });
});
