import { Operation } from '../../../common/http/api-operation.js';
import { Audit, NotAudited, answerField } from '../../../common/audit/audit.decorators.js';
import { Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import {
  ApiBody,
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiTags,
} from '@nestjs/swagger';
import { plainToInstance } from 'class-transformer';
import { validate } from 'class-validator';
import {
  Auth,
  type AuthContext,
  RequiresPermission,
} from '../../../common/http/auth.decorators.js';
import { offsetOf, pageEnvelope } from '../../../common/paging/paging.js';
import { toItems } from '../../../common/validation/pydantic-validation.pipe.js';
import { RequestValidationError } from '../../../common/validation/request-validation.error.js';
import { withoutUnsafeKeys } from '../../../common/validation/transform-safe.js';
import { ProviderConnectionService } from '../application/provider-connection.service.js';
import { item, pydantic, PydanticErrorItem } from '../../../common/validation/pydantic-errors.js';
import { VoiceProvider, VoiceProviders } from '../application/ports/voice-provider.js';
import { isPlainObject } from '../../../common/validation/py-validators.js';
import { mergeSettings } from '../domain/provider-connection.js';
import {
  CreateProviderConnectionDto,
  extraKeyErrors,
  extraKeys,
  hasRequestModels,
  knownKeys,
  ListProviderConnectionsQueryDto,
  ProviderConnectionPageResponseDto,
  ProviderConnectionResponseDto,
  UpdateProviderConnectionDto,
} from './dto/provider-connection.dto.js';
import { JsonObjectBody } from './json-object-body.decorator.js';
import { maskCredentialInputs, presentConnection } from './provider-connection.presenter.js';

/**
 * How an organization reaches its voice providers. Bodies are validated here rather than by the
 * global pipe: the models depend on the connection's type (the stored one on PATCH), and a 422 must
 * not echo the credentials it was sent.
 */
@ApiTags('provider-connections')
@Controller('api/v1/provider-connections')
export class ProviderConnectionController {
  constructor(
    private readonly connections: ProviderConnectionService,
    private readonly carriers: VoiceProviders,
  ) {}

  @RequiresPermission('provider_connections.write')
  @Audit({
    action: 'provider_connection.create',
    resource: 'provider_connection',
    id: answerField('id'),
  })
  @Post()
  @HttpCode(201)
  @Operation(
    'create_provider_connection_api_v1_provider_connections_post',
    'Create a provider connection',
    'Credentials are encrypted at rest and never returned. 409 when the service has no ' +
      'SECRETS_KEY to encrypt them with, or when the name is taken.',
  )
  @ApiBody({ type: CreateProviderConnectionDto })
  @ApiCreatedResponse({ type: ProviderConnectionResponseDto })
  @ApiConflictResponse({
    description: 'The name is taken, or there is no SECRETS_KEY to encrypt the credentials with',
  })
  async create(@Auth() auth: AuthContext, @JsonObjectBody() raw: Record<string, unknown>) {
    const carrier = this.checkedByItsFields(raw.type);
    const body = carrier
      ? await validateCarrierBody(carrier, CreateProviderConnectionDto, raw, raw)
      : await validateBody(CreateProviderConnectionDto, raw);
    // A registered carrier's type and fields as sent (checked by its own fields); a built-in type's
    // with only the keys it takes.
    const created = await this.connections.create(auth.organizationId, {
      type: carrier?.type ?? body.type,
      name: body.name,
      credentials: carrier
        ? (raw.credentials as Record<string, string>)
        : knownKeys({ ...body.credentials }, body.type, 'credentials'),
      settings: carrier
        ? ((raw.settings ?? {}) as Record<string, unknown>)
        : knownKeys({ ...body.settings }, body.type, 'settings'),
      isDefault: body.is_default,
    });
    return presentConnection(created);
  }

  @RequiresPermission('provider_connections.read')
  @NotAudited()
  @Get()
  @Operation(
    'list_provider_connections_api_v1_provider_connections_get',
    'List provider connections',
    'Oldest first, credentials masked.',
  )
  @ApiOkResponse({ type: ProviderConnectionPageResponseDto })
  async list(@Auth() auth: AuthContext, @Query() query: ListProviderConnectionsQueryDto) {
    const { items, total } = await this.connections.list(
      auth.organizationId,
      offsetOf(query),
      query.limit,
    );
    return { provider_connections: items.map(presentConnection), ...pageEnvelope(query, total) };
  }

  @RequiresPermission('provider_connections.read')
  @NotAudited()
  @Get(':connection_id')
  @Operation(
    'get_provider_connection_api_v1_provider_connections__connection_id__get',
    'Get a provider connection',
    'Credentials masked: "***" and their last four characters.',
  )
  @ApiOkResponse({ type: ProviderConnectionResponseDto })
  async get(@Auth() auth: AuthContext, @Param('connection_id') id: string) {
    return presentConnection(await this.connections.get(auth.organizationId, id));
  }

  @RequiresPermission('provider_connections.write')
  @Audit({
    action: 'provider_connection.update',
    resource: 'provider_connection',
    id: (req) => req.params.connection_id,
  })
  @Patch(':connection_id')
  @Operation(
    'update_provider_connection_api_v1_provider_connections__connection_id__patch',
    'Update a provider connection',
    'Send only what changes: credentials and settings are merged into the stored ones (a ' +
      'setting sent as null goes back to its default). The type cannot change.',
  )
  @ApiBody({ type: UpdateProviderConnectionDto })
  @ApiOkResponse({ type: ProviderConnectionResponseDto })
  @ApiConflictResponse({
    description:
      'The name is taken; no SECRETS_KEY; or the stored credentials cannot be read with it ' +
      '(send every credential of the type to replace them)',
  })
  async update(
    @Auth() auth: AuthContext,
    @Param('connection_id') id: string,
    @JsonObjectBody() raw: Record<string, unknown>,
  ) {
    const existing = await this.connections.get(auth.organizationId, id);
    // Checked as the connection will be after the change, with its stored type's models. Sent
    // credentials are checked alone: the stored ones are complete, so none can be missing.
    const candidate: Record<string, unknown> = { ...raw, type: existing.type };
    if (isPlainObject(raw.settings)) {
      candidate.settings = mergeSettings(existing.settings, raw.settings);
    }
    const carrier = this.checkedByItsFields(existing.type);
    const body = carrier
      ? await validateCarrierBody(carrier, UpdateProviderConnectionDto, raw, candidate)
      : await validateBody(
          UpdateProviderConnectionDto,
          candidate,
          (item) =>
            !(item.type === 'missing' && item.loc[1] === 'credentials' && item.loc.length === 3),
        );
    // As on create: a carrier's fields as sent, a built-in type's keys it takes.
    const taken = <T>(value: Record<string, T>, field: 'credentials' | 'settings') =>
      carrier ? value : knownKeys(value, existing.type, field);
    const updated = await this.connections.update(auth.organizationId, id, {
      name: body.name,
      credentials: isPlainObject(raw.credentials)
        ? taken(raw.credentials as Record<string, string>, 'credentials')
        : undefined,
      settings: isPlainObject(raw.settings) ? taken(raw.settings, 'settings') : undefined,
      isDefault: body.is_default,
    });
    return presentConnection(updated);
  }

  /**
   * The registered provider of `type` when the API checks a body of that type by the provider's own
   * fields and `checkSettings` (a team's carrier); null for a type the API's request models check
   * (the built-in ones, with pydantic's errors and their OpenAPI schema) and for an unknown type
   * (refused by the models' `type` enum).
   */
  private checkedByItsFields(type: unknown): VoiceProvider | null {
    return hasRequestModels(type) ? null : this.carriers.find(type);
  }

  @RequiresPermission('provider_connections.write')
  @Audit({
    action: 'provider_connection.delete',
    resource: 'provider_connection',
    id: (req) => req.params.connection_id,
  })
  @Delete(':connection_id')
  @HttpCode(204)
  @Operation(
    'delete_provider_connection_api_v1_provider_connections__connection_id__delete',
    'Delete a provider connection',
    "Refused (409) while a campaign's provider_connection_id names it.",
  )
  @ApiNoContentResponse({ description: 'Deleted' })
  @ApiConflictResponse({ description: "A campaign's provider_connection_id names it" })
  async delete(@Auth() auth: AuthContext, @Param('connection_id') id: string): Promise<void> {
    await this.connections.delete(auth.organizationId, id);
  }
}

/** Errors in the order of the body's fields, as pydantic reports them. */
const FIELD_ORDER: unknown[] = ['type', 'name', 'credentials', 'settings', 'is_default'];

/**
 * Validates `raw` with `model` as the global pipe would (same 422 items), keeping the errors `keep`
 * accepts, with `more` of the caller's, credentials masked in every echoed input (`sent`: the body
 * as the client sent it, when `raw` stands in for it).
 */
async function validateBody<T extends object>(
  model: new () => T,
  raw: Record<string, unknown>,
  keep: (item: PydanticErrorItem) => boolean = () => true,
  more: PydanticErrorItem[] = [],
  sent: Record<string, unknown> = raw,
): Promise<T> {
  // Without `constructor`/`__proto__` keys, which class-transformer trips over (see transform-safe).
  const instance = plainToInstance(model, withoutUnsafeKeys(raw) as Record<string, unknown>);
  const errors = await validate(instance, { forbidUnknownValues: false });
  const items = [...toItems(errors, ['body'], sent), ...extraKeyErrors(raw, raw.type), ...more]
    .filter(keep)
    .sort((a, b) => FIELD_ORDER.indexOf(a.loc[1]) - FIELD_ORDER.indexOf(b.loc[1]));
  if (items.length > 0) throw new RequestValidationError(maskCredentialInputs(items, sent));
  return instance;
}

/**
 * A registered carrier's connection (VoiceProvider): `name` and `is_default` checked by the models,
 * `credentials` and `settings` by the carrier's fields and its `checkSettings`; `candidate` is the
 * connection as it will be (on PATCH, the stored settings merged with the sent ones).
 */
async function validateCarrierBody<T extends object>(
  carrier: VoiceProvider,
  model: new () => T,
  raw: Record<string, unknown>,
  candidate: Record<string, unknown>,
): Promise<T> {
  const creating = candidate === raw;
  const items: PydanticErrorItem[] = [];
  const credentials = raw.credentials;
  if (credentials === undefined) {
    if (creating && carrier.credentialFields.length > 0) {
      items.push(item(pydantic.missing(), ['body', 'credentials'], raw));
    }
  } else if (!isPlainObject(credentials)) {
    items.push(item(pydantic.dictType(), ['body', 'credentials'], credentials));
  } else {
    for (const field of carrier.credentialFields) {
      const value = credentials[field];
      if (value === undefined && creating) {
        items.push(item(pydantic.missing(), ['body', 'credentials', field], credentials));
      } else if (value !== undefined && (typeof value !== 'string' || value === '')) {
        items.push(item(pydantic.stringType(), ['body', 'credentials', field], value));
      }
    }
    items.push(...extraKeys(credentials, carrier.credentialFields, 'credentials'));
  }
  const settings = raw.settings;
  if (settings !== undefined && !isPlainObject(settings)) {
    items.push(item(pydantic.dictType(), ['body', 'settings'], settings));
  } else if (creating || settings !== undefined) {
    const extra = extraKeys(settings, carrier.settingFields, 'settings');
    items.push(...extra);
    const merged = (candidate.settings ?? {}) as Record<string, unknown>;
    if (extra.length === 0) {
      for (const problem of carrier.checkSettings(merged)) {
        items.push(
          item(
            pydantic.valueError(problem.message),
            ['body', 'settings', problem.field],
            merged[problem.field],
          ),
        );
      }
    }
  }
  // The carrier's type stands in for a built-in one without credentials or settings of its own.
  const common = { ...candidate, type: 'simulated', credentials: undefined, settings: undefined };
  return validateBody(model, common, () => true, items, raw);
}
