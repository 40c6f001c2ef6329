import { Injectable, Optional } from '@nestjs/common';
import { randomUUID } from 'crypto';
import { Clock, SystemClock } from '../../../common/clock/clock.js';
import {
  InvalidInputError,
  NotFoundError,
  PackageMissingError,
} from '../../../common/errors/domain-errors.js';
import { isUuid } from '../../../common/ids/canonical-uuid.js';
import {
  ConnectionSettings,
  ConnectionType,
  CREDENTIAL_FIELDS,
  Credentials,
  effectiveSettings,
  isBuiltInConnectionType,
  maskCredentials,
  mergeSettings,
  ProviderConnection,
  ResolvedConnection,
} from '../domain/provider-connection.js';
import {
  ConnectionChanges,
  ProviderConnectionRepository,
  StoredConnection,
} from './ports/provider-connection.repository.js';
import { ProviderCallClients } from './ports/provider-call-clients.js';
import { ProviderDestinations } from './ports/provider-destinations.js';
import { SecretBox, SecretUnreadableError } from '../../../common/secrets/secret-box.js';
import { VoiceProviders } from './ports/voice-provider.js';

export interface CreateConnection {
  type: ConnectionType;
  name: string;
  credentials: Credentials;
  settings: ConnectionSettings;
  isDefault: boolean;
}

export interface UpdateConnection {
  name?: string;
  /** Merged into the stored credentials: send only the ones that change. */
  credentials?: Credentials;
  /** Merged into the stored settings; a null value goes back to the default. */
  settings?: ConnectionSettings;
  isDefault?: boolean;
}

/** Per-organization connections to voice providers; the calling engine resolves them here. */
@Injectable()
export class ProviderConnectionService {
  constructor(
    private readonly repository: ProviderConnectionRepository,
    private readonly secrets: SecretBox,
    private readonly destinations: ProviderDestinations,
    private readonly voiceProviders: VoiceProviders = new VoiceProviders(),
    private readonly clock: Clock = new SystemClock(),
    /**
     * Which provider types this installation can reach (their SDKs are optional packages). Optional
     * as `?:`, not `| null`: a union would be emitted as `Object` in the injection metadata.
     */
    @Optional() private readonly clients?: ProviderCallClients,
  ) {}

  /** The credentials a type needs: a built-in type's, or a registered carrier's. */
  private credentialFieldsOf(type: ConnectionType): readonly string[] {
    if (isBuiltInConnectionType(type)) return CREDENTIAL_FIELDS[type];
    return this.voiceProviders.find(type)?.credentialFields ?? [];
  }

  async create(organizationId: string, input: CreateConnection): Promise<ProviderConnection> {
    this.checkPackageInstalled(input.type);
    await this.checkDestination(input.settings.api_base_url);
    const id = randomUUID();
    const hasCredentials = Object.keys(input.credentials).length > 0;
    const stored = await this.repository.create(
      {
        id,
        organizationId,
        type: input.type,
        name: input.name,
        sealedCredentials: hasCredentials ? this.seal(id, input.credentials) : null,
        maskedCredentials: maskCredentials(input.credentials),
        settings: mergeSettings({}, input.settings),
        isDefault: input.isDefault,
      },
      this.clock.now(),
    );
    return publicView(stored);
  }

  async get(organizationId: string, id: string): Promise<ProviderConnection> {
    return publicView(await this.getStored(organizationId, id));
  }

  /**
   * The connection a campaign calls through, as the API shows it (no credential decrypted): the given
   * one, else the organization's default; null when it has none (the simulator applies).
   */
  async findForCampaign(
    organizationId: string,
    id: string | null,
  ): Promise<ProviderConnection | null> {
    const stored = await this.givenOrDefault(organizationId, id);
    return stored ? publicView(stored) : null;
  }

  async list(organizationId: string, offset: number, limit: number) {
    const { items, total } = await this.repository.list(organizationId, offset, limit);
    return { items: items.map(publicView), total };
  }

  async update(
    organizationId: string,
    id: string,
    input: UpdateConnection,
  ): Promise<ProviderConnection> {
    const stored = await this.getStored(organizationId, id);
    if (input.settings && 'api_base_url' in input.settings) {
      const before = effectiveSettings(stored.type, stored.settings).api_base_url;
      const after = effectiveSettings(
        stored.type,
        mergeSettings(stored.settings, input.settings),
      ).api_base_url;
      if (after !== before) {
        requireCredentialsFor(this.credentialFieldsOf(stored.type), input.credentials);
        await this.checkDestination(after);
      }
    }
    const changes: ConnectionChanges = { name: input.name, isDefault: input.isDefault };
    if (input.credentials && Object.keys(input.credentials).length > 0) {
      const credentials = {
        ...this.storedCredentialsToMerge(stored, input.credentials),
        ...input.credentials,
      };
      changes.sealedCredentials = this.seal(id, credentials);
      changes.maskedCredentials = maskCredentials(credentials);
    }
    if (input.settings) changes.settings = mergeSettings(stored.settings, input.settings);
    const updated = await this.repository.update(organizationId, id, changes, this.clock.now());
    if (!updated) throw notFound(id);
    return publicView(updated);
  }

