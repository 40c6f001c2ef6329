import { RecordingFollowUpTexts } from '../../../testing/recording-follow-up-texts.js';
import { inMemoryRedaction } from '../../../testing/in-memory-retention.js';
import { Logger } from '@nestjs/common';
import { ConflictError, NotFoundError } from '../../../common/errors/domain-errors.js';
import {
  InMemoryCallEventStore,
  InMemoryPlacementRate,
  SingleCallProviders,
} from '../../../testing/calling-fakes.js';
import { inMemoryCompliance } from '../../../testing/in-memory-compliance.js';
import { FakeClock } from '../../../testing/fake-clock.js';
import { InMemoryBlacklistRepository } from '../../../testing/in-memory-blacklist.repository.js';
import { InMemoryCallLogRepository } from '../../../testing/in-memory-call-log.repository.js';
import { inMemoryDoNotCall } from '../../../testing/in-memory-do-not-call.repository.js';
import { InMemoryCampaignRepository } from '../../../testing/in-memory-campaign.repository.js';
import { inMemoryProviderConnections } from '../../../testing/in-memory-provider-connection.repository.js';
import { InMemoryTargetEventLog } from '../../../testing/in-memory-target-event-log.js';
import { InMemoryTargetTransitions } from '../../../testing/in-memory-target-transitions.js';
import { InMemoryUnitOfWork } from '../../../testing/in-memory-unit-of-work.js';
import { RecordingMetrics } from '../../../testing/recording-metrics.js';
import { ScriptedCallProvider } from '../../../testing/scripted-call-provider.js';
import { aCampaign, aTarget, TEST_CAMPAIGN } from '../../../testing/test-data.js';
import { BlacklistService } from '../../blacklist/application/blacklist.service.js';
import { CallLogService } from '../../call-log/application/call-log.service.js';
import { CampaignService } from '../../campaign/application/campaign.service.js';
import type { Campaign } from '../../campaign/domain/campaign.js';
import { CallCompletion } from './call-completion.js';
import { CallEventIngestion } from './call-event-ingestion.js';
import { CallPlacement } from './call-placement.js';
import { CallingSettings } from './calling-settings.js';
import { CampaignControl } from './campaign-control.js';
import { CampaignStatsService } from './campaign-stats.service.js';
import { CallDispatcher } from './call-dispatcher.js';
import { AttemptEndings } from './attempt-endings.js';
import { CallClaim } from './call-claim.js';
import { CallEndingEffects } from './call-ending-effects.js';
import { RecordingOutbox } from '../../../testing/recording-outbox.js';
import { CallDecisions } from './call-decisions.js';
import { CallStarts } from './call-starts.js';
import { CampaignBreaker } from './campaign-breaker.js';
import { PreDialChecks } from './ports/pre-dial-check.js';

const T0 = '2026-01-05T15:00:00.000Z';
const OTHER_ORG = '00000000-0000-4000-8000-00000000a999';

