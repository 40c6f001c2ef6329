import { DateTime } from '../../../../common/http/response-properties.js';
import { applyDecorators } from '@nestjs/common';
import {
  ApiExtraModels,
  ApiProperty,
  type ApiPropertyOptions,
  ApiPropertyOptional,
  getSchemaPath,
} from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ValidateIf, ValidateNested } from 'class-validator';
import {
  item,
  pydantic,
  PydanticErrorItem,
} from '../../../../common/validation/pydantic-errors.js';
import {
  isPlainObject,
  PyBool,
  PyEnum,
  PyInt,
  PyOptional,
  PyRequired,
  PyPhoneNumber,
  PyStr,
  pyConstraint,
  PyValueRule,
  RANK_MISSING,
  RANK_TYPE,
  RANK_VALUE,
} from '../../../../common/validation/py-validators.js';
import {
  CONNECTION_TYPES,
  type BuiltInConnectionType,
  type ConnectionType,
  isBuiltInConnectionType,
  CREDENTIAL_FIELDS,
  RETELL_FINAL_EVENTS,
  SETTING_FIELDS,
  TWILIO_MACHINE_DETECTION,
} from '../../domain/provider-connection.js';
import {
  isStandardWebhooksSecret,
  STANDARD_WEBHOOKS_SECRET_RULE,
} from '../../../../common/signing/standard-webhooks-secret.js';
import { PageEnvelopeResponseDto } from '../../../../common/paging/page-envelope-response.dto.js';

/** An absolute http(s) URL, with pydantic's `HttpUrl` errors. */
function PyHttpUrl(): PropertyDecorator {
  return applyDecorators(
    PyStr({ max: 2000 }),
    pyConstraint('pyHttpUrl', RANK_VALUE, (v) => {
      if (typeof v !== 'string') return null;
      const url = URL.parse(v);
      if (!url) return pydantic.urlParsing('relative URL without a base');
      return url.protocol === 'http:' || url.protocol === 'https:' ? null : pydantic.urlScheme();
    }),
  );
}

function PyPattern(pattern: RegExp): PropertyDecorator {
  return pyConstraint('pyPattern', RANK_VALUE, (v) =>
    typeof v !== 'string' || pattern.test(v)
      ? null
      : pydantic.stringPatternMismatch(pattern.source),
  );
}

/** A secret: a non-empty string. */
const Secret = (docs: ApiPropertyOptions) =>
  applyDecorators(PyRequired(), PyStr({ min: 1, max: 4000 }), ApiProperty(docs));

/** The simulator's credentials and settings (and the model of a type that is not built in). */
class NoFieldsDto {}

export class HttpCredentialsDto {
  @Secret({
    description:
      'Shared secret: signs call requests and checks the agent’s events. A Standard Webhooks secret: `whsec_` followed by base64 (or the base64 alone)',
    example: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
  })
  @PyValueRule('standardWebhooksSecret', (v) =>
    typeof v !== 'string' || v === '' || isStandardWebhooksSecret(v)
      ? null
      : `secret ${STANDARD_WEBHOOKS_SECRET_RULE}`,
  )
  secret: string;
}

export class TwilioCredentialsDto {
  @Secret({ example: 'ACXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX' })
  @PyPattern(/^AC[0-9a-fA-F]{32}$/)
  account_sid: string;

  @Secret({ description: 'Also checks X-Twilio-Signature on status callbacks' })
  auth_token: string;
}

export class VapiCredentialsDto {
  @Secret({ description: 'Private API key' }) api_key: string;
  @Secret({ description: 'Server URL secret, sent by Vapi with every server message' })
  server_secret: string;
}

export class RetellCredentialsDto {
  @Secret({ description: 'API key; also verifies x-retell-signature' }) api_key: string;
}

const ApiBaseUrl = () =>
  applyDecorators(
    ApiPropertyOptional({ description: 'Defaults to the provider’s public API' }),
    PyOptional({ nullable: true }),
    PyHttpUrl(),
  );

/** What the provider's agent says to a voicemail box; placeholders as in `twiml_template`. */
const VoicemailMessage = () =>
  applyDecorators(
    ApiPropertyOptional({
      description:
        'Left on a voicemail box instead of hanging up, with {{patient.field}} and {{input_data.field}} placeholders; ' +
        'the attempt is VOICEMAIL with subcategory DELIVERED, NOT_DELIVERED or NO_MAILBOX',
    }),
    PyOptional({ nullable: true }),
    PyStr({ min: 1, max: 500 }),
  );

