import { INestApplication } from '@nestjs/common';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { AppConfig } from './config/app-config';

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

/** The OpenAPI document at /openapi.json and Swagger UI at /docs. */
export function buildOpenApiDocument(app: INestApplication, config: AppConfig): OpenAPIObject {
  const builder = new DocumentBuilder()
    .setTitle('Campaign Calling Service')
    .setDescription(
      'Outbound calling campaigns: targets, calls, step data and EHR events, call logs, blacklists and ' +
        'signed webhook notifications. Compatible with the Prosper Voice 1.0.0 campaign API.',
    )
    .setVersion('1.0.0')
    .addServer(config.get('PUBLIC_BASE_URL'))
    .addApiKey({ type: 'apiKey', in: 'header', name: 'X-API-Key' }, 'ApiKey')
    .addBearerAuth({ type: 'http', scheme: 'bearer' }, 'Bearer')
    .addSecurityRequirements('ApiKey')
    .addSecurityRequirements('Bearer');
  const document = SwaggerModule.createDocument(app, builder.build(), {
    operationIdFactory: (controllerKey, methodKey) => `${controllerKey}_${methodKey}`,
  });
  return withErrorResponses(document);
}

/** Every operation documents FastAPI's 422 body and the `{"detail": "..."}` errors it can answer. */
function withErrorResponses(document: OpenAPIObject): OpenAPIObject {
  document.components ??= {};
  document.components.schemas = {
    ...document.components.schemas,
    ValidationError: VALIDATION_ERROR,
    HTTPValidationError: HTTP_VALIDATION_ERROR,
    ErrorDetail: ERROR_DETAIL,
  } as any;
  const detail = (description: string) => ({
    description,
    content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorDetail' } } },
  });
  for (const [path, item] of Object.entries(document.paths)) {
    for (const operation of Object.values(item) as any[]) {
      if (!operation || typeof operation !== 'object' || !operation.responses) continue;
      const isHealth = path === '/api/v1/health';
      operation.responses['422'] ??= {
        description: 'Validation Error',
        content: {
          'application/json': { schema: { $ref: '#/components/schemas/HTTPValidationError' } },
        },
      };
      if (isHealth) {
        operation.security = [];
        operation.responses['503'] ??= detail('Database unavailable');
        continue;
      }
      operation.responses['401'] ??= detail('Missing or invalid API key');
      if (path.includes('{'))
        operation.responses['404'] ??= detail('Not found, or owned by another organization');
    }
  }
  return document;
}

export function setupOpenApi(app: INestApplication, config: AppConfig): void {
  const document = buildOpenApiDocument(app, config);
  SwaggerModule.setup('docs', app, document, {
    jsonDocumentUrl: 'openapi.json',
    swaggerOptions: { persistAuthorization: true },
  });
}
