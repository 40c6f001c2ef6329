import { Logger } from '@nestjs/common';
import { Client } from 'pg';

export interface NotificationListenerOptions {
  /** The PostgreSQL connection string. */
  readonly url: string;
  /** The channel to LISTEN on (an identifier: it is written into the statement). */
  readonly channel: string;
  /** The connection's application_name, so operators (and tests) can find it in pg_stat_activity. */
  readonly applicationName: string;
  /** Each notification's payload ('' when the sender gave none). */
  readonly onNotification: (payload: string) => void;
  /**
   * Once LISTEN runs on a new connection: catch up on what was notified while nobody listened, or
   * prove delivery. A failure counts as a lost connection.
   */
  readonly onListening?: () => void | Promise<void>;
  /** When the connection drops (not on `stop`): notifications may be missed until it is back. */
  readonly onLost?: () => void;
  /** What the warning says when the connection drops. */
  readonly lostMessage: string;
}

/**
 * LISTEN on one channel over a dedicated connection (never one of the pool's: a pooled connection
 * goes back to the pool and stops listening). The connection is re-opened with backoff (0.5 s
 * doubling to 30 s) when it drops. Never throws. Embedded PGlite accepts LISTEN but delivers nothing
 * across its connections: callers keep a fallback (a poll, a short cache) for that.
 */
export class NotificationListener {
  private readonly logger = new Logger('NotificationListener');
  private client: Client | null = null;
  private stopped = false;
  private retryTimer: NodeJS.Timeout | null = null;
  private failures = 0;

  constructor(private readonly options: NotificationListenerOptions) {}

  start(): void {
    this.stopped = false;
    void this.connect();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    const client = this.client;
    this.client = null;
    await client?.end().catch(() => undefined);
  }

  private async connect(): Promise<void> {
    if (this.stopped) return;
    const { url, channel, applicationName, onNotification, onListening } = this.options;
    const client = new Client({ connectionString: url, application_name: applicationName });
    client.on('error', (err) => this.dropped(client, err));
    client.on('end', () => this.dropped(client, null));
    client.on('notification', (message) => onNotification(message.payload ?? ''));
    try {
      await client.connect();
      await client.query(`LISTEN ${channel}`);
      if (this.stopped) {
        await client.end().catch(() => undefined);
        return;
      }
      this.client = client;
      this.failures = 0;
      await onListening?.();
    } catch (err) {
      this.dropped(client, err);
    }
  }

  private dropped(client: Client, err: unknown): void {
    if (this.stopped || (this.client !== null && this.client !== client)) return;
    if (this.client === null && this.retryTimer) return;
    this.client = null;
    this.options.onLost?.();
    client.end().catch(() => undefined);
    const delay = Math.min(30_000, 500 * 2 ** Math.min(this.failures++, 6));
    this.logger.warn(
      { err, channel: this.options.channel, retryInMs: delay },
      this.options.lostMessage,
    );
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      void this.connect();
    }, delay);
    this.retryTimer.unref();
  }
}