/** The engine on fakes, with the real CampaignService (over its in-memory repository) as reader. */
function engine(campaign: Partial<Campaign> = {}) {
  const clock = new FakeClock(T0);
  const campaignRepository = new InMemoryCampaignRepository();
  const theCampaign = aCampaign({ maxAttempts: 2, ...campaign });
  campaignRepository.campaigns.set(theCampaign.id, theCampaign);
  const campaigns = new CampaignService(
    campaignRepository,
    new BlacklistService(new InMemoryBlacklistRepository()),
    inMemoryProviderConnections().service,
  );
  const events = new InMemoryTargetEventLog();
  const targets = new InMemoryTargetTransitions(undefined, events);
  const logRepository = new InMemoryCallLogRepository();
  const callLogs = new CallLogService(logRepository);
  const outbox = new RecordingOutbox();
  const uow = new InMemoryUnitOfWork(targets, outbox);
  const provider = new ScriptedCallProvider();
  const providers = new SingleCallProviders(provider);
  const settings = new CallingSettings({
    callsPerSecond: 0,
    publicBaseUrl: 'https://calls.example',
  });
  const metrics = new RecordingMetrics();
  const doNotCall = inMemoryDoNotCall(clock);
  const followUpTexts = new RecordingFollowUpTexts();
  const completion = new CallCompletion(
    callLogs,
    campaigns,
    new AttemptEndings(targets, events),
    new CallEndingEffects(doNotCall.service, followUpTexts, metrics, outbox),
    uow,
    clock,
    inMemoryRedaction().redaction,
  );
  const ingestion = new CallEventIngestion(
    callLogs,
    campaigns,
    new InMemoryCallEventStore(),
    completion,
    settings,
    uow,
    clock,
  );
  const placement = new CallPlacement(callLogs, completion, settings, clock, metrics);
  const control = new CampaignControl(campaigns, campaigns, targets, outbox, uow, clock, events);
  const compliance = inMemoryCompliance(clock, {
    doNotCall: doNotCall.service,
    unitOfWork: uow,
  }).service;
  const decisions = new CallDecisions(
    callLogs,
    compliance,
    new BlacklistService(new InMemoryBlacklistRepository()),
    new PreDialChecks(),
  );
  const starts = new CallStarts(
    targets,
    callLogs,
    compliance,
    events,
    new InMemoryPlacementRate(),
    settings,
  );
  const claims = new CallClaim(targets, campaigns, decisions, starts, events, outbox, uow, clock);
  const dispatcher = new CallDispatcher(
    targets,
    campaigns,
    claims,
    new CampaignBreaker(callLogs, control),
    placement,
    providers,
    clock,
    settings,
  );
  const stats = new CampaignStatsService(campaigns, targets, callLogs, clock);
  const dispatch = async () => {
    const round = await dispatcher.round();
    await placement.drain();
    return round;
  };
  const put = (over = {}) => {
    const t = aTarget({ status: 'Scheduled', scheduledTime: clock.now(), ...over });
    targets.put(t);
    return t;
  };
  const target = async (id: string) =>
    (await targets.findById(null, theCampaign.organizationId, id))!;
  const end = async (id: string, outcome: 'GOOD' | 'NO_RESPONSE' | 'HUMAN_ONLY') => {
    const logId = (await target(id)).callLogIds!.at(-1)!;
    await ingestion.ingest('scripted', [provider.ended(logId, outcome)]);
  };
  /** The call ends TECHNICAL_FAILURE at the fake clock's time (the breaker orders calls by end). */
  const fail = async (id: string) => {
    const logId = (await target(id)).callLogIds!.at(-1)!;
    await ingestion.ingest('scripted', [provider.ended(logId, 'TECHNICAL_FAILURE', clock.now())]);
  };
  const org = theCampaign.organizationId;
  return {
    fail,
    clock,
    campaignRepository,
    targets,
    outbox,
    provider,
    control,
    stats,
    dispatch,
    put,
    target,
    end,
    org,
  };
}

