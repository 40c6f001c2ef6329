import { INestApplication } from '@nestjs/common';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { CALL_CATEGORY_ENUMS, SUBCATEGORY_ENUMS } from './modules/target/api/dto/outcome-enums.js';

const VALIDATION_ERROR = {
  type: 'object',
  title: 'ValidationError',
  required: ['loc', 'msg', 'type'],
  properties: {
    loc: {
      type: 'array',
      title: 'Location',
      items: { anyOf: [{ type: 'string' }, { type: 'integer' }] },
    },
    msg: { type: 'string', title: 'Message' },
    type: { type: 'string', title: 'Error Type' },
    input: { title: 'Input' },
    ctx: { type: 'object', title: 'Context' },
  },
};
const HTTP_VALIDATION_ERROR = {
  type: 'object',
  title: 'HTTPValidationError',
  properties: {
    detail: {
      type: 'array',
      title: 'Detail',
      items: { $ref: '#/components/schemas/ValidationError' },
    },
  },
};
const ERROR_DETAIL = {
  type: 'object',
  title: 'ErrorDetail',
  required: ['detail'],
  properties: { detail: { type: 'string' } },
};

const TAGS: Record<string, string> = {
  campaigns: 'Calling campaigns: type, calling window, retry policy, steps, webhook URL',
  targets: "A campaign's targets: add, list, read, edit input data, delete",
  calls: 'Schedule calls for Pending targets',
  steps: 'Inbound data for targets: webhook steps (one or a batch) and EHR events',
  'call-logs': 'The record of every call placed',
  messages: "Texts to and from a target: the campaign's SMS follow-ups and the replies",
  telephony:
    'Call events posted by voice providers (no API key: each provider signs its own requests)',
  webhooks: 'Signed notifications to the campaign webhook URL: deliveries, reruns, secret rotation',
  'provider-connections':
    'How an organization reaches its voice providers (simulator, own agent, Twilio, Vapi, Retell); credentials encrypted at rest and never returned',
  blacklists: 'Numbers never to dial',
  compliance:
    "Calling rules: the organization's policy (quiet hours in the recipient's zones, state rules, caps per number, restricted dates), its do-not-call list and every decision they made; the retention policy, its purges and their records",
  patients: "One person's record across every campaign (right of access) and its erasure",
  'api-keys': 'API keys of the organization, for systems: role, campaigns, expiry',
  users: 'People who sign in to the console: invitations, roles, campaigns, deactivation',
  sessions:
    'Signing in with email and password (a session cookie with CSRF token), signing out, who you are',
  audit:
    'The audit trail (admins): who read which patient and who changed what, hash-chained per organization',
  health: 'Liveness of the API and its database',
};

const API_KEY_DESCRIPTION =
  'An API key of your organization (created with `npm run cli -- apikey:create`, shown once). ' +
  'It is an opaque random string, not a JWT.';

/** The OpenAPI document at /openapi.json and Swagger UI at /docs. */
export function buildOpenApiDocument(app: INestApplication): OpenAPIObject {
  const builder = new DocumentBuilder()
    .setTitle('Campaign Calling Service')
    .setDescription(
      'Outbound calling campaigns: targets, calls, step data and EHR events, call logs, blacklists and ' +
        'signed webhook notifications. Compatible with the Prosper Voice 1.0.0 campaign API. Errors are ' +
        'FastAPI-shaped: 422 `{"detail": [{"type", "loc", "msg", "input", "ctx"}]}`, others `{"detail": "..."}`.',
    )
    .setVersion('1.0.0')
    .setLicense('MIT', 'https://opensource.org/licenses/MIT')
    .addServer('/', 'This deployment')
    .addApiKey(
      { type: 'apiKey', in: 'header', name: 'X-API-Key', description: API_KEY_DESCRIPTION },
      'ApiKey',
    )
    .addBearerAuth(
      {
        type: 'http',
        scheme: 'bearer',
        bearerFormat: 'API key',
        description: `The same API key as an \`Authorization: Bearer <key>\` header. ${API_KEY_DESCRIPTION}`,
      },
      'Bearer',
    )
    .addSecurityRequirements('ApiKey')
    .addSecurityRequirements('Bearer');
  for (const [name, description] of Object.entries(TAGS)) builder.addTag(name, description);
  const document = SwaggerModule.createDocument(app, builder.build(), {
    operationIdFactory: (controllerKey, methodKey) => `${controllerKey}_${methodKey}`,
  });
  document.info.contact = { name: 'Campaign Calling Service maintainers' };
  withNullableTyped(document.components?.schemas ?? {});
  return withErrorResponses(document);
}

/** `null` in OpenAPI 3.0, as a branch of a union. */
const NULL_ONLY = { type: 'object', nullable: true, enum: [null] };