export class HttpSettingsDto {
  @PyRequired({ description: 'The voice agent’s URL that receives call requests' })
  @PyHttpUrl()
  api_base_url: string;
}

export class TwilioSettingsDto {
  @PyOptional({ nullable: true, description: 'Caller id; defaults to the campaign’s caller_id' })
  @PyStr()
  @PyPhoneNumber()
  from_number?: string;

  @PyOptional({ nullable: true, description: 'TwiML the call runs; this or twiml_template' })
  @PyHttpUrl()
  twiml_url?: string;

  @PyOptional({
    nullable: true,
    description: 'TwiML with {{patient.field}} and {{input_data.field}} placeholders',
  })
  @PyStr({ min: 1, max: 20000 })
  twiml_template?: string;

  @PyOptional({ nullable: true })
  @PyEnum(TWILIO_MACHINE_DETECTION)
  machine_detection?: string;

  @VoicemailMessage() voicemail_message?: string;

  @PyOptional({
    nullable: true,
    description:
      'Texts go through this Messaging Service instead of from_number (campaign `sms_follow_up`)',
  })
  @PyStr({ min: 1, max: 64 })
  messaging_service_sid?: string;

  @PyOptional({
    nullable: true,
    description: 'The answer texted to a recipient who replies HELP (none when unset)',
  })
  @PyStr({ min: 1, max: 1600 })
  help_message?: string;

  @ApiBaseUrl() api_base_url?: string;
}

export class VapiSettingsDto {
  @PyRequired() @PyStr({ min: 1, max: 200 }) assistant_id: string;
  @PyRequired() @PyStr({ min: 1, max: 200 }) phone_number_id: string;
  @VoicemailMessage() voicemail_message?: string;
  @ApiBaseUrl() api_base_url?: string;
}

export class RetellSettingsDto {
  @PyRequired() @PyStr({ min: 1, max: 200 }) agent_id: string;

  @PyOptional({ nullable: true, description: 'Caller id; defaults to the campaign’s caller_id' })
  @PyStr()
  @PyPhoneNumber()
  from_number?: string;

  @PyOptional({ nullable: true, default: 'call_analyzed' })
  @PyEnum(RETELL_FINAL_EVENTS)
  final_event?: string;

  @VoicemailMessage() voicemail_message?: string;

  @ApiBaseUrl() api_base_url?: string;
}

const CREDENTIALS_MODEL: Record<BuiltInConnectionType, new () => object> = {
  simulated: NoFieldsDto,
  http: HttpCredentialsDto,
  twilio: TwilioCredentialsDto,
  vapi: VapiCredentialsDto,
  retell: RetellCredentialsDto,
};

const SETTINGS_MODEL: Record<BuiltInConnectionType, new () => object> = {
  simulated: NoFieldsDto,
  http: HttpSettingsDto,
  twilio: TwilioSettingsDto,
  vapi: VapiSettingsDto,
  retell: RetellSettingsDto,
};

/** Rules across a type's settings (pydantic's model validators), as "Value error, ..." messages. */
const SETTINGS_RULES: Partial<
  Record<BuiltInConnectionType, (s: Record<string, unknown>) => string | null>
> = {
  twilio: (s) => {
    const url = s.twiml_url !== undefined && s.twiml_url !== null;
    const template = s.twiml_template !== undefined && s.twiml_template !== null;
    if (url && template) return 'give twiml_url or twiml_template, not both';
    if (!url && !template) return 'twiml_url or twiml_template is required';
    const voicemail = s.voicemail_message !== undefined && s.voicemail_message !== null;
    return voicemail && s.machine_detection !== 'DetectMessageEnd'
      ? 'voicemail_message needs machine_detection DetectMessageEnd'
      : null;
  },
};

const isConnectionType = (v: unknown): v is BuiltInConnectionType =>
  typeof v === 'string' && isBuiltInConnectionType(v);

/** Whether bodies of `type` are checked by the request models here (the built-in types are). */
export const hasRequestModels = (type: unknown): boolean => isConnectionType(type);

