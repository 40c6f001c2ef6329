import { SealedSecret } from '../../../../common/secrets/secret-box.js';
import {
  ConnectionSettings,
  ConnectionType,
  Credentials,
  ProviderConnection,
} from '../../domain/provider-connection.js';

/** A connection as stored: the public view plus its sealed credentials (null: it has none). */
export interface StoredConnection extends ProviderConnection {
  sealedCredentials: SealedSecret | null;
}

export interface NewConnection {
  id: string;
  organizationId: string;
  type: ConnectionType;
  name: string;
  sealedCredentials: SealedSecret | null;
  maskedCredentials: Credentials;
  settings: ConnectionSettings;
  isDefault: boolean;
}

export interface ConnectionChanges {
  name?: string;
  sealedCredentials?: SealedSecret;
  maskedCredentials?: Credentials;
  settings?: ConnectionSettings;
  isDefault?: boolean;
}

export abstract class ProviderConnectionRepository {
  /**
   * Inserts; when `isDefault`, the organization's previous default is unset in the same statement.
   * `now`: its created_at and updated_at (and the unset default's updated_at).
   */
  abstract create(connection: NewConnection, now: Date): Promise<StoredConnection>;
  abstract findById(id: string): Promise<StoredConnection | null>;
  abstract findDefault(organizationId: string): Promise<StoredConnection | null>;
  abstract list(
    organizationId: string,
    offset: number,
    limit: number,
  ): Promise<{ items: StoredConnection[]; total: number }>;
  /**
   * Applies the changes to the organization's connection; null when it has no such connection.
   * `now`: its updated_at (and that of a default it replaces).
   */
  abstract update(
    organizationId: string,
    id: string,
    changes: ConnectionChanges,
    now: Date,
  ): Promise<StoredConnection | null>;
  /** True: its connection is gone; false: it has none; ConflictError while a campaign names it. */
  abstract delete(organizationId: string, id: string): Promise<boolean>;
}
