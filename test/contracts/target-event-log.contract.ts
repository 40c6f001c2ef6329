import { randomUUID } from 'crypto';
import { UnitOfWork } from '../../src/common/persistence/unit-of-work.js';
import {
  TargetEventLog,
  TimelineEntry,
} from '../../src/modules/target/application/ports/target-event-log.js';
import { TargetRepository } from '../../src/modules/target/application/ports/target.repository.js';
import { TargetTransitions } from '../../src/modules/target/application/ports/target-transitions.js';
import type { NewTarget } from '../../src/modules/target/domain/new-targets.js';
import { absentFields } from '../../src/modules/target/domain/target-fields.js';

export interface TargetEventLogSubject {
  events: TargetEventLog;
  repository: TargetRepository;
  transitions: TargetTransitions;
  unitOfWork: UnitOfWork;
  tenant(): Promise<{ organizationId: string; campaignId: string }>;
}

const KEY = { type: 'api_key' as const, id: 'key-1' };
const WORKER = { type: 'worker' as const, id: null };

function newTarget(
  scope: { organizationId: string; campaignId: string },
  over: Partial<NewTarget> = {},
): NewTarget {
  return {
    id: randomUUID(),
    ...scope,
    externalId: null,
    phoneNumber: '+15550100001',
    phoneOperatingHours: null,
    fallbackPhoneNumber: null,
    fallbackOperatingHours: null,
    patient: null,
    ...absentFields(),
    inputData: { a: 1 },
    status: 'Pending',
    currentStep: null,
    scheduledTime: null,
    ...over,
  };
}

/** Kind, status, actor, reason and data, oldest first: what both implementations must agree on. */
const story = (entries: TimelineEntry[]) =>
  [...entries].reverse().map(({ event: e }) => ({
    kind: e.kind,
    status: e.status,
    actor: e.actor,
    reason: e.reason,
    data: e.data,
  }));

/**
 * The TargetEventLog port, against the in-memory fake (which derives events from the target fakes'
 * changes) and the SQL adapter (triggers on `targets`): the same events for the same changes.
 */
