import { Logger } from '@nestjs/common';
import { Client } from 'pg';

/** The connection's application_name, so operators (and tests) can find it in pg_stat_activity. */
export const LISTENER_NAME = 'ccs-due-listener';

/**
 * LISTEN on one channel over a dedicated connection, calling `onNotify` for each notification. The
 * connection is re-opened with backoff when it drops; meanwhile the dispatcher's poll interval still
 * drives it. Never throws. (Embedded PGlite accepts LISTEN but delivers nothing across its socket:
 * there the poll interval does all the work.)
 */
export class DueListener {
  private readonly logger = new Logger('DueListener');
  private client: Client | null = null;
  private stopped = false;
  private retryTimer: NodeJS.Timeout | null = null;
  private failures = 0;

  constructor(
    private readonly url: string,
    private readonly channel: string,
    private readonly onNotify: () => void,
  ) {}

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
    const client = new Client({ connectionString: this.url, application_name: LISTENER_NAME });
    client.on('error', (err) => this.dropped(client, err));
    client.on('end', () => this.dropped(client, null));
    client.on('notification', () => this.onNotify());
    try {
      await client.connect();
      await client.query(`LISTEN ${this.channel}`);
      if (this.stopped) {
        await client.end().catch(() => undefined);
        return;
      }
      this.client = client;
      this.failures = 0;
      // Whatever was notified while we were not listening is picked up now.
      this.onNotify();
    } catch (err) {
      this.dropped(client, err);
    }
  }

  private dropped(client: Client, err: unknown): void {
    if (this.stopped || (this.client !== null && this.client !== client)) return;
    if (this.client === null && this.retryTimer) return;
    this.client = null;
    client.end().catch(() => undefined);
    const delay = Math.min(30_000, 500 * 2 ** Math.min(this.failures++, 6));
    this.logger.warn({ err, retryInMs: delay }, 'notification connection lost; polling meanwhile');
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      void this.connect();
    }, delay);
    this.retryTimer.unref();
  }
}
