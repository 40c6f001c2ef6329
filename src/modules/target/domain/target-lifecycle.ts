/**
 * A target's lifecycle, declared once as data: the statuses, the events that move a target, and for
 * each event the statuses it may leave (its guard) and those it may lead to. Everything else reads
 * this table:
 * - the SQL adapter's guards (`target-transitions.sql.ts`: `statusGuardSql`), each statement's
 *   `WHERE status ...`, so any number of workers may race on a target and only one wins;
 * - the in-memory fake (`src/testing/in-memory-target-transitions.ts`: `allows`);
 * - the contract suite (test/contracts/target-transitions.contract.ts), which plays every event on a
 *   target of every status against both and expects exactly what this table allows;
 * - the diagram in docs/targets.md ("A target's lifecycle"), generated from it and checked by
 *   test/unit/target-lifecycle-doc.spec.ts (`npm run docs:lifecycle` rewrites it).
 * Which of the allowed statuses an event leads to is decided elsewhere (a call's outcome, a review's
 * action); the effects of a change (events on the timeline, counts) are the triggers' (see
 * targets.triggers.sql.ts).
 */
import { TARGET_STATUS_FILTERS, TargetStatus } from './target.js';

/** Every status a target can be in, in the lifecycle's order. */
export const LIFECYCLE_STATUSES: readonly TargetStatus[] = TARGET_STATUS_FILTERS;

export const TARGET_EVENTS = [
  'trigger',
  'moveWaiting',
  'defer',
  'startCall',
  'finishAttempt',
  'continueAfterText',
  'finishWithoutCall',
  'cancel',
  'review',
] as const;
export type TargetEvent = (typeof TARGET_EVENTS)[number];

export interface TargetTransitionRule {
  /** The statuses the event may leave: its guard. From any other status it changes nothing. */
  from: readonly TargetStatus[];
  /** The statuses it may lead to (which one: the caller's decision). */
  to: readonly TargetStatus[];
  /** What else the guard asks of the target, beside its status. */
  when: string | null;
  /** Who sends the event, for the docs. */
  by: string;
}

export const TARGET_LIFECYCLE: Readonly<Record<TargetEvent, TargetTransitionRule>> = {
  trigger: {
    from: ['Pending'],
    to: ['Scheduled'],
    when: null,
    by: 'POST /campaigns/{id}/trigger, a launched add',
  },
  moveWaiting: {
    from: ['Waiting'],
    to: ['Pending', 'Scheduled'],
    when: 'waiting at the step whose data arrived',
    by: 'step data (merge_and_schedule)',
  },
  defer: {
    from: ['Scheduled'],
    to: ['Scheduled'],
    when: null,
    by: 'the calling window or a calling rule',
  },
  startCall: {
    from: ['Scheduled'],
    to: ['In Progress'],
    when: null,
    by: 'the dispatcher placing a call',
  },
  finishAttempt: {
    from: ['In Progress', 'Post-processing'],
    to: ['Finished', 'Failed', 'To review', 'Scheduled', 'SMS Scheduled'],
    when: "the call is the target's latest",
    by: "the call's outcome",
  },
  continueAfterText: {
    from: ['SMS Scheduled'],
    to: ['Scheduled', 'Finished', 'Failed', 'To review'],
    when: null,
    by: 'the follow-up text settled',
  },
  finishWithoutCall: {
    from: ['Scheduled'],
    to: ['Finished', 'Failed'],
    when: null,
    by: 'blacklisted or undialable',
  },
  cancel: {
    from: ['Pending', 'Scheduled', 'Waiting'],
    to: ['Finished'],
    when: null,
    by: 'the campaign cancelled',
  },
  review: {
    from: ['To review'],
    to: ['Finished', 'Scheduled'],
    when: null,
    by: 'POST /targets/{id}/review (done, requeue)',
  },
};

/** Whether `event` may move a target in `status` (the guard, by status). */
export function allows(event: TargetEvent, status: TargetStatus): boolean {
  return TARGET_LIFECYCLE[event].from.includes(status);
}

/**
 * The guard of `event` as SQL on `status` (of `alias` when given): `t.status IN ('In Progress', ...)`.
 * The statuses are the declaration's own constants, never input.
 */
export function statusGuardSql(event: TargetEvent, alias?: string): string {
  const column = alias ? `${alias}.status` : 'status';
  const statuses = TARGET_LIFECYCLE[event].from.map((s) => `'${s.replace(/'/g, "''")}'`);
  return `${column} IN (${statuses.join(', ')})`;
}