/**
 * OpenAPI 3.0 reads `nullable` only beside a `type`, and not through a `$ref`. A nullable union
 * (`oneOf: [string, Model]`) gets it on its first typed branch; a nullable model (`allOf: [Model]`,
 * how @nestjs/swagger writes it) becomes `anyOf: [Model, null]`. So `null` stays valid for validators
 * and generators alike.
 */
function withNullableTyped(node: unknown): void {
  if (Array.isArray(node)) {
    node.forEach(withNullableTyped);
    return;
  }
  if (typeof node !== 'object' || node === null) return;
  const schema = node as Record<string, any>;
  if (schema.nullable === true && Array.isArray(schema.allOf) && schema.allOf.length === 1) {
    schema.anyOf = [schema.allOf[0], NULL_ONLY];
    delete schema.allOf;
    delete schema.nullable;
    delete schema.type;
  }
  // A nullable enum lists null among its values (OpenAPI 3.0.3), or validators refuse it.
  if (schema.nullable === true && Array.isArray(schema.enum) && !schema.enum.includes(null)) {
    schema.enum = [...schema.enum, null];
  }
  const variants: any[] | undefined = schema.oneOf ?? schema.anyOf;
  if (schema.nullable === true && schema.type === undefined && Array.isArray(variants)) {
    const typed = variants.find((v) => typeof v?.type === 'string');
    if (typed) {
      typed.nullable = true;
      delete schema.nullable;
    }
  }
  Object.values(schema).forEach(withNullableTyped);
}

/** The spec's category and subcategory enums, referenced by the Target schema. */
function outcomeEnumSchemas(): Record<string, object> {
  return Object.fromEntries(
    Object.entries({ ...CALL_CATEGORY_ENUMS, ...SUBCATEGORY_ENUMS }).map(([name, values]) => [
      name,
      { type: 'string', title: name, enum: [...values] },
    ]),
  );
}

const HEALTH_PATH = '/api/v1/health';
const json = (ref: string) => ({
  'application/json': { schema: { $ref: `#/components/schemas/${ref}` } },
});

/**
 * Every operation documents FastAPI's 422 body and the `{"detail": "..."}` errors it can answer, each
 * with its schema; health, which needs no key, documents its own bodies.
 */
function withErrorResponses(document: OpenAPIObject): OpenAPIObject {
  document.components ??= {};
  document.components.schemas = {
    ...document.components.schemas,
    ValidationError: VALIDATION_ERROR,
    HTTPValidationError: HTTP_VALIDATION_ERROR,
    ErrorDetail: ERROR_DETAIL,
    ...outcomeEnumSchemas(),
  } as any;
  const detail = (description: string) => ({ description, content: json('ErrorDetail') });
  for (const [path, item] of Object.entries(document.paths)) {
    for (const operation of Object.values(item) as any[]) {
      if (!operation || typeof operation !== 'object' || !operation.responses) continue;
      const responses = operation.responses;
      // Providers authenticate their events with their own signatures, not an API key.
      if (path.startsWith('/api/v1/telephony/')) operation.security = [];
      if (path === HEALTH_PATH) {
        operation.security = [];
        operation.description ??=
          'No API key needed. 200 while the database answers, 503 when not.';
        responses['200'] = {
          description: 'The API and its database answer',
          content: {
            'application/json': {
              schema: {
                type: 'object',
                required: ['status'],
                properties: { status: { type: 'string', enum: ['ok'] } },
              },
            },
          },
        };
        responses['503'] = detail('The database does not answer');
        continue;
      }
      responses['422'] = {
        description: responses['422']?.description ?? 'Validation Error',
        content: json('HTTPValidationError'),
      };
      responses['401'] ??= { description: 'Missing or invalid API key' };
      if (!path.startsWith('/api/v1/telephony/')) {
        responses['403'] ??= {
          description:
            "The key's role may not call this operation, or it reaches beyond the key's campaigns",
        };
      }
      if (path.includes('{')) {
        responses['404'] ??= { description: 'Not found, or owned by another organization' };
      }
      for (const [status, response] of Object.entries<any>(responses)) {
        if (Number(status) >= 400 && status !== '422') {
          response.content = json('ErrorDetail');
        }
      }
    }
  }
  return document;
}

export function setupOpenApi(app: INestApplication): void {
  // Built on the first request for it, not at start: scanning every controller is about a tenth of a
  // cold start (see docs/architecture.md, "Cold start").
  SwaggerModule.setup('docs', app, () => buildOpenApiDocument(app), {
    jsonDocumentUrl: 'openapi.json',
    swaggerOptions: { persistAuthorization: true },
  });
}

/** The document as committed (openapi.json) and served: stable key order, two-space indent. */
export function openApiJson(document: OpenAPIObject): string {
  return `${JSON.stringify(document, null, 2)}\n`;
}
