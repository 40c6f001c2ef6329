import { Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { Clock } from '../../../common/clock/clock.js';
import { AppConfig } from '../../../config/app-config.js';
import { CallEventIngestion } from '../application/call-event-ingestion.js';
import { CallingSettings } from '../application/calling-settings.js';
import { SimulatedCallProvider } from './simulated-call-provider.js';
import { Wakeup } from './wakeup.js';

/** Calls taken for delivery by a worker that dies are delivered by another after this long. */
const RETAKE_AFTER_MS = 30_000;
const BATCH = 200;

/**
 * In worker processes: delivers the simulated calls that are due
 * (any worker's, including those of a process that died) through the events ingestion, in batches.
 */
@Injectable()
export class SimulatedCallDelivery implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('SimulatedCalls');
  private readonly wakeup = new Wakeup();
  private running = false;
  private loop: Promise<void> | null = null;

  constructor(
    private readonly simulator: SimulatedCallProvider,
    private readonly ingestion: CallEventIngestion,
    private readonly settings: CallingSettings,
    private readonly clock: Clock,
    private readonly config: AppConfig,
  ) {}

  onApplicationBootstrap(): void {
    // In every worker, whatever CALL_PROVIDER is: an organization may choose a `simulated` connection.
    if (this.config.get('ROLE') === 'api') return;
    this.simulator.onCallStarted = (dueAt) => {
      if (dueAt.getTime() <= this.clock.now().getTime()) this.wakeup.wake();
    };
    this.running = true;
    this.loop = this.deliverLoop(this.simulator);
  }

  async onModuleDestroy(): Promise<void> {
    this.running = false;
    this.wakeup.wake();
    await this.loop;
  }

  private async deliverLoop(simulator: SimulatedCallProvider): Promise<void> {
    let failures = 0;
    while (this.running) {
      try {
        const now = this.clock.now();
        const due = await simulator.takeDue(now, new Date(now.getTime() + RETAKE_AFTER_MS), BATCH);
        failures = 0;
        if (due.length > 0) {
          await this.ingestion.ingest(
            simulator.name,
            due.flatMap((call) => call.events),
          );
          await simulator.remove(due.map((call) => call.id));
          continue;
        }
        const next = await simulator.nextDue();
        const poll = this.settings.pollIntervalMs;
        await this.wakeup.sleep(
          next === null ? poll : Math.min(poll, Math.max(0, next.getTime() - now.getTime())),
        );
      } catch (err) {
        const wait = Math.min(30_000, 500 * 2 ** Math.min(failures++, 6));
        this.logger.warn({ err, retryInMs: wait }, 'delivering simulated calls failed');
        await this.wakeup.sleep(wait);
      }
    }
  }
}