export function targetEventLogContract(name: string, subject: () => TargetEventLogSubject) {
  describe(`TargetEventLog contract: ${name}`, () => {
    let s: TargetEventLogSubject;
    beforeEach(() => {
      s = subject();
    });

    it('records adds, edits, moves, calls and deletes with the cause in force', async () => {
      const scope = await s.tenant();
      const target = newTarget(scope);
      const now = new Date('2026-11-23T14:00:00.000Z');
      await s.unitOfWork.run((tx) =>
        s.repository.insertMany(tx, [target], {
          now,
          skipTakenExternalIds: false,
          cause: { actor: KEY },
        }),
      );
      await s.repository.mergeInputData(
        scope.organizationId,
        target.id,
        { b: 2, a: 1 },
        {
          onlyIfNotStarted: true,
          now: new Date('2026-11-23T14:01:00.000Z'),
          cause: { actor: KEY },
        },
      );
      await s.unitOfWork.run(async (tx) => {
        await s.events.attribute(tx, { actor: KEY, reason: 'calls triggered' });
        await s.transitions.claimForTrigger(
          tx,
          scope.campaignId,
          { targetIds: [target.id] },
          new Date('2026-11-23T14:02:00.000Z'),
        );
      });
      await s.unitOfWork.run(async (tx) => {
        await s.events.attribute(tx, {
          actor: WORKER,
          reasonsByTarget: { [target.id]: 'call placed: attempt 1 of 3' },
        });
        await s.transitions.startCalls(
          tx,
          scope.organizationId,
          [{ targetId: target.id, callLogId: 42 }],
          new Date('2026-11-23T14:03:00.000Z'),
        );
      });
      await s.unitOfWork.run(async (tx) => {
        // The batch's actor is a worker; this target's own cause (a provider event) wins for its row.
        await s.events.attribute(tx, {
          actor: WORKER,
          actorsByTarget: { [target.id]: { type: 'provider', id: 'sim:e1' } },
          reason: 'retry 2 of 3 after NO_RESPONSE',
        });
        await s.transitions.finishAttempt(tx, scope.organizationId, target.id, {
          status: 'Scheduled',
          resolution: null,
          category: 'NO_RESPONSE',
          subcategory: null,
          outcome: 'No answer',
          retryAt: new Date('2026-11-23T15:04:00.000Z'),
          callLogId: 42,
          durationSeconds: 0,
          outputData: {},
          categorization: { outcome: 'NO_RESPONSE' },
          now: new Date('2026-11-23T14:04:00.000Z'),
        });
      });
      await s.repository.deleteUnlessInFlight(
        scope.organizationId,
        scope.campaignId,
        [target.id],
        new Date('2026-11-23T14:05:00.000Z'),
        { actor: KEY, reason: 'deleted through the API' },
      );

      const entries = await s.events.list(scope.organizationId, target.id, null, 50);
      expect(story(entries)).toEqual([
        {
          kind: 'added',
          status: 'Pending',
          actor: KEY,
          reason: 'added, not launched: trigger calls or add with launch=true',
          data: {},
        },
        {
          kind: 'input_edited',
          status: null,
          actor: KEY,
          reason: 'input data edited',
          data: { keys: ['b'] },
        },
        {
          kind: 'status_changed',
          status: 'Scheduled',
          actor: KEY,
          reason: 'calls triggered',
          data: { from: 'Pending', scheduled_time: '2026-11-23T14:02:00.000Z' },
        },
        {
          kind: 'call_started',
          status: 'In Progress',
          actor: WORKER,
          reason: 'call placed: attempt 1 of 3',
          data: { call_log_id: 42, attempt: 1 },
        },
        {
          kind: 'call_ended',
          status: 'Scheduled',
          actor: { type: 'provider', id: 'sim:e1' },
          reason: 'retry 2 of 3 after NO_RESPONSE',
          data: {
            call_log_id: 42,
            attempt: 1,
            outcome: 'No answer',
            resolution: null,
            category: 'NO_RESPONSE',
            subcategory: null,
            next_attempt_at: '2026-11-23T15:04:00.000Z',
          },
        },
        {
          kind: 'deleted',
          status: null,
          actor: KEY,
          reason: 'deleted through the API',
          data: { last_status: 'Scheduled' },
        },
      ]);
      expect(entries.slice(0, 5).map((e) => e.event.at.toISOString())).toEqual([
        '2026-11-23T14:05:00.000Z',
        '2026-11-23T14:04:00.000Z',
        '2026-11-23T14:03:00.000Z',
        '2026-11-23T14:02:00.000Z',
        '2026-11-23T14:01:00.000Z',
      ]);
    });

    it('a rolled-back unit of work leaves no event, and its cause ends with it', async () => {
      const scope = await s.tenant();
      const target = newTarget(scope);
      await s.unitOfWork.run((tx) =>
        s.repository.insertMany(tx, [target], {
          now: new Date('2026-11-23T14:00:00.000Z'),
          skipTakenExternalIds: false,
          cause: { actor: KEY },
        }),
      );
      const failure = new Error('provider refused');
      await expect(
        s.unitOfWork.run(async (tx) => {
          await s.events.attribute(tx, { actor: WORKER, reason: 'rolled back' });
          await s.transitions.claimForTrigger(
            tx,
            scope.campaignId,
            { targetIds: [target.id] },
            new Date('2026-11-23T14:01:00.000Z'),
          );
          throw failure;
        }),
      ).rejects.toBe(failure);
      // A later change with no cause of its own is the system's, not the rolled-back worker's.
      await s.unitOfWork.run((tx) =>
        s.transitions.claimForTrigger(
          tx,
          scope.campaignId,
          { targetIds: [target.id] },
          new Date('2026-11-23T14:02:00.000Z'),
        ),
      );

      const entries = await s.events.list(scope.organizationId, target.id, null, 50);
      expect(story(entries).map(({ kind, status, actor }) => ({ kind, status, actor }))).toEqual([
        { kind: 'added', status: 'Pending', actor: KEY },
        { kind: 'status_changed', status: 'Scheduled', actor: { type: 'system', id: null } },
      ]);
    });

    it('pages newest first from a position, and scopes by organization', async () => {
      const scope = await s.tenant();
      const other = await s.tenant();
      const target = newTarget(scope);
      const now = new Date('2026-11-23T14:00:00.000Z');
      await s.unitOfWork.run((tx) =>
        s.repository.insertMany(tx, [target], { now, skipTakenExternalIds: false }),
      );
      for (let i = 1; i <= 4; i++) {
        await s.repository.mergeInputData(
          scope.organizationId,
          target.id,
          { n: i },
          {
            onlyIfNotStarted: false,
            // Two edits in the same millisecond: the position still orders them.
            now: new Date(now.getTime() + Math.ceil(i / 2) * 1000),
          },
        );
      }
      const all = await s.events.list(scope.organizationId, target.id, null, 50);
      expect(all.map((e) => e.event.kind)).toEqual([
        'input_edited',
        'input_edited',
        'input_edited',
        'input_edited',
        'added',
      ]);
      expect(all[0].event.actor).toEqual({ type: 'system', id: null });
      const paged: TimelineEntry[] = [];
      let before = null;
      for (;;) {
        const page: TimelineEntry[] = await s.events.list(
          scope.organizationId,
          target.id,
          before,
          2,
        );
        paged.push(...page);
        if (page.length < 2) break;
        before = page[page.length - 1].position;
      }
      expect(paged.map((e) => e.event.id)).toEqual(all.map((e) => e.event.id));
      expect(await s.events.list(other.organizationId, target.id, null, 50)).toEqual([]);
    });
  });
}
