import { Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { randomUUID } from 'crypto';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { ApiKeyRevocations } from '../application/ports/api-key-revocations.js';

/** The channel the revoke statement notifies (see TypeOrmOrganizationRepository.revokeApiKey). */
export const API_KEYS_REVOKED_CHANNEL = 'api_keys_revoked';
/** The connection's application_name, so operators can find it in pg_stat_activity. */
export const API_KEY_LISTENER_NAME = 'ccs-api-key-listener';

/** While notifications are known to arrive: long, a revocation clears the cache anyway. */
const TRUSTED_TTL_MS = 60_000;
/** Otherwise (connecting, dropped, or embedded PGlite, whose socket delivers no NOTIFY): short. */
const UNTRUSTED_TTL_MS = 500;

/**
 * LISTENs for revocations on a dedicated connection. Notifications are trusted only once this
 * connection has heard a probe sent from another connection: PGlite accepts LISTEN and NOTIFY but
 * delivers nothing across its connections, and a dropped connection hears nothing either. Until then, and from the
 * moment the connection drops, cached keys live UNTRUSTED_TTL_MS.
 */
@Injectable()
export class PgApiKeyRevocations
  extends ApiKeyRevocations
  implements OnApplicationBootstrap, OnModuleDestroy
{
  private readonly logger = new Logger('ApiKeyRevocations');
  private readonly listeners: (() => void)[] = [];
  private client: Client | null = null;
  private trusted = false;
  private stopped = false;
  private retryTimer: NodeJS.Timeout | null = null;
  private failures = 0;

  constructor(private readonly dataSource: DataSource) {
    super();
  }

  subscribe(onRevoked: () => void): void {
    this.listeners.push(onRevoked);
  }

  cacheTtlMs(): number {
    return this.trusted ? TRUSTED_TTL_MS : UNTRUSTED_TTL_MS;
  }

  onApplicationBootstrap(): void {
    void this.connect();
  }

  async onModuleDestroy(): Promise<void> {
    this.stopped = true;
    this.trusted = false;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    const client = this.client;
    this.client = null;
    await client?.end().catch(() => undefined);
  }

  private revoked(): void {
    for (const listener of this.listeners) listener();
  }

  private async connect(): Promise<void> {
    const url = (this.dataSource.options as { url?: string }).url;
    if (this.stopped || !url) return;
    const probe = `probe:${randomUUID()}`;
    const client = new Client({ connectionString: url, application_name: API_KEY_LISTENER_NAME });
    client.on('error', (err) => this.dropped(client, err));
    client.on('end', () => this.dropped(client, null));
    client.on('notification', (message) => {
      if (message.payload === probe) {
        this.trusted = true;
        this.failures = 0;
      } else if (!message.payload?.startsWith('probe:')) {
        this.revoked();
      }
    });
    try {
      await client.connect();
      this.client = client;
      await client.query(`LISTEN ${API_KEYS_REVOKED_CHANNEL}`);
      // From another connection, as revocations come: PGlite echoes a connection's own NOTIFY back
      // to it but delivers nothing to its other connections.
      await this.dataSource.query(`SELECT pg_notify($1, $2)`, [API_KEYS_REVOKED_CHANNEL, probe]);
      if (this.stopped) await client.end().catch(() => undefined);
    } catch (err) {
      this.dropped(client, err);
    }
  }

  private dropped(client: Client, err: unknown): void {
    if (this.stopped || (this.client !== null && this.client !== client)) return;
    if (this.client === null && this.retryTimer) return;
    this.client = null;
    // Revocations may be missed from now on: forget the keys and keep new ones briefly.
    this.trusted = false;
    this.revoked();
    client.end().catch(() => undefined);
    const delay = Math.min(30_000, 500 * 2 ** Math.min(this.failures++, 6));
    this.logger.warn({ err, retryInMs: delay }, 'revocation listener lost; caching keys briefly');
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      void this.connect();
    }, delay);
    this.retryTimer.unref();
  }
}
