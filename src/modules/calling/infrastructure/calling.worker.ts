import {
  Inject,
  Injectable,
  Logger,
  OnApplicationBootstrap,
  OnModuleDestroy,
  Optional,
} from '@nestjs/common';
import { DataSource } from 'typeorm';
import { Clock } from '../../../common/clock/clock.js';
import { AppConfig } from '../../../config/app-config.js';
import { NotificationListener } from '../../../database/notification-listener.js';
import {
  TARGETS_DUE_CHANNEL,
  TargetTransitions,
} from '../../target/application/ports/target-transitions.js';
import { CallPlacement } from '../application/call-placement.js';
import { CallRecovery } from '../application/call-recovery.js';
import { CallingSettings } from '../application/calling-settings.js';
import { CallDispatcher } from '../application/call-dispatcher.js';
import { Wakeup } from './wakeup.js';

/** The LISTEN connection's application_name, so operators (and tests) find it in pg_stat_activity. */
export const DUE_LISTENER_NAME = 'ccs-due-listener';

/** After a failed round: 0.5 s, doubling up to 30 s. */
const backoffMs = (failures: number) => Math.min(30_000, 500 * 2 ** Math.min(failures, 6));
/** Another dispatcher holds the due targets this one saw: look again after a short, jittered pause. */
const CONTENDED_PAUSE_MS = 20;

/**
 * In worker processes (ROLE worker or all): the dispatcher loop, woken by NOTIFY on the targets-due
 * channel and otherwise sleeping until the next due time or the poll interval, and the deadline sweep
 * on a timer. Neither ever crashes the process: a failed round is logged and retried with backoff.
 */
@Injectable()
export class CallingWorker implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('CallingWorker');
  private readonly wakeup = new Wakeup();
  private listener: NotificationListener | null = null;
  private running = false;
  private loop: Promise<void> | null = null;
  private sweepTimer: NodeJS.Timeout | null = null;
  private sweeping: Promise<unknown> | null = null;

  constructor(
    private readonly dispatcher: CallDispatcher,
    private readonly placement: CallPlacement,
    private readonly recovery: CallRecovery,
    private readonly targets: TargetTransitions,
    private readonly settings: CallingSettings,
    private readonly clock: Clock,
    private readonly config: AppConfig,
    // Absent on the in-memory fakes (the testing module): the poll alone wakes the dispatcher.
    @Optional() @Inject(DataSource) private readonly dataSource: DataSource | null,
  ) {}

  /** Wakes the dispatcher now (a notification; tests and in-process callers). */
  wake(): void {
    this.wakeup.wake();
  }

  onApplicationBootstrap(): void {
    if (this.config.get('ROLE') === 'api') return;
    this.running = true;
    const url = (this.dataSource?.options as { url?: string } | undefined)?.url;
    if (url) {
      // Wakes an idle dispatcher (which reads the due campaigns afresh); a busy one sees new
      // campaigns within a second (CallDispatcher's list of due campaigns). While the connection is
      // down, the poll interval still drives it; on (re)connecting, whatever was notified meanwhile
      // is picked up.
      this.listener = new NotificationListener({
        url,
        channel: TARGETS_DUE_CHANNEL,
        applicationName: DUE_LISTENER_NAME,
        onNotification: () => this.wakeup.wake(),
        onListening: () => this.wakeup.wake(),
        lostMessage: 'targets-due connection lost; polling meanwhile',
      });
      this.listener.start();
    }
    this.loop = this.dispatchLoop();
    this.sweepTimer = setInterval(() => this.sweep(), this.settings.sweepIntervalMs);
    this.sweepTimer.unref();
    this.announceReady();
  }

  /** No new claims; placements under way finish (their calls are open and recoverable regardless). */
  async onModuleDestroy(): Promise<void> {
    this.running = false;
    if (this.sweepTimer) clearInterval(this.sweepTimer);
    this.sweepTimer = null;
    this.wakeup.wake();
    await this.loop;
    await this.placement.drain();
    await this.sweeping;
    await this.listener?.stop();
  }

  private async dispatchLoop(): Promise<void> {
    let failures = 0;
    while (this.running) {
      try {
        const round = await this.dispatcher.round();
        failures = 0;
        if (!this.running) break;
        if (round.placementsFull) {
          await Promise.race([
            this.placement.whenFree(),
            this.wakeup.sleep(this.settings.pollIntervalMs),
          ]);
        } else if (round.rateLimitedUntil) {
          await this.wakeup.sleep(round.rateLimitedUntil.getTime() - this.clock.now().getTime());
        } else if (round.acted > 0) {
          // More may be due at once: go on, letting I/O callbacks run in between.
          await new Promise((resolve) => setImmediate(resolve));
        } else if (round.contended) {
          await this.wakeup.sleep(CONTENDED_PAUSE_MS + Math.random() * CONTENDED_PAUSE_MS);
        } else {
          await this.wakeup.sleep(await this.idleMs());
        }
      } catch (err) {
        const wait = backoffMs(failures++);
        this.logger.warn({ err, retryInMs: wait }, 'dispatch round failed');
        await this.wakeup.sleep(wait);
      }
    }
  }

  /** Until the next target is due, at most the poll interval (a notification cuts it short). */
  private async idleMs(): Promise<number> {
    const now = this.clock.now().getTime();
    const next = await this.targets.nextDueAfter(new Date(now));
    const poll = this.settings.pollIntervalMs;
    return next === null ? poll : Math.min(poll, Math.max(0, next.getTime() - now));
  }

  private sweep(): void {
    if (this.sweeping || !this.running) return;
    this.sweeping = this.recovery
      .sweep()
      .then((r) => {
        if (r.recovered) this.logger.log(r, 'recovered calls past their deadline');
      })
      .catch((err) => this.logger.warn({ err }, 'deadline sweep failed'))
      .finally(() => (this.sweeping = null));
  }

  /**
   * A supervisor that spawned this process with an IPC channel and `CALLING_WORKER_READY_IPC=1` (the
   * tests' worker processes, a process manager) is told when dispatching has started. Opt-in: other
   * IPC parents (e.g. a test runner's forked workers) must not receive messages they do not expect.
   */
  private announceReady(): void {
    if (process.send && process.env.CALLING_WORKER_READY_IPC === '1')
      process.send({ type: 'calling-worker-ready' });
  }
}
