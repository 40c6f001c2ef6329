import { Injectable, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { randomUUID } from 'crypto';
import { DataSource } from 'typeorm';
import { NotificationListener } from '../../../database/notification-listener.js';
import { NoRows, sqlExecutor } from '../../../database/sql.js';
import { ApiKeyRevocations } from '../application/ports/api-key-revocations.js';

/** The channel the revoke statement notifies (see SqlOrganizationRepository.revokeApiKey). */
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
export class SqlApiKeyRevocations
  extends ApiKeyRevocations
  implements OnApplicationBootstrap, OnModuleDestroy
{
  private readonly listeners: (() => void)[] = [];
  private listener: NotificationListener | null = null;
  private trusted = false;

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
    const url = (this.dataSource.options as { url?: string }).url;
    if (!url) return;
    let probe = '';
    this.listener = new NotificationListener({
      url,
      channel: API_KEYS_REVOKED_CHANNEL,
      applicationName: API_KEY_LISTENER_NAME,
      onNotification: (payload) => {
        if (payload === probe) this.trusted = true;
        else if (!payload.startsWith('probe:')) this.revoked();
      },
      // From another connection, as revocations come: PGlite echoes a connection's own NOTIFY back
      // to it but delivers nothing to its other connections.
      onListening: async () => {
        probe = `probe:${randomUUID()}`;
        await sqlExecutor(this.dataSource, null).query<NoRows>(`SELECT pg_notify($1, $2)`, [
          API_KEYS_REVOKED_CHANNEL,
          probe,
        ]);
      },
      // Revocations may be missed from now on: forget the keys and keep new ones briefly.
      onLost: () => {
        this.trusted = false;
        this.revoked();
      },
      lostMessage: 'revocation listener lost; caching keys briefly',
    });
    this.listener.start();
  }

  async onModuleDestroy(): Promise<void> {
    this.trusted = false;
    await this.listener?.stop();
  }

  private revoked(): void {
    for (const listener of this.listeners) listener();
  }
}