  async delete(organizationId: string, id: string): Promise<void> {
    const deleted = isUuid(id) && (await this.repository.delete(organizationId, id));
    if (!deleted) throw notFound(id);
  }

  /**
   * The connection with its credentials in clear, for an adapter about to call the provider: the
   * given one, else the organization's default; null when it has none (the simulator applies).
   */
  async resolve(organizationId: string, id: string | null): Promise<ResolvedConnection | null> {
    const stored = await this.givenOrDefault(organizationId, id);
    return stored ? this.resolved(stored) : null;
  }

  /**
   * For the provider events route, which has no API key: the connection named in its URL, whoever
   * owns it, so its own secret can check the event's signature. null when there is no such connection.
   */
  async resolveForEvents(id: string): Promise<ResolvedConnection | null> {
    const stored = isUuid(id) ? await this.repository.findById(id) : null;
    return stored ? this.resolved(stored) : null;
  }

  /**
   * A connection whose provider's SDK is not installed could store, but never call: refused on the
   * `type` the client chose, with the package to install named (the client can pick another type).
   */
  private checkPackageInstalled(type: ConnectionType): void {
    const missing = this.clients?.missingPackage(type) ?? null;
    if (missing) {
      const { message } = new PackageMissingError(missing, `connections of type '${type}'`);
      throw new InvalidInputError(message, ['type'], type);
    }
  }

  /** An `api_base_url` receives the connection's credentials: never one the address policy refuses. */
  private async checkDestination(url: unknown): Promise<void> {
    if (typeof url !== 'string') return;
    const refusal = await this.destinations.refusal(url);
    if (refusal !== null) {
      throw new InvalidInputError(`refused: ${refusal}`, ['settings', 'api_base_url'], url);
    }
  }

  private async getStored(organizationId: string, id: string): Promise<StoredConnection> {
    const stored = isUuid(id) ? await this.repository.findById(id) : null;
    if (!stored || stored.organizationId !== organizationId) throw notFound(id);
    return stored;
  }

  /** The given connection (NotFoundError: not the organization's), else the organization's default. */
  private givenOrDefault(organizationId: string, id: string | null) {
    return id ? this.getStored(organizationId, id) : this.repository.findDefault(organizationId);
  }

  private resolved(stored: StoredConnection): ResolvedConnection {
    const { maskedCredentials: _masked, ...connection } = publicView(stored);
    return { ...connection, credentials: this.open(stored) };
  }

  /**
   * What the sent credentials are merged into. When the stored ones cannot be read (SECRETS_KEY was
   * changed), a PATCH that sends every credential of the type replaces them: the way out for an
   * operator who lost the old key.
   */
  private storedCredentialsToMerge(stored: StoredConnection, sent: Credentials): Credentials {
    try {
      return this.open(stored);
    } catch (err) {
      const complete = this.credentialFieldsOf(stored.type).every((field) => field in sent);
      if (err instanceof SecretUnreadableError && complete) return {};
      throw err;
    }
  }

  private seal(id: string, credentials: Credentials) {
    return this.secrets.seal(JSON.stringify(credentials), id);
  }

  private open(stored: StoredConnection): Credentials {
    if (!stored.sealedCredentials) return {};
    return JSON.parse(this.secrets.open(stored.sealedCredentials, stored.id)) as Credentials;
  }
}

/**
 * Moving a connection to another API base URL sends its stored secrets there: whoever moves it must
 * hold them, so every credential of the type comes again in the same request.
 */
function requireCredentialsFor(fields: readonly string[], sent: Credentials | undefined): void {
  const missing = fields.filter((field) => !(sent && field in sent));
  if (missing.length > 0) {
    throw new InvalidInputError(
      `changing settings.api_base_url needs the connection's credentials sent again in the same ` +
        `request: ${missing.join(', ')}`,
      ['credentials'],
      null,
    );
  }
}

function publicView(stored: StoredConnection): ProviderConnection {
  const { sealedCredentials: _sealed, ...connection } = stored;
  return { ...connection, settings: effectiveSettings(stored.type, stored.settings) };
}

function notFound(id: string): NotFoundError {
  return new NotFoundError(`Provider connection ${id} not found`);
}
