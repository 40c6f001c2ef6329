/**
 * A provider connection: how one organization reaches one voice provider (its account, its secrets and
 * its settings). Credentials are secrets: stored encrypted, shown only masked.
 */
export const CONNECTION_TYPES = ['simulated', 'http', 'twilio', 'vapi', 'retell'] as const;
/** The types the service itself implements. */
export type BuiltInConnectionType = (typeof CONNECTION_TYPES)[number];
/**
 * A connection's type: a built-in one, or the type of a carrier registered with `voiceProviders`
 * (VoiceProvider), which the service knows only at run time.
 */
export type ConnectionType = string;

export const isBuiltInConnectionType = (type: string): type is BuiltInConnectionType =>
  (CONNECTION_TYPES as readonly string[]).includes(type);

/** Credentials carry the providers' own names; every value is a secret. */
export type Credentials = Record<string, string>;
/** Non-secret settings (numbers, ids, URLs, switches), returned as stored. */
export type ConnectionSettings = Record<string, unknown>;

export interface ProviderConnection {
  id: string;
  organizationId: string;
  type: ConnectionType;
  name: string;
  /** Each credential as `***` plus its last four characters: what the API shows. */
  maskedCredentials: Credentials;
  settings: ConnectionSettings;
  isDefault: boolean;
  createdAt: Date;
  updatedAt: Date;
}

/** A connection with its credentials decrypted: only for the adapters that call the provider. */
export interface ResolvedConnection extends Omit<ProviderConnection, 'maskedCredentials'> {
  credentials: Credentials;
}

/**
 * The settings each built-in type reads when they are not set: where its provider's public API lives
 * (`settings.api_base_url` overrides it: emulators, staging) and Retell's final event.
 */
export const DEFAULT_SETTINGS: Record<BuiltInConnectionType, ConnectionSettings> = {
  simulated: {},
  // The generic adapter posts to the team's own agent: there is no public default.
  http: {},
  twilio: { api_base_url: 'https://api.twilio.com' },
  vapi: { api_base_url: 'https://api.vapi.ai' },
  // The outcome waits for post-call analysis unless the connection says analysis is off.
  retell: { final_event: 'call_analyzed', api_base_url: 'https://api.retellai.com' },
};

/** Retell's outcome is final at `call_analyzed` unless post-call analysis is off. */
export const RETELL_FINAL_EVENTS = ['call_analyzed', 'call_ended'] as const;

/** Twilio's `MachineDetection` values (answering-machine detection runs asynchronously). */
export const TWILIO_MACHINE_DETECTION = ['Enable', 'DetectMessageEnd'] as const;

const SHOWN_CHARACTERS = 4;

/**
 * `***` plus the last four characters, so an operator can tell two keys apart. A value of eight
 * characters or fewer shows nothing of itself: four characters would be half the secret.
 */
export function maskSecret(value: string): string {
  return value.length > 2 * SHOWN_CHARACTERS ? `***${value.slice(-SHOWN_CHARACTERS)}` : '***';
}

export function maskCredentials(credentials: Credentials): Credentials {
  return Object.fromEntries(Object.entries(credentials).map(([k, v]) => [k, maskSecret(v)]));
}

/** The settings as an adapter uses them: the type's defaults (`DEFAULT_SETTINGS`) where unset. */
export function effectiveSettings(
  type: ConnectionType,
  settings: ConnectionSettings,
): ConnectionSettings {
  // A registered carrier's type (VoiceProvider) has no defaults.
  const defaults = isBuiltInConnectionType(type) ? DEFAULT_SETTINGS[type] : {};
  return { ...defaults, ...settings };
}

/**
 * Settings after a partial update: a key sent with null goes back to its default, other keys replace
 * the stored ones.
 */
export function mergeSettings(
  stored: ConnectionSettings,
  changes: ConnectionSettings,
): ConnectionSettings {
  const merged: ConnectionSettings = { ...stored };
  for (const [key, value] of Object.entries(changes)) {
    if (value === null || value === undefined) delete merged[key];
    else merged[key] = value;
  }
  return merged;
}

/** The credentials each type takes (all required), in the providers' own words. */
export const CREDENTIAL_FIELDS: Record<BuiltInConnectionType, readonly string[]> = {
  simulated: [],
  http: ['secret'],
  twilio: ['account_sid', 'auth_token'],
  vapi: ['api_key', 'server_secret'],
  retell: ['api_key'],
};

/** The settings each type takes; which are required is checked by the API's request models. */
export const SETTING_FIELDS: Record<BuiltInConnectionType, readonly string[]> = {
  simulated: [],
  http: ['api_base_url'],
  twilio: [
    'from_number',
    'twiml_url',
    'twiml_template',
    'machine_detection',
    'voicemail_message',
    'messaging_service_sid',
    'help_message',
    'api_base_url',
  ],
  vapi: ['assistant_id', 'phone_number_id', 'voicemail_message', 'api_base_url'],
  retell: ['agent_id', 'from_number', 'final_event', 'voicemail_message', 'api_base_url'],
};
