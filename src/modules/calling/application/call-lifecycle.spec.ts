import { RecordingFollowUpTexts } from '../../../testing/recording-follow-up-texts.js';
import { inMemoryRedaction } from '../../../testing/in-memory-retention.js';
import { RecordingMetrics } from '../../../testing/recording-metrics.js';
import { Logger } from '@nestjs/common';
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
import { InMemoryCampaignReader } from '../../../testing/in-memory-campaign-reader.js';
import { InMemoryTargetEventLog } from '../../../testing/in-memory-target-event-log.js';
import { InMemoryTargetTransitions } from '../../../testing/in-memory-target-transitions.js';
import { InMemoryUnitOfWork } from '../../../testing/in-memory-unit-of-work.js';
import { ScriptedCallProvider } from '../../../testing/scripted-call-provider.js';
import { aCampaign, aTarget } from '../../../testing/test-data.js';
import { BlacklistService } from '../../blacklist/application/blacklist.service.js';
import { CallLogService } from '../../call-log/application/call-log.service.js';
import type { Campaign } from '../../campaign/domain/campaign.js';
import { CallCompletion } from './call-completion.js';
import { CallEventIngestion } from './call-event-ingestion.js';
import { CallPlacement } from './call-placement.js';
import { CallRecovery } from './call-recovery.js';
import { CallingSettings } from './calling-settings.js';
import {
  CallDispatcher,
  UNUSABLE_CONNECTION_HOLD,
  UNUSABLE_CONNECTION_RETRY_MS,
} from './call-dispatcher.js';
import { AttemptEndings } from './attempt-endings.js';
import { CallClaim } from './call-claim.js';
import { CallEndingEffects } from './call-ending-effects.js';
import { RecordingOutbox } from '../../../testing/recording-outbox.js';
import { CallDecisions } from './call-decisions.js';
import { CallStarts } from './call-starts.js';
import { CampaignBreaker } from './campaign-breaker.js';
import { ConnectionUnusableError } from '../../telephony/application/ports/call-provider.js';
import { utcWords } from '../../target/domain/waiting-reason.js';
import type { CampaignControl } from './campaign-control.js';
import {
  PreDialCall,
  PreDialCheck,
  PreDialChecks,
  PreDialVerdict,
} from './ports/pre-dial-check.js';

const T0 = '2026-01-05T15:00:00.000Z';

/** The whole engine on the one set of fakes, with a fake clock. */
function engine(
  campaign: Partial<Campaign> = {},
  settings: Partial<CallingSettings> = {},
  checks: PreDialCheck[] = [],
) {
  const clock = new FakeClock(T0);
  const campaigns = new InMemoryCampaignReader();
  const theCampaign = aCampaign({ maxAttempts: 1, ...campaign });
  campaigns.put(theCampaign);
  const events = new InMemoryTargetEventLog();
  const targets = new InMemoryTargetTransitions(undefined, events);
  const logRepository = new InMemoryCallLogRepository();
  const callLogs = new CallLogService(logRepository);
  const outbox = new RecordingOutbox();
  const store = new InMemoryCallEventStore();
  const doNotCall = inMemoryDoNotCall(clock);
  const uow = new InMemoryUnitOfWork(targets, logRepository, outbox, store, doNotCall.repository);
  const provider = new ScriptedCallProvider();
  const providers = new SingleCallProviders(provider);
  const config = new CallingSettings({
    callsPerSecond: 0,
    publicBaseUrl: 'https://calls.example',
    ...settings,
  });
  const blacklistRepository = new InMemoryBlacklistRepository();
  const blacklists = new BlacklistService(blacklistRepository);
  const metrics = new RecordingMetrics();
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
    store,
    completion,
    config,
    uow,
    clock,
  );
  const placement = new CallPlacement(callLogs, completion, config, clock, metrics);
  const compliance = inMemoryCompliance(clock, { doNotCall: doNotCall.service, unitOfWork: uow });
  const decisions = new CallDecisions(
    callLogs,
    compliance.service,
    blacklists,
    new PreDialChecks(checks),
  );
  const starts = new CallStarts(
    targets,
    callLogs,
    compliance.service,
    events,
    new InMemoryPlacementRate(),
    config,
  );
  const claims = new CallClaim(targets, campaigns, decisions, starts, events, outbox, uow, clock);
  const dispatcher = new CallDispatcher(
    targets,
    campaigns,
    claims,
    new CampaignBreaker(
      callLogs, // These campaigns have no auto_pause: the breaker never acts (campaign-control.spec tests it).
      {
        autoPause: () => Promise.reject(new Error('no circuit breaker in the lifecycle tests')),
      } as unknown as CampaignControl,
    ),
    placement,
    providers,
    clock,
    config,
  );
  const recovery = new CallRecovery(callLogs, providers, ingestion, completion, config, clock);
  /** One dispatcher round, then every placement it started. */
  const dispatch = async () => {
    const round = await dispatcher.round();
    await placement.drain();
    return round;
  };
  const due = (over = {}) => {
    const t = aTarget({
      campaignId: theCampaign.id,
      organizationId: theCampaign.organizationId,
      status: 'Scheduled',
      scheduledTime: clock.now(),
      ...over,
    });
    targets.put(t);
    return t;
  };
  const target = async (id: string) =>
    (await targets.findById(null, theCampaign.organizationId, id))!;
  const lastLogId = async (id: string) => (await target(id)).callLogIds!.at(-1)!;
  return {
    clock,
    events,
    metrics,
    campaign: theCampaign,
    campaigns,
    targets,
    logs: logRepository,
    outbox,
    provider,
    providers,
    blacklists,
    blacklistRepository,
    doNotCall: doNotCall.service,
    ingestion,
    recovery,
    dispatcher,
    placement,
    dispatch,
    due,
    target,
    lastLogId,
    followUpTexts,
    callEvents: store,
  };
}