describe('campaign control (fakes)', () => {
  beforeAll(() => Logger.overrideLogger(false));
  afterAll(() => Logger.overrideLogger(['log', 'error', 'warn', 'debug', 'verbose']));

  it('pause: no new call starts, targets stay Scheduled; pausing again changes nothing', async () => {
    const e = engine();
    const a = e.put();
    const paused = await e.control.pause(e.org, TEST_CAMPAIGN);
    expect(paused).toMatchObject({ state: 'paused', stateChangedAt: e.clock.now() });
    expect(await e.dispatch()).toMatchObject({ placed: 0, acted: 0 });
    expect(await e.target(a.id)).toMatchObject({ status: 'Scheduled', attempts: 0 });
    expect(e.provider.calls).toEqual([]);
    e.clock.advance(1000);
    expect(await e.control.pause(e.org, TEST_CAMPAIGN)).toEqual(paused);
  });

  it("paused campaigns' due targets take no place among the due campaigns a round serves", async () => {
    const e = engine();
    // More paused campaigns than a round reads due campaigns (500), each due an hour before ours.
    for (let i = 0; i < 501; i++) {
      const id = `00000000-0000-4000-8000-${String(700_000_000_000 + i)}`;
      e.campaignRepository.campaigns.set(id, aCampaign({ id, state: 'paused' }));
      e.put({ campaignId: id, scheduledTime: new Date(Date.parse(T0) - 3_600_000 + i) });
    }
    const ours = e.put();
    expect(await e.dispatch()).toMatchObject({ placed: 1 });
    expect(await e.target(ours.id)).toMatchObject({ status: 'In Progress', attempts: 1 });
    expect(e.provider.calls).toHaveLength(1);
  });

  it('resume: wakes the dispatchers, and the due targets are claimed', async () => {
    const e = engine();
    const a = e.put();
    await e.control.pause(e.org, TEST_CAMPAIGN);
    const before = e.targets.notifications;
    const resumed = await e.control.resume(e.org, TEST_CAMPAIGN);
    expect(resumed.state).toBe('active');
    expect(e.targets.notifications).toBe(before + 1);
    expect(await e.dispatch()).toMatchObject({ placed: 1 });
    expect(await e.target(a.id)).toMatchObject({ status: 'In Progress', attempts: 1 });
    // Resuming an active campaign: the same campaign, no notification.
    expect(await e.control.resume(e.org, TEST_CAMPAIGN)).toEqual(resumed);
    expect(e.targets.notifications).toBe(before + 1);
  });

  it('a call in flight during a pause ends and is recorded normally (its retry keeps its time)', async () => {
    const e = engine({ retryDelayMinutes: 60 });
    const a = e.put();
    await e.dispatch();
    await e.control.pause(e.org, TEST_CAMPAIGN);
    await e.end(a.id, 'NO_RESPONSE');
    expect(await e.target(a.id)).toMatchObject({
      status: 'Scheduled',
      scheduledTime: new Date(Date.parse(T0) + 60 * 60_000),
    });
  });

  it('cancel: Pending, Scheduled and Waiting targets end with a notification each; in-flight calls end without retry', async () => {
    const e = engine();
    const pending = e.put({ status: 'Pending', scheduledTime: null });
    const scheduled = e.put({ scheduledTime: new Date(Date.parse(T0) + 3600_000) });
    const waiting = e.put({ status: 'Waiting', currentStep: 'labs', scheduledTime: null });
    const calling = e.put();
    await e.dispatch();
    expect(await e.target(calling.id)).toMatchObject({ status: 'In Progress' });
    e.outbox.events = [];

    const cancelled = await e.control.cancel(e.org, TEST_CAMPAIGN);
    expect(cancelled.state).toBe('cancelled');
    const ended = {
      status: 'Finished',
      resolution: 'unsuccessful',
      category: null,
      subcategory: null,
      outcome: 'Campaign cancelled',
    };
    for (const t of [pending, scheduled, waiting])
      expect(await e.target(t.id)).toMatchObject({ ...ended, currentStep: null });
    expect(
      e.outbox
        .of('call_finished')
        .map((ev) => ev.targetId)
        .sort(),
    ).toEqual([pending.id, scheduled.id, waiting.id].sort());
    expect(e.outbox.of('call_finished')[0]).toMatchObject({
      callLogId: null,
      nextAttemptScheduled: null,
      status: 'Finished',
      resolution: 'unsuccessful',
    });

    // The call in flight ends; no answer would retry, but the campaign is cancelled.
    await e.end(calling.id, 'NO_RESPONSE');
    expect(await e.target(calling.id)).toMatchObject({ ...ended, attempts: 1 });
    expect(e.outbox.of('call_finished').at(-1)).toMatchObject({
      targetId: calling.id,
      nextAttemptScheduled: null,
      status: 'Finished',
    });

    // Final and idempotent.
    expect(await e.control.cancel(e.org, TEST_CAMPAIGN)).toEqual(cancelled);
    await expect(e.control.resume(e.org, TEST_CAMPAIGN)).rejects.toThrow(ConflictError);
    await expect(e.control.pause(e.org, TEST_CAMPAIGN)).rejects.toThrow(ConflictError);
  });

  it('a cancelled campaign’s targets that became due anyway are ended by the dispatcher, never called', async () => {
    const e = engine();
    await e.control.cancel(e.org, TEST_CAMPAIGN);
    const late = e.put(); // as a trigger racing the cancel would leave it
    await e.dispatch();
    expect(e.provider.calls).toEqual([]);
    expect(await e.target(late.id)).toMatchObject({
      status: 'Finished',
      outcome: 'Campaign cancelled',
    });
  });

  it('another organization’s campaign, or a malformed id, is NotFound and unchanged', async () => {
    const e = engine();
    await expect(e.control.pause(OTHER_ORG, TEST_CAMPAIGN)).rejects.toThrow(NotFoundError);
    await expect(e.control.cancel(e.org, 'nope')).rejects.toThrow(NotFoundError);
    await expect(e.stats.stats(OTHER_ORG, TEST_CAMPAIGN)).rejects.toThrow(NotFoundError);
    expect((await e.control.resume(e.org, TEST_CAMPAIGN)).state).toBe('active');
  });

  it('stats: exact counts, connect rate, mean length and an estimate', async () => {
    const e = engine({ maxConcurrentCalls: 10 });
    const [good, human, silent] = [e.put(), e.put(), e.put()];
    e.put({ status: 'Pending', scheduledTime: null });
    const later = e.put({ scheduledTime: new Date(Date.parse(T0) + 7200_000) });
    await e.dispatch();
    await e.end(good.id, 'GOOD');
    await e.end(human.id, 'HUMAN_ONLY');
    await e.end(silent.id, 'NO_RESPONSE');
    const s = await e.stats.stats(e.org, TEST_CAMPAIGN);
    expect(s).toEqual({
      campaignId: TEST_CAMPAIGN,
      state: 'active',
      asOf: e.clock.now(),
      targets: {
        total: 5,
        byStatus: {
          Pending: 1,
          Scheduled: 2,
          'In Progress': 0,
          'Post-processing': 0,
          Finished: 1,
          'To review': 1,
          Failed: 0,
          Waiting: 0,
          'SMS Scheduled': 0,
        },
        byCategory: expect.any(Object),
        byResolution: expect.any(Object),
      },
      attempts: 3,
      callsInFlight: 0,
      endedCalls: 3,
      connectedCalls: 2,
      connectRate: 0.6667,
      averageCallSeconds: expect.any(Number),
      dueNow: 0,
      dueLater: 2,
      heldByRule: {},
      nextScheduledAt: new Date(Date.parse(T0) + 3600_000),
      recentCallsPerMinute: 0.2,
      // 2 calls at 0.2 a minute take 10 minutes, but the last may start only in 2 hours: 5 more.
      estimatedCompletionAt: new Date(Date.parse(T0) + 125 * 60_000),
      // No calling rule holds them: a retry and a target scheduled later.
      estimateHeldUntil: null,
      estimateHeldByRule: {},
    });
    expect(later.status).toBe('Scheduled');
  });
});

