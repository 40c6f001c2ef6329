import { ArgumentsHost, Catch, ExceptionFilter, HttpException, Logger } from '@nestjs/common';
import { randomUUID } from 'crypto';
import type { Request, Response } from 'express';
import {
  DomainError,
  FieldPath,
  InvalidInputError,
  TooManyAttemptsError,
} from '../errors/domain-errors.js';
import { item, Loc, pydantic, validationBodyJson } from '../validation/pydantic-errors.js';
import { RequestValidationError } from '../validation/request-validation.error.js';
import {
  isDatabaseUnavailable,
  UNAVAILABLE_RETRY_AFTER_SECONDS,
} from '../../database/connection-errors.js';
import { withContentTypeHint } from './json-body.js';
import { RouteTable } from './route-table.js';

const STATUS_TEXT: Record<number, string> = {
  400: 'Bad Request',
  401: 'Not authenticated',
  404: 'Not Found',
  405: 'Method Not Allowed',
  413: 'Request Entity Too Large',
  415: 'Unsupported Media Type',
  429: 'Too Many Requests',
};

/**
 * Every error leaves the service through here, as FastAPI would shape it: 422 `{"detail": [...]}`,
 * everything else `{"detail": "..."}`. Anything unknown is a 500 with an error id in the log.
 */
@Catch()
export class HttpExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger('HttpExceptionFilter');

  constructor(private readonly routes: RouteTable) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const ctx = host.switchToHttp();
    const res = ctx.getResponse<Response>();
    const req = ctx.getRequest<Request>();
    if (res.headersSent) return;
    if (exception instanceof RequestValidationError) {
      const items = withContentTypeHint(exception.items, req.headers['content-type']);
      res.status(422).type('application/json').send(validationBodyJson(items));
      return;
    }
    const { status, body, headers } = this.toResponse(exception, req);
    for (const [k, v] of Object.entries(headers ?? {})) res.setHeader(k, v);
    res.status(status).json(body);
  }

  private toResponse(exception: unknown, req: Request): ErrorResponse {
    if (exception instanceof DomainError) return domainErrorResponse(exception, req);

    const bodyParser = bodyParserError(exception);
    if (bodyParser) return bodyParser;

    if (exception instanceof HttpException) {
      const status = exception.getStatus();
      if (status === 404) {
        const allowed = this.routes.allowedMethods(req.path);
        if (allowed.length > 0 && !allowed.includes(req.method)) {
          return { ...detail(405, 'Method Not Allowed'), headers: { Allow: allowed.join(', ') } };
        }
        return detail(404, 'Not Found');
      }
      // A message the exception was given, else the status's own words.
      const { message } = (exception.getResponse() ?? {}) as { message?: unknown };
      return detail(
        status,
        typeof message === 'string' ? message : (STATUS_TEXT[status] ?? exception.message),
      );
    }

    if (isDatabaseUnavailable(exception)) {
      return {
        ...detail(503, 'Service Unavailable'),
        headers: { 'Retry-After': String(UNAVAILABLE_RETRY_AFTER_SECONDS) },
      };
    }

    const errorId = randomUUID();
    this.logger.error({ err: exception, errorId }, `Unhandled error ${errorId}`);
    return detail(500, `Internal Server Error (error id ${errorId})`);
  }
}

type ErrorResponse = { status: number; body: unknown; headers?: Record<string, string> };

/** One status per domain error code; a code added to `DomainErrorCode` without a case fails to compile. */
function domainErrorResponse(error: DomainError, req: Request): ErrorResponse {
  const code = error.code;
  switch (code) {
    case 'not_found':
      return detail(404, error.message);
    case 'conflict':
      return detail(409, error.message);
    case 'unauthorized':
      return { ...detail(401, error.message), headers: { 'WWW-Authenticate': 'Bearer' } };
    case 'forbidden':
      return detail(403, error.message);
    case 'too_many_attempts':
      return {
        ...detail(429, error.message),
        headers: { 'Retry-After': String((error as TooManyAttemptsError).retryAfterSeconds) },
      };
    // Rarely read (the client is usually gone), but a proxy that buffered the upload passes it on.
    case 'interrupted':
      return detail(400, error.message);
    // The service cannot do this until its operator installs the package; a provider's webhook
    // retried later may succeed.
    case 'package_missing':
      return detail(503, error.message);
    case 'invalid_input': {
      const { field, input } = error as InvalidInputError;
      const problem = item(pydantic.valueError(error.message), httpLoc(field, req), input ?? null);
      return { status: 422, body: { detail: [problem] } };
    }
    default: {
      const unmapped: never = code;
      throw new Error(`Domain error code without an HTTP mapping: ${String(unmapped)}`);
    }
  }
}

/**
 * A domain field path as FastAPI's `loc`: the request part that holds its first segment comes first.
 * A route parameter of that name is `path`, a query key `query`, anything else (including the whole
 * input, `[]`) `body`. Services never name the location; this is the one place that does.
 */
export function httpLoc(field: FieldPath, req: Pick<Request, 'params' | 'query'>): Loc {
  const [first] = field;
  if (typeof first === 'string') {
    if (req.params && Object.hasOwn(req.params, first)) return ['path', ...field];
    if (req.query && typeof req.query === 'object' && Object.hasOwn(req.query, first)) {
      return ['query', ...field];
    }
  }
  return ['body', ...field];
}

function detail(status: number, message: string) {
  return { status, body: { detail: message } };
}

/**
 * body-parser's errors carry a `type` (malformed JSON never gets here: see json-body.ts). Nest's Express
 * adapter hands them on wrapped in an HttpException whose `cause` is body-parser's error.
 */
function bodyParserError(exception: unknown) {
  const raw = exception instanceof HttpException ? exception.cause : exception;
  const e = raw as { type?: string; status?: number; body?: string; message?: string };
  if (!e || typeof e !== 'object' || typeof e.type !== 'string') return null;
  if (e.type === 'entity.too.large') return detail(413, 'Request body too large');
  if (e.type === 'encoding.unsupported' || e.type === 'charset.unsupported')
    return detail(415, e.message ?? 'Unsupported Media Type');
  if (typeof e.status === 'number' && e.status >= 400 && e.status < 500)
    return detail(e.status, e.message ?? 'Bad Request');
  return null;
}