describe('the call lifecycle (fakes, fake clock)', () => {
  // The engine logs each call placed and ended; the assertions below say what happened.
  beforeAll(() => Logger.overrideLogger(false));
  afterAll(() => Logger.overrideLogger(['log', 'error', 'warn', 'debug', 'verbose']));

  it('a campaign whose connection cannot be used holds its due calls a minute, saying why, instead of trying each round', async () => {
    const e = engine();
    const problem = new ConnectionUnusableError('connection-1', 'its secret is not usable');
    const forCampaign = e.providers.forCampaign.bind(e.providers);
    e.providers.forCampaign = () => Promise.reject(problem);
    const t = e.due();
    expect((await e.dispatch()).acted).toBe(1);
    const until = new Date(Date.parse(T0) + UNUSABLE_CONNECTION_RETRY_MS);
    const reason = `provider connection connection-1 cannot be used: its secret is not usable; calls wait, next try ${utcWords(until)}`;
    expect(await e.target(t.id)).toMatchObject({
      status: 'Scheduled',
      scheduledTime: until,
      hold: { rule: UNUSABLE_CONNECTION_HOLD, reason },
    });
    expect(
      e.events
        .all()
        .filter((x) => x.targetId === t.id)
        .map((x) => x.reason),
    ).toEqual(['added and launched', reason]);
    // Not due any more: later rounds do nothing with it (no loop), and no call was placed.
    expect((await e.dispatch()).acted).toBe(0);
    expect(e.provider.calls).toEqual([]);
    // Fixed meanwhile: a minute later it is called.
    e.providers.forCampaign = forCampaign;
    e.clock.advance(UNUSABLE_CONNECTION_RETRY_MS);
    expect((await e.dispatch()).placed).toBe(1);
    expect(e.provider.calls.map((c) => c.targetId)).toEqual([t.id]);
  });

  it("records the target's timeline: window deferral, call placed, a retry after the provider's event, then the last ending", async () => {
    const e = engine({
      maxAttempts: 2,
      retryDelayMinutes: 10,
      // Open from 16:00 UTC on T0's weekday (T0 is 15:00 UTC, a Monday): the first round defers.
      callingWindow: { tz: 'UTC', monday: [{ start: '16:00', end: '23:00' }] },
    });
    const t = e.due();
    await e.dispatch();
    e.clock.set('2026-01-05T16:00:00.000Z');
    await e.dispatch();
    const first = await e.lastLogId(t.id);
    await e.ingestion.ingest('scripted', [e.provider.ended(first, 'NO_RESPONSE')]);
    e.clock.advanceMinutes(10);
    await e.dispatch();
    const second = await e.lastLogId(t.id);
    await e.ingestion.ingest('scripted', [e.provider.ended(second, 'GOOD')]);

    const timeline = e.events.all().filter((x) => x.targetId === t.id);
    expect(timeline.map((x) => [x.kind, x.status, x.actor.type, x.reason])).toEqual([
      ['added', 'Scheduled', 'system', 'added and launched'],
      ['deferred', null, 'worker', 'outside calling window: opens Mon 16:00 UTC'],
      ['call_started', 'In Progress', 'worker', 'call placed: attempt 1 of 2'],
      ['call_ended', 'Scheduled', 'provider', 'retry 2 of 2 after NO_RESPONSE'],
      ['call_started', 'In Progress', 'worker', 'call placed: attempt 2 of 2'],
      ['call_ended', 'Finished', 'provider', 'finished after GOOD (attempt 2 of 2)'],
    ]);
    expect(timeline[3].actor.id).toBe(`scripted:${e.provider.ended(first, 'NO_RESPONSE').key}`);
  });

  it("stores a provider's event at its own time, or at the clock's when it gives none or one out of range", async () => {
    const e = engine();
    const t = e.due();
    await e.dispatch();
    const log = await e.lastLogId(t.id);
    e.clock.set('2026-01-05T15:02:00.000Z');
    const reported = new Date('2026-01-05T15:01:30.000Z');
    await e.ingestion.ingest('scripted', [e.provider.started(log, reported)]);
    await e.ingestion.ingest('scripted', [e.provider.ended(log, 'GOOD')]);
    await e.ingestion.ingest('scripted', [
      { ...e.provider.ended(log, 'GOOD'), key: 'late', at: new Date('1969-12-31T23:59:59Z') },
    ]);
    expect([...e.callEvents.snapshot().values()].map((x) => [x.kind, x.at])).toEqual([
      ['started', reported],
      ['ended', new Date('2026-01-05T15:02:00.000Z')],
      ['ended', new Date('2026-01-05T15:02:00.000Z')],
    ]);
  });

  it('sms_follow_up: a listed category goes SMS Scheduled and queues the text with what follows it; others do not', async () => {
    const e = engine({
      maxAttempts: 2,
      retryDelayMinutes: 10,
      smsFollowUp: {
        provider_connection_id: null,
        on_categories: ['NO_RESPONSE'],
        template: 'Hi',
        after: 'each_attempt',
      },
    });
    const unanswered = e.due();
    const answered = e.due();
    await e.dispatch();
    const [first, second] = [await e.lastLogId(unanswered.id), await e.lastLogId(answered.id)];
    await e.ingestion.ingest('scripted', [
      e.provider.ended(first, 'NO_RESPONSE'),
      e.provider.ended(second, 'GOOD'),
    ]);
    expect(await e.target(unanswered.id)).toMatchObject({
      status: 'SMS Scheduled',
      category: 'NO_RESPONSE',
      scheduledTime: new Date('2026-01-05T15:10:00.000Z'),
    });
    expect(await e.target(answered.id)).toMatchObject({ status: 'Finished', category: 'GOOD' });
    expect(
      e.followUpTexts.queued.map((q) => [q.target.id, q.callLogId, q.to, q.continuation]),
    ).toEqual([
      [
        unanswered.id,
        first,
        unanswered.phoneNumber,
        {
          next: {
            status: 'Scheduled',
            resolution: null,
            category: 'NO_RESPONSE',
            subcategory: null,
            outcome: 'No answer',
            retryAt: '2026-01-05T15:10:00.000Z',
          },
          ifCancelled: {
            status: 'Finished',
            resolution: 'unsuccessful',
            category: null,
            subcategory: null,
            outcome: 'Campaign cancelled',
            retryAt: null,
          },
        },
      ],
    ]);
    const ended = e.events
      .all()
      .filter((x) => x.targetId === unanswered.id && x.kind === 'call_ended');
    expect(ended.map((x) => [x.status, x.reason])).toEqual([
      ['SMS Scheduled', 'retry 2 of 2 after NO_RESPONSE; a follow-up text is sent first'],
    ]);
  });

  it('two organizations’ targets of one id, ended in one batch: each its own outcome and words', async () => {
    const e = engine({ maxAttempts: 2 });
    const other = aCampaign({
      id: '00000000-0000-4000-8000-0000000c0002',
      organizationId: '00000000-0000-4000-8000-0000000a0002',
      maxAttempts: 2,
    });
    e.campaigns.put(other);
    const mine = e.due();
    e.targets.put(
      aTarget({
        id: mine.id,
        campaignId: other.id,
        organizationId: other.organizationId,
        status: 'Scheduled',
        scheduledTime: e.clock.now(),
      }),
    );
    await e.dispatch();
    const theirs = async () => (await e.targets.findById(null, other.organizationId, mine.id))!;
    const [mineLog, theirLog] = [await e.lastLogId(mine.id), (await theirs()).callLogIds!.at(-1)!];
    expect(mineLog).not.toBe(theirLog);
    await e.ingestion.ingest('scripted', [
      e.provider.ended(mineLog, 'GOOD'),
      e.provider.ended(theirLog, 'NO_RESPONSE'),
    ]);
    expect(await e.target(mine.id)).toMatchObject({ status: 'Finished', category: 'GOOD' });
    expect(await theirs()).toMatchObject({ status: 'Scheduled', category: 'NO_RESPONSE' });
    const ended = e.events
      .all()
      .filter((x) => x.targetId === mine.id && x.kind === 'call_ended')
      .map((x) => [x.status, x.reason]);
    expect(ended.sort()).toEqual(
      [
        ['Finished', 'finished after GOOD (attempt 1 of 2)'],
        ['Scheduled', 'retry 2 of 2 after NO_RESPONSE'],
      ].sort(),
    );
  });

  it('a due target is claimed, placed and left In Progress with the provider id and its deadline', async () => {
    const e = engine();
    const t = e.due({ inputData: { a: 1 } });
    const round = await e.dispatch();
    expect(round).toMatchObject({ acted: 1, placed: 1 });
    const claimed = await e.target(t.id);
    expect(claimed).toMatchObject({
      status: 'In Progress',
      attempts: 1,
      callStartedAt: e.clock.now(),
    });
    const logId = claimed.callLogIds![0];
    expect(e.provider.calls).toEqual([
      {
        callLogId: logId,
        targetId: t.id,
        campaignId: e.campaign.id,
        campaignType: 'patient',
        attempt: 1,
        to: t.phoneNumber,
        from: e.campaign.callerId,
        inputData: { a: 1 },
        patient: null,
        voicemailMessage: null,
        eventsUrl: 'https://calls.example/api/v1/telephony/scripted/events',
      },
    ]);
    expect(e.logs.logs.get(logId)).toMatchObject({
      providerCallId: 'scripted-1',
      endedAt: null,
      deadlineAt: new Date(Date.parse(T0) + 30 * 60_000),
    });
    // Nothing is due any more: a second round does nothing.
    expect(await e.dispatch()).toMatchObject({ acted: 0 });
  });

  it.each([
    ['started, ended', ['started', 'ended']],
    ['ended before started', ['ended', 'started']],
    ['every event twice', ['started', 'started', 'ended', 'ended']],
    ['ended, started, ended', ['ended', 'started', 'ended']],
  ])('%s: the outcome is applied once', async (_name, order) => {
    const e = engine();
    const t = e.due();
    await e.dispatch();
    const logId = await e.lastLogId(t.id);
    const results = [];
    for (const kind of order) {
      const event =
        kind === 'started' ? e.provider.started(logId) : e.provider.ended(logId, 'GOOD');
      results.push(...(await e.ingestion.ingest('scripted', [event])));
    }
    expect(results.filter((r) => r === 'applied').length).toBeGreaterThanOrEqual(1);
    expect(await e.target(t.id)).toMatchObject({
      status: 'Finished',
      resolution: 'successful',
      executionSeconds: 65,
      outputData: { confirmed: true },
    });
    expect(e.outbox.of('call_finished')).toHaveLength(1);
    expect(e.outbox.of('call_finished')[0]).toMatchObject({
      callLogId: logId,
      status: 'Finished',
      attempt: 1,
    });
    // Operators count each call once, placed and ended, whatever the order of its events.
    expect(e.metrics.callsPlaced).toEqual(['scripted']);
    expect(e.metrics.callsEnded).toEqual([{ provider: 'scripted', outcome: 'GOOD' }]);
  });

  it('DNC_REQUESTED ends the target without a retry and lists the number dialled, with the call', async () => {
    const e = engine({ maxAttempts: 3 });
    const t = e.due({ phoneNumber: '+15550170005' });
    await e.dispatch();
    const logId = await e.lastLogId(t.id);
    e.clock.advanceMinutes(2);
    expect(
      await e.ingestion.ingest('scripted', [e.provider.ended(logId, 'DNC_REQUESTED')]),
    ).toEqual(['applied']);
    expect(await e.target(t.id)).toMatchObject({
      status: 'Finished',
      resolution: 'unsuccessful',
      category: 'DNC_REQUESTED',
      outcome: 'Asked not to be called again',
      attempts: 1,
    });
    const listed = await e.doNotCall.list(e.campaign.organizationId, { skip: 0, limit: 10 });
    expect(listed).toEqual({
      items: [
        {
          organizationId: e.campaign.organizationId,
          phoneNumber: '+15550170005',
          reason: 'Asked not to be called again during a call',
          source: { type: 'call', campaignId: e.campaign.id, targetId: t.id, callLogId: logId },
          createdAt: e.clock.now(),
          removal: null,
        },
      ],
      total: 1,
    });
    expect(
      await e.doNotCall.listedAmong(null, e.campaign.organizationId, ['+15550170005']),
    ).toEqual(new Map([['+15550170005', e.clock.now()]]));
    // A late copy of the event changes nothing: the call had ended, its listing stands as it was.
    e.clock.advanceMinutes(5);
    const late = { ...e.provider.ended(logId, 'DNC_REQUESTED'), key: 'late' };
    expect(await e.ingestion.ingest('scripted', [late])).toEqual(['stale']);
    expect(
      (await e.doNotCall.list(e.campaign.organizationId, { skip: 0, limit: 10 })).items,
    ).toEqual(listed.items);
  });

  it('a second, different final status is stale: the first outcome stands', async () => {
    const e = engine();
    const t = e.due();
    await e.dispatch();
    const logId = await e.lastLogId(t.id);
    expect(await e.ingestion.ingest('scripted', [e.provider.ended(logId, 'VOICEMAIL')])).toEqual([
      'applied',
    ]);
    const other = { ...e.provider.ended(logId, 'GOOD'), key: 'another-event-id' };
    expect(await e.ingestion.ingest('scripted', [other])).toEqual(['stale']);
    expect(await e.target(t.id)).toMatchObject({ status: 'Finished', category: 'VOICEMAIL' });
    expect(e.outbox.of('call_finished')).toHaveLength(1);
  });

  it('a retry is Scheduled at now + retry delay; a late event of attempt 1 never touches attempt 2', async () => {
    const e = engine({ maxAttempts: 2, retryDelayMinutes: 10 });
    const t = e.due();
    await e.dispatch();
    const first = await e.lastLogId(t.id);
    await e.ingestion.ingest('scripted', [e.provider.ended(first, 'NO_RESPONSE')]);
    expect(await e.target(t.id)).toMatchObject({
      status: 'Scheduled',
      scheduledTime: new Date(Date.parse(T0) + 10 * 60_000),
    });
    expect(await e.dispatch()).toMatchObject({ acted: 0 });
    e.clock.advanceMinutes(10);
    await e.dispatch();
    const second = await e.lastLogId(t.id);
    expect(second).not.toBe(first);
    const late = { ...e.provider.ended(first, 'GOOD'), key: 'late' };
    expect(await e.ingestion.ingest('scripted', [late])).toEqual(['stale']);
    expect(await e.target(t.id)).toMatchObject({ status: 'In Progress', attempts: 2 });
    await e.ingestion.ingest('scripted', [e.provider.ended(second, 'GOOD')]);
    expect(await e.target(t.id)).toMatchObject({ status: 'Finished', attempts: 2 });
    expect(
      e.outbox.of('call_finished').map((x) => [x.attempt, x.nextAttemptScheduled !== null]),
    ).toEqual([
      [1, true],
      [2, false],
    ]);
  });

  it('a batch is applied together: mixed outcomes, a retry, duplicates, a call already ended', async () => {
    const e = engine({ maxAttempts: 2, retryDelayMinutes: 10 });
    const [good, retried, voicemail, endedBefore] = [e.due(), e.due(), e.due(), e.due()];
    await e.dispatch();
    const [goodLog, retriedLog, voicemailLog, endedLog] = await Promise.all(
      [good, retried, voicemail, endedBefore].map((t) => e.lastLogId(t.id)),
    );
    expect(await e.ingestion.ingest('scripted', [e.provider.ended(endedLog, 'GOOD')])).toEqual([
      'applied',
    ]);
    const results = await e.ingestion.ingest('scripted', [
      e.provider.started(goodLog),
      e.provider.ended(goodLog, 'GOOD'),
      e.provider.ended(retriedLog, 'NO_RESPONSE'),
      e.provider.ended(voicemailLog, 'TECHNICAL_FAILURE'),
      e.provider.ended(voicemailLog, 'TECHNICAL_FAILURE'),
      { ...e.provider.ended(voicemailLog, 'GOOD'), key: 'a-second-final-status' },
      { ...e.provider.ended(endedLog, 'HUMAN_ONLY'), key: 'late' },
    ]);
    expect(results).toEqual([
      'applied',
      'applied',
      'applied',
      'applied',
      'duplicate',
      'stale',
      'stale',
    ]);
    expect(await e.target(good.id)).toMatchObject({ status: 'Finished', category: 'GOOD' });
    expect(await e.target(retried.id)).toMatchObject({
      status: 'Scheduled',
      scheduledTime: new Date(Date.parse(T0) + 10 * 60_000),
    });
    // The first final status of the batch stands: TECHNICAL_FAILURE retries, the GOOD after it is stale.
    expect(await e.target(voicemail.id)).toMatchObject({ status: 'Scheduled', attempts: 1 });
    expect(e.logs.logs.get(voicemailLog)).toMatchObject({ outcome: 'TECHNICAL_FAILURE' });
    expect(await e.target(endedBefore.id)).toMatchObject({ status: 'Finished', category: 'GOOD' });
    expect(
      e.outbox
        .of('call_finished')
        .map((x) => [x.targetId, x.status, x.nextAttemptScheduled !== null]),
    ).toEqual([
      [endedBefore.id, 'Finished', false],
      [good.id, 'Finished', false],
      [retried.id, 'Scheduled', true],
      [voicemail.id, 'Scheduled', true],
    ]);
    expect(e.metrics.callsEnded).toEqual([
      { provider: 'scripted', outcome: 'GOOD' },
      { provider: 'scripted', outcome: 'GOOD' },
      { provider: 'scripted', outcome: 'NO_RESPONSE' },
      { provider: 'scripted', outcome: 'TECHNICAL_FAILURE' },
    ]);
  });

  it('in a batch, a retry of a cancelled campaign ends instead; other outcomes stand', async () => {
    const e = engine({ maxAttempts: 3 });
    const [retried, good] = [e.due(), e.due()];
    await e.dispatch();
    const [retriedLog, goodLog] = await Promise.all([retried, good].map((t) => e.lastLogId(t.id)));
    e.campaigns.put({ ...e.campaign, state: 'cancelled' });
    expect(
      await e.ingestion.ingest('scripted', [
        e.provider.ended(retriedLog, 'VOICEMAIL'),
        e.provider.ended(goodLog, 'GOOD'),
      ]),
    ).toEqual(['applied', 'applied']);
    expect(await e.target(retried.id)).toMatchObject({
      status: 'Finished',
      outcome: 'Campaign cancelled',
      category: null,
    });
    expect(await e.target(good.id)).toMatchObject({ status: 'Finished', category: 'GOOD' });
    expect(e.outbox.of('call_finished').map((x) => [x.targetId, x.nextAttemptScheduled])).toEqual([
      [retried.id, null],
      [good.id, null],
    ]);
  });

  it('an event naming no call of the connection is unknown and stores nothing', async () => {
    const e = engine();
    const t = e.due();
    await e.dispatch();
    const logId = await e.lastLogId(t.id);
    const stranger = { ...e.provider.ended(logId, 'GOOD'), callLogId: 999, providerCallId: 'nope' };
    expect(await e.ingestion.ingest('scripted', [stranger])).toEqual(['unknown_call']);
    expect(await e.ingestion.ingest('other-connection', [e.provider.ended(logId, 'GOOD')])).toEqual(
      ['unknown_call'],
    );
    expect((await e.target(t.id)).status).toBe('In Progress');
  });

  it('past the deadline: the provider’s answer is applied, else To review (deadline-expired)', async () => {
    const e = engine();
    const [answered, silent] = [e.due(), e.due()];
    await e.dispatch();
    const answeredLog = await e.lastLogId(answered.id);
    e.provider.answer = (ref) =>
      ref.callLogId === answeredLog ? e.provider.ended(answeredLog, 'HUMAN_ONLY') : null;
    e.clock.advanceMinutes(29);
    expect(await e.recovery.sweep()).toEqual({ recovered: 0 });
    e.clock.advanceMinutes(2);
    expect(await e.recovery.sweep()).toEqual({ recovered: 2 });
    expect(await e.target(answered.id)).toMatchObject({
      status: 'To review',
      category: 'HUMAN_ONLY',
    });
    expect(await e.target(silent.id)).toMatchObject({
      status: 'To review',
      outcome: 'Call outcome unknown',
    });
    const silentLog = e.logs.logs.get(await e.lastLogId(silent.id))!;
    expect(silentLog).toMatchObject({ endedReason: 'deadline-expired', deadlineAt: null });
    // A late final event after recovery changes nothing.
    const late = { ...e.provider.ended(silentLog.id, 'GOOD'), key: 'late' };
    expect(await e.ingestion.ingest('scripted', [late])).toEqual(['stale']);
    expect((await e.target(silent.id)).status).toBe('To review');
  });

  it('a crash between claim and acceptance: recovered after the placing deadline, never placed again', async () => {
    const e = engine({}, { placingDeadlineSeconds: 120 });
    const t = e.due();
    let accept!: (v: { providerCallId: string }) => void;
    e.provider.startCall = async (request) => {
      e.provider.calls.push(request);
      return new Promise((resolve) => (accept = resolve));
    };
    await e.dispatcher.round();
    expect(await e.target(t.id)).toMatchObject({ status: 'In Progress' });
    e.clock.advance(121_000);
    expect(await e.recovery.sweep()).toEqual({ recovered: 1 });
    expect(await e.target(t.id)).toMatchObject({ status: 'To review' });
    const log = e.logs.logs.get(await e.lastLogId(t.id))!;
    expect(log).toMatchObject({ endedReason: 'worker-lost', providerCallId: null });
    // The placement answers after all: too late, it changes nothing.
    accept({ providerCallId: 'late-1' });
    await e.placement.drain();
    expect(e.logs.logs.get(log.id)!.providerCallId).toBeNull();
    expect(await e.dispatch()).toMatchObject({ acted: 0 });
    expect(e.provider.calls).toHaveLength(1);
  });

  it('a placement that throws ends the attempt as a technical failure (provider-error)', async () => {
    const e = engine({ maxAttempts: 1 });
    const t = e.due();
    e.provider.failNext(new Error('503'));
    await e.dispatch();
    expect(await e.target(t.id)).toMatchObject({ status: 'Failed' });
    expect(e.logs.logs.get(await e.lastLogId(t.id))).toMatchObject({
      endedReason: 'provider-error',
      outcome: 'TECHNICAL_FAILURE',
    });
  });

  it('starts at most max_concurrent_calls; a freed slot lets the next one start', async () => {
    const e = engine({ maxConcurrentCalls: 2 });
    const ts = [e.due(), e.due(), e.due()];
    await e.dispatch();
    const statuses = async () => Promise.all(ts.map(async (t) => (await e.target(t.id)).status));
    expect((await statuses()).filter((s) => s === 'In Progress')).toHaveLength(2);
    expect(await e.dispatch()).toMatchObject({ acted: 0 });
    const running = ts[0];
    await e.ingestion.ingest('scripted', [e.provider.ended(await e.lastLogId(running.id), 'GOOD')]);
    await e.dispatch();
    expect((await statuses()).filter((s) => s === 'In Progress')).toHaveLength(2);
    expect(e.targets.notifications).toBeGreaterThan(0);
  });

  it('outside the calling window the target is deferred; a blacklisted number ends without a call', async () => {
    const e = engine();
    const list = await e.blacklists.create(e.campaign.organizationId, 'dnc');
    await e.blacklists.addNumbers(e.campaign.organizationId, list.id, [
      { phone_number: '+15550107777' },
    ]);
    const blacklisted = e.due({ phoneNumber: '+15550107777' });
    const closedCampaign = engine({
      callingWindow: {
        tz: 'UTC',
        monday: [],
        // 09:00-10:00 in New York, where the default quiet hours read +1555 numbers (zone unknown).
        tuesday: [{ start: '14:00', end: '15:00' }],
      } as never,
    });
    const deferred = closedCampaign.due();
    // The blacklist applies when the campaign names it.
    const withList = engine({ blacklistIds: [list.id] });
    withList.blacklistRepository.blacklists.set(
      list.id,
      e.blacklistRepository.blacklists.get(list.id)!,
    );
    withList.blacklistRepository.entries.set(list.id, e.blacklistRepository.entries.get(list.id)!);
    withList.targets.put({ ...blacklisted, campaignId: withList.campaign.id });
    await withList.dispatch();
    expect(await withList.target(blacklisted.id)).toMatchObject({
      status: 'Finished',
      category: 'BLACKLISTED_PHONE',
      callLogIds: null,
    });
    expect(withList.outbox.of('call_finished')).toMatchObject([
      { callLogId: null, category: 'BLACKLISTED_PHONE' },
    ]);
    expect(withList.provider.calls).toEqual([]);

    await closedCampaign.dispatch();
    const later = await closedCampaign.target(deferred.id);
    expect(later.status).toBe('Scheduled');
    expect(later.scheduledTime!.getTime()).toBeGreaterThan(Date.parse(T0));
    expect(closedCampaign.provider.calls).toEqual([]);
  });
});

