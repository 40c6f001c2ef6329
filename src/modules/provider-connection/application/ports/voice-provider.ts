import type { CallProvider } from '../../../telephony/application/ports/call-provider.js';
import {
  type BuiltInConnectionType,
  CONNECTION_TYPES,
  type ConnectionSettings,
  CREDENTIAL_FIELDS,
  type ResolvedConnection,
  SETTING_FIELDS,
} from '../../domain/provider-connection.js';

/** What is wrong with one setting, in the provider's words (a 422 item at `settings.<field>`). */
export interface SettingProblem {
  field: string;
  message: string;
}

/**
 * A connection type: what `POST /api/v1/provider-connections` takes for it, and the `CallProvider` a
 * connection of it places its calls and reads its events with. The built-in types (the simulator,
 * the HTTP agent protocol, Twilio, Vapi, Retell) are `VoiceProvider`s registered in `VoiceProviders`
 * as a team's own carrier is, with `CampaignCallingModule.forRoot({ voiceProviders: [...] })`: then
 * the API takes `type: <its type>`, its credentials sealed as the others' are, and the calls of
 * campaigns using such a connection (and the events posted to its events route) go through
 * `connect`'s provider.
 */
export abstract class VoiceProvider {
  /** The connection `type`: lowercase letters, digits, `-` and `_`, not one of the built-in types. */
  abstract readonly type: string;
  /** The credentials a connection of this type needs, all required, all secrets (stored sealed). */
  abstract readonly credentialFields: readonly string[];
  /** The settings it takes (any other key is refused); `api_base_url` is held to PROVIDER_ALLOW_PRIVATE. */
  abstract readonly settingFields: readonly string[];
  /**
   * What is wrong with the settings (on PATCH, as they will be once merged); empty when they are
   * right. Each problem answers 422 at `body.settings.<field>`.
   */
  abstract checkSettings(settings: ConnectionSettings): SettingProblem[];
  /** The provider a connection places its calls and reads its events with (`name`: the connection id). */
  abstract connect(connection: ResolvedConnection): CallProvider;
}

/**
 * A built-in type: its credentials and settings are the type's rows in the connection tables, and
 * it has nothing more to say of settings, since the API checks a built-in type's settings with its
 * request models (`provider-connection.dto.ts`: pydantic's errors, the OpenAPI schema) before the
 * connection exists. What is left to a built-in is its `type` and `connect`, as for a team's.
 */
export abstract class BuiltInVoiceProvider extends VoiceProvider {
  abstract override readonly type: BuiltInConnectionType;

  get credentialFields(): readonly string[] {
    return CREDENTIAL_FIELDS[this.type];
  }

  get settingFields(): readonly string[] {
    return SETTING_FIELDS[this.type];
  }

  checkSettings(): SettingProblem[] {
    return [];
  }
}

const TYPE_NAME = /^[a-z][a-z0-9_-]{0,39}$/;

/**
 * The registered providers, by connection type: the built-in ones, then a team's. Which provider a
 * connection's calls go through is this registry's answer for its type, for every type alike; only
 * the built-in ones may take the built-in types' names.
 */
export class VoiceProviders {
  private readonly byType = new Map<string, VoiceProvider>();

  constructor(providers: readonly VoiceProvider[] = [], builtIns: readonly VoiceProvider[] = []) {
    for (const provider of builtIns) this.register(provider, true);
    for (const provider of providers) this.register(provider, false);
  }

  private register(provider: VoiceProvider, builtIn: boolean): void {
    const type = provider.type;
    const builtInType = (CONNECTION_TYPES as readonly string[]).includes(type);
    if (!TYPE_NAME.test(type) || builtInType !== builtIn) {
      throw new Error(
        builtIn
          ? `voiceProviders: ${JSON.stringify(type)} is not a built-in connection type`
          : `voiceProviders: ${JSON.stringify(type)} cannot be a connection type (a built-in one, or ` +
              `not lowercase letters, digits, - and _)`,
      );
    }
    if (this.byType.has(type)) throw new Error(`voiceProviders: ${type} is registered twice`);
    this.byType.set(type, provider);
  }

  /** The provider registered for `type`; null for a type nobody registered. */
  find(type: unknown): VoiceProvider | null {
    return typeof type === 'string' ? (this.byType.get(type) ?? null) : null;
  }

  /** The registered types, built-in ones first. */
  types(): string[] {
    return [...this.byType.keys()];
  }
}