/**
 * A nested object whose model is chosen by the body's `type` (pydantic's discriminated union): an
 * object, then each field as that type's model says, then the type's rules across fields.
 * `requiredFor`: the types for which the object must be sent (none on PATCH). Keys the type does not
 * take are found on the raw body (`extraKeyErrors`): class-transformer drops some (`constructor`).
 */
function PyModelForType(
  models: Record<BuiltInConnectionType, new () => object>,
  options: { requiredFor: readonly BuiltInConnectionType[]; rules?: typeof SETTINGS_RULES },
): PropertyDecorator {
  const typeOf = (object: unknown) => (object as { type?: unknown }).type;
  return applyDecorators(
    ValidateIf((object, value) => {
      const type = typeOf(object);
      return value !== undefined || (isConnectionType(type) && options.requiredFor.includes(type));
    }),
    pyConstraint('pyRequiredForType', RANK_MISSING, (v) =>
      v === undefined ? pydantic.missing() : null,
    ),
    pyConstraint('pyDict', RANK_TYPE, (v) => (isPlainObject(v) ? null : pydantic.dictType())),
    pyConstraint('pyModelRules', RANK_VALUE, (v, args) => {
      const type = typeOf(args.object);
      if (!isPlainObject(v) || !isConnectionType(type)) return null;
      const rule = options.rules?.[type]?.(v);
      return rule ? pydantic.valueError(rule) : null;
    }),
    ValidateNested(),
    Type((help) => {
      const type = typeOf(help?.object);
      return isConnectionType(type) ? models[type] : NoFieldsDto;
    }),
  );
}

const NEEDS_CREDENTIALS = CONNECTION_TYPES.filter((t) => CREDENTIAL_FIELDS[t].length > 0);
const NEEDS_SETTINGS: readonly BuiltInConnectionType[] = ['http', 'twilio', 'vapi', 'retell'];

/** The per-type models that have fields (the simulator's empty ones add nothing to the schema). */
const modelsOf = (models: Record<BuiltInConnectionType, new () => object>) =>
  [...new Set(Object.values(models))].filter((m) => m !== NoFieldsDto);
// anyOf, not oneOf: which model applies is chosen by `type`, and two models can fit one object
// (Twilio's and Retell's settings both take from_number), which oneOf would reject.
const CREDENTIAL_SCHEMAS = modelsOf(CREDENTIALS_MODEL).map((m) => ({ $ref: getSchemaPath(m) }));
const SETTINGS_SCHEMAS = modelsOf(SETTINGS_MODEL).map((m) => ({ $ref: getSchemaPath(m) }));
const MODELS = [...modelsOf(CREDENTIALS_MODEL), ...modelsOf(SETTINGS_MODEL)];

const credentialsDescription =
  'Secrets, by type: twilio {account_sid, auth_token}; vapi {api_key, server_secret}; retell ' +
  '{api_key}; http {secret}; simulated none. Write-only: read back as "***" plus the last four characters.';
const settingsDescription =
  'By type: twilio {from_number, twiml_url | twiml_template, machine_detection, voicemail_message}; vapi ' +
  '{assistant_id, phone_number_id, voicemail_message}; retell {agent_id, from_number, final_event, ' +
  'voicemail_message}; http ' +
  '{api_base_url (required)}; every provider also api_base_url (default: its public API).';

@ApiExtraModels(...MODELS)
export class CreateProviderConnectionDto {
  @PyRequired({ example: 'twilio' })
  @PyEnum(CONNECTION_TYPES)
  type: BuiltInConnectionType;

  @PyRequired({ example: 'Twilio production' })
  @PyStr({ min: 1, max: 200 })
  name: string;

  @ApiPropertyOptional({ description: credentialsDescription, anyOf: CREDENTIAL_SCHEMAS })
  @PyModelForType(CREDENTIALS_MODEL, { requiredFor: NEEDS_CREDENTIALS })
  credentials?: Record<string, string>;

  @ApiPropertyOptional({ description: settingsDescription, anyOf: SETTINGS_SCHEMAS })
  @PyModelForType(SETTINGS_MODEL, { requiredFor: NEEDS_SETTINGS, rules: SETTINGS_RULES })
  settings?: Record<string, unknown>;

  @PyOptional({ default: false, description: 'Used by campaigns that name no connection' })
  @PyBool()
  is_default: boolean = false;
}