describe('pre-dial checks in the dispatcher (fakes, fake clock)', () => {
  beforeAll(() => Logger.overrideLogger(false));
  afterAll(() => Logger.overrideLogger(['log', 'error', 'warn', 'debug', 'verbose']));

  /** Answers from a script; throws while `down`. */
  class ScriptedCheck extends PreDialCheck {
    down = false;
    asked: PreDialCall[][] = [];
    constructor(
      readonly name: string,
      private readonly verdict: (call: PreDialCall) => PreDialVerdict,
    ) {
      super();
    }
    async check(calls: PreDialCall[]): Promise<PreDialVerdict[]> {
      this.asked.push(calls);
      if (this.down) throw new Error('consent service unreachable');
      return calls.map(this.verdict);
    }
  }

  it('a check that fails defers its calls by a minute, and they are placed once it answers', async () => {
    const check = new ScriptedCheck('consent', () => ({ action: 'call' }));
    const e = engine({}, {}, [check]);
    check.down = true;
    const t = e.due();
    await e.dispatch();
    expect(e.provider.calls).toEqual([]);
    expect(await e.target(t.id)).toMatchObject({
      status: 'Scheduled',
      scheduledTime: new Date(e.clock.now().getTime() + 60_000),
      hold: { rule: 'consent', reason: 'consent: the check did not answer; asked again shortly' },
    });
    check.down = false;
    e.clock.advance(60_000);
    await e.dispatch();
    expect(e.provider.calls.map((c) => c.targetId)).toEqual([t.id]);
    expect(check.asked.map((calls) => calls.map((c) => c.targetId))).toEqual([[t.id], [t.id]]);
  });

  it('the first check that holds a call decides it; later checks are not asked about it', async () => {
    const first = new ScriptedCheck('first', (c) =>
      c.to.endsWith('1') ? { action: 'refuse', reason: 'no' } : { action: 'call' },
    );
    const second = new ScriptedCheck('second', () => ({ action: 'call' }));
    const e = engine({}, {}, [first, second]);
    const refused = e.due({ phoneNumber: '+15550100011' });
    const called = e.due({ phoneNumber: '+15550100012' });
    await e.dispatch();
    expect(second.asked.flat().map((c) => c.targetId)).toEqual([called.id]);
    expect(e.provider.calls.map((c) => c.targetId)).toEqual([called.id]);
    expect(await e.target(refused.id)).toMatchObject({
      status: 'Failed',
      outcome: 'Refused by a pre-dial check',
    });
  });
});