describe('circuit breaker: auto_pause (fakes)', () => {
  beforeAll(() => Logger.overrideLogger(false));
  afterAll(() => Logger.overrideLogger(['log', 'error', 'warn', 'debug', 'verbose']));

  const autoPause = { window: 3, max_failure_ratio: 0.5 };

  /** Three calls started, `failures` of them ended TECHNICAL_FAILURE one second apart, one more due. */
  async function afterFailures(failures: number, campaign: Partial<Campaign> = { autoPause }) {
    const e = engine(campaign);
    const started = [e.put(), e.put(), e.put()];
    expect(await e.dispatch()).toMatchObject({ placed: 3 });
    for (const t of started.slice(0, failures)) {
      e.clock.advance(1000);
      await e.fail(t.id);
    }
    const next = e.put({ scheduledTime: e.clock.now() });
    return { e, next };
  }

  it('pauses the campaign before its next claim when the failure share passes the threshold', async () => {
    const { e, next } = await afterFailures(3);
    const pausedAt = e.clock.now();
    expect(await e.dispatch()).toMatchObject({ placed: 0 });
    expect(await e.target(next.id)).toMatchObject({ status: 'Scheduled', attempts: 0 });
    const reason =
      'auto_pause: 3 of the last 3 calls ended TECHNICAL_FAILURE (max_failure_ratio 0.5)';
    expect(await e.campaignRepository.findById(TEST_CAMPAIGN)).toMatchObject({
      state: 'paused',
      stateChangedAt: pausedAt,
      pausedReason: reason,
    });
    expect(e.outbox.of('campaign_paused')).toEqual([
      {
        organizationId: e.org,
        campaignId: TEST_CAMPAIGN,
        reason,
        failureRatio: 1,
        window: 3,
        pausedAt,
      },
    ]);
    // Already paused: later rounds record no second event.
    expect(await e.dispatch()).toMatchObject({ placed: 0 });
    expect(e.outbox.of('campaign_paused')).toHaveLength(1);
  });

  it('does not trip before `window` calls have ended', async () => {
    const { e, next } = await afterFailures(2);
    expect(await e.dispatch()).toMatchObject({ placed: 1 });
    expect(await e.target(next.id)).toMatchObject({ status: 'In Progress', attempts: 1 });
    expect(e.outbox.of('campaign_paused')).toEqual([]);
  });

  it('is off without auto_pause (the default)', async () => {
    const { e, next } = await afterFailures(3, {});
    expect(await e.dispatch()).toMatchObject({ placed: 1 });
    expect(await e.target(next.id)).toMatchObject({ status: 'In Progress' });
    expect(e.outbox.of('campaign_paused')).toEqual([]);
  });

  it('resume clears the reason and starts a fresh window: the old failures do not pause it again', async () => {
    const { e, next } = await afterFailures(3);
    await e.dispatch();
    e.clock.advance(1000);
    const resumed = await e.control.resume(e.org, TEST_CAMPAIGN);
    expect(resumed).toMatchObject({ state: 'active', pausedReason: null });
    expect(await e.dispatch()).toMatchObject({ placed: 1 });
    expect(await e.target(next.id)).toMatchObject({ status: 'In Progress', attempts: 1 });
    expect(e.outbox.of('campaign_paused')).toHaveLength(1);
  });

  it('a manual pause has no reason and records no campaign.paused event', async () => {
    const e = engine({ autoPause });
    const paused = await e.control.pause(e.org, TEST_CAMPAIGN);
    expect(paused).toMatchObject({ state: 'paused', pausedReason: null });
    expect(e.outbox.of('campaign_paused')).toEqual([]);
  });
});