/**
 * PATCH: every field optional; `credentials` and `settings` are merged into the stored ones (a setting
 * sent as null goes back to its default). The type cannot change. The controller validates the result
 * with the connection's type (`type` is set from the stored connection, never from the body).
 */
@ApiExtraModels(...MODELS)
export class UpdateProviderConnectionDto {
  type: BuiltInConnectionType;

  @PyOptional()
  @PyStr({ min: 1, max: 200 })
  name?: string;

  @ApiPropertyOptional({
    description: `${credentialsDescription} Only those sent change.`,
    anyOf: CREDENTIAL_SCHEMAS,
  })
  @PyModelForType(CREDENTIALS_MODEL, { requiredFor: [] })
  credentials?: Record<string, string>;

  @ApiPropertyOptional({
    description: `${settingsDescription} Merged; null resets one.`,
    anyOf: SETTINGS_SCHEMAS,
  })
  @PyModelForType(SETTINGS_MODEL, { requiredFor: [], rules: SETTINGS_RULES })
  settings?: Record<string, unknown>;

  @PyOptional()
  @PyBool()
  is_default?: boolean;
}

export class ListProviderConnectionsQueryDto {
  @PyOptional({ default: 0 }) @PyInt({ ge: 0 }) page: number = 0;
  @PyOptional({ default: 50 }) @PyInt({ ge: 1, le: 100 }) limit: number = 50;
}

/**
 * `extra_forbidden` for each key of a raw `credentials` / `settings` object that is not `allowed`:
 * a secret typed into the wrong place would otherwise be stored in the clear, or silently dropped.
 */
export function extraKeys(
  value: unknown,
  allowed: readonly string[],
  field: 'credentials' | 'settings',
): PydanticErrorItem[] {
  if (!isPlainObject(value)) return [];
  return Object.keys(value)
    .filter((key) => !allowed.includes(key))
    .map((key) => item(pydantic.extraForbidden(), ['body', field, key], value[key]));
}

/** `extraKeys` of a built-in type's `credentials` and `settings`. */
export function extraKeyErrors(raw: Record<string, unknown>, type: unknown): PydanticErrorItem[] {
  if (!isConnectionType(type)) return [];
  return [
    ...extraKeys(raw.credentials, CREDENTIAL_FIELDS[type], 'credentials'),
    ...extraKeys(raw.settings, SETTING_FIELDS[type], 'settings'),
  ];
}

/** Only the keys the type takes. */
export function knownKeys<T>(
  value: Record<string, T>,
  type: ConnectionType,
  field: 'credentials' | 'settings',
): Record<string, T> {
  // A type no longer registered (its carrier removed from `voiceProviders`) takes no keys.
  if (!isBuiltInConnectionType(type)) return {};
  const allowed = field === 'credentials' ? CREDENTIAL_FIELDS[type] : SETTING_FIELDS[type];
  return Object.fromEntries(Object.entries(value).filter(([k]) => allowed.includes(k)));
}

export class ProviderConnectionResponseDto {
  @ApiProperty({ type: 'string', format: 'uuid' }) id: string;
  @ApiProperty({ type: 'string', format: 'uuid' }) organization_id: string;
  @ApiProperty({ enum: CONNECTION_TYPES, example: 'twilio' }) type: ConnectionType;
  @ApiProperty({ type: 'string', example: 'Twilio production' }) name: string;
  @ApiProperty({
    type: 'object',
    additionalProperties: { type: 'string' },
    description: 'Never returned in clear: "***" and the last four characters of each',
    example: { account_sid: '***cdef', auth_token: '***9f3a' },
  })
  credentials: Record<string, string>;
  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description: 'As stored, with api_base_url filled in',
    example: { api_base_url: 'https://api.twilio.com', from_number: '+15550100000' },
  })
  settings: Record<string, unknown>;
  @ApiProperty({ type: 'boolean' }) is_default: boolean;
  @ApiProperty({
    type: 'string',
    description: "Where the provider posts this connection's call events",
    example: '/api/v1/telephony/3f2b8c1e-7a4d-4e5f-9b6a-1c2d3e4f5a6b/events',
  })
  events_url_path: string;
  @DateTime() created_at: string;
  @DateTime() updated_at: string;
}

export class ProviderConnectionPageResponseDto extends PageEnvelopeResponseDto {
  @ApiProperty({ type: [ProviderConnectionResponseDto] })
  provider_connections: ProviderConnectionResponseDto[];
}
