import { Injectable, Logger } from '@nestjs/common';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { Pool } from 'pg';
import { DataSource } from 'typeorm';
import { Metrics, WebhookAttemptOutcome } from '../common/metrics/metrics.js';
import { poolOf } from '../database/data-source.options.js';
import { PgBossJobQueue, QueueBacklog } from '../jobs/pg-boss-job-queue.js';

type PgPoolLike = Pick<Pool, 'totalCount' | 'idleCount' | 'waitingCount'>;

/**
 * The service's Prometheus registry. Counters are counted where things happen; gauges that describe
 * shared state (job backlog, calls in flight) are read from the database at scrape time, so every
 * replica reports the same value for them and a restart loses nothing.
 */
@Injectable()
export class PrometheusMetrics extends Metrics {
  readonly registry = new Registry();
  private readonly logger = new Logger('Metrics');

  private readonly httpDuration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time to answer an HTTP request, by method, route template and status',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [this.registry],
  });
  /**
   * The histogram's count under its own name, copied at scrape time: one observation per request
   * instead of two (each hashes its labels; together a visible share of a fast request's CPU).
   */
  private readonly httpRequests = new Counter({
    name: 'http_requests_total',
    help: 'HTTP requests answered, by method, route template and status',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [this.registry],
    collect: () => this.copyHttpRequestCounts(),
  });
  private readonly callsPlaced = new Counter({
    name: 'calls_placed_total',
    help: 'Calls handed to the telephony provider',
    labelNames: ['provider'] as const,
    registers: [this.registry],
  });
  private readonly callsEnded = new Counter({
    name: 'calls_ended_total',
    help: 'Calls ended, by provider and outcome',
    labelNames: ['provider', 'outcome'] as const,
    registers: [this.registry],
  });
  private readonly webhookAttempts = new Counter({
    name: 'webhook_delivery_attempts_total',
    help: 'Webhook delivery attempts by outcome: delivered, retry (will be retried), failed (retries exhausted), gone (receiver answered 410), lease_lost',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });
  private readonly webhookDuration = new Histogram({
    name: 'webhook_delivery_duration_seconds',
    help: 'Time a webhook receiver took to answer (or to fail)',
    buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [this.registry],
  });

  constructor(
    private readonly dataSource: DataSource,
    private readonly jobs: PgBossJobQueue,
  ) {
    super();
    collectDefaultMetrics({ register: this.registry });
    // The three queue gauges share one backlog query per scrape (see `backlog`).
    const queueGauge = (name: string, help: string, valueOf: (b: QueueBacklog) => number) => {
      const gauge: Gauge<string> = new Gauge({
        name,
        help,
        labelNames: ['queue'] as const,
        registers: [this.registry],
        collect: async () => {
          const backlog = await this.backlog();
          gauge.reset();
          for (const b of backlog) gauge.set({ queue: b.queue }, valueOf(b));
        },
      });
    };
    queueGauge(
      'job_queue_waiting',
      'Jobs ready to run and not yet taken, per queue',
      (b) => b.waiting,
    );
    queueGauge(
      'job_queue_oldest_waiting_seconds',
      'Age of the oldest job ready to run and not yet taken, per queue',
      (b) => b.oldestWaitingSeconds,
    );
    queueGauge('job_queue_active', 'Jobs being run by a worker, per queue', (b) => b.active);
    const inFlightGauge: Gauge<string> = new Gauge({
      name: 'calls_in_flight',
      help: 'Calls started and not ended (all processes)',
      registers: [this.registry],
      collect: async () => {
        try {
          // A read-only count over the call-log module's table, for operators; nothing else reads
          // it here.
          const [row] = await this.dataSource.query<{ n: number }[]>(
            'SELECT count(*)::int AS n FROM call_logs WHERE ended_at IS NULL',
          );
          inFlightGauge.set(row.n);
        } catch (err) {
          this.logger.warn({ err }, 'cannot count calls in flight for metrics');
        }
      },
    });
    const poolsGauge: Gauge<string> = new Gauge({
      name: 'db_pool_connections',
      help: 'Connections of this process to PostgreSQL, by pool (app, jobs) and state (in_use, idle, waiting requests)',
      labelNames: ['pool', 'state'] as const,
      registers: [this.registry],
      collect: () => {
        const pools: [string, PgPoolLike | undefined][] = [
          ['app', poolOf(this.dataSource)],
          ['jobs', (this.jobs.boss.getDb() as unknown as { pool?: PgPoolLike }).pool],
        ];
        for (const [pool, p] of pools) {
          if (!p) continue;
          poolsGauge.set({ pool, state: 'in_use' }, p.totalCount - p.idleCount);
          poolsGauge.set({ pool, state: 'idle' }, p.idleCount);
          poolsGauge.set({ pool, state: 'waiting' }, p.waitingCount);
        }
      },
    });
  }

  callPlaced(provider: string): void {
    this.callsPlaced.inc({ provider });
  }

  callEnded(provider: string, outcome: string): void {
    this.callsEnded.inc({ provider, outcome });
  }

  webhookAttempt(outcome: WebhookAttemptOutcome, durationMs: number): void {
    this.webhookAttempts.inc({ outcome });
    this.webhookDuration.observe(durationMs / 1000);
  }

  /** The exposition text. A gauge whose source is unreachable is left out, the rest still answers. */
  async render(): Promise<{ contentType: string; body: string }> {
    this.backlogOnce = null;
    return { contentType: this.registry.contentType, body: await this.registry.metrics() };
  }

  /** One backlog query per scrape, shared by the three queue gauges. */
  private backlogOnce: ReturnType<PgBossJobQueue['backlog']> | null = null;

  private backlog(): ReturnType<PgBossJobQueue['backlog']> {
    this.backlogOnce ??= this.jobs.backlog().catch((err) => {
      this.logger.warn({ err }, 'cannot read the job backlog for metrics');
      return [];
    });
    return this.backlogOnce;
  }

  /** A request answered: its series (method, route template, status) and how long it took. */
  httpAnswered(method: string, route: string, status: number, seconds: number): void {
    this.httpDuration.observe({ method, route, status: String(status) }, seconds);
  }

  private async copyHttpRequestCounts(): Promise<void> {
    const { values } = await this.httpDuration.get();
    // Reset and set in one synchronous stretch: no scrape sees the counter half copied.
    this.httpRequests.reset();
    for (const { metricName, labels, value } of values) {
      if (metricName === 'http_request_duration_seconds_count')
        this.httpRequests.inc(labels, value);
    }
  }
}
