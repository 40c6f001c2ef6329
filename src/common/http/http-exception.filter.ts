import { ArgumentsHost, Catch, ExceptionFilter, HttpException, Logger } from '@nestjs/common';
import { randomUUID } from 'crypto';
import type { Request, Response } from 'express';
import {
  ConflictError,
  DomainError,
  InvalidInputError,
  NotFoundError,
  UnauthorizedError,
} from '../errors/domain-errors';
import { item, pydantic } from '../validation/pydantic-errors';
import { RequestValidationError } from '../validation/request-validation.error';
import { RouteTable } from './route-table';

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
    const { status, body, headers } = this.toResponse(exception, req);
    for (const [k, v] of Object.entries(headers ?? {})) res.setHeader(k, v);
    res.status(status).json(body);
  }

  private toResponse(
    exception: unknown,
    req: Request,
  ): { status: number; body: unknown; headers?: Record<string, string> } {
    if (exception instanceof RequestValidationError) {
      return { status: 422, body: { detail: exception.items } };
    }
    if (exception instanceof InvalidInputError) {
      return {
        status: 422,
        body: {
          detail: [
            item(pydantic.valueError(exception.message), exception.loc, exception.input ?? null),
          ],
        },
      };
    }
    if (exception instanceof NotFoundError) return detail(404, exception.message);
    if (exception instanceof ConflictError) return detail(409, exception.message);
    if (exception instanceof UnauthorizedError) {
      return { ...detail(401, exception.message), headers: { 'WWW-Authenticate': 'Bearer' } };
    }
    if (exception instanceof DomainError) return detail(400, exception.message);

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
      const response = exception.getResponse();
      const message =
        typeof response === 'object' &&
        response &&
        'message' in response &&
        typeof response.message === 'string'
          ? response.message
          : (STATUS_TEXT[status] ?? exception.message);
      return detail(status, message);
    }

    const errorId = randomUUID();
    this.logger.error({ err: exception, errorId }, `Unhandled error ${errorId}`);
    return detail(500, `Internal Server Error (error id ${errorId})`);
  }
}

function detail(status: number, message: string) {
  return { status, body: { detail: message } };
}

/** body-parser's errors carry a `type` (malformed JSON never gets here: see json-parse-error.ts). */
function bodyParserError(exception: unknown) {
  const e = exception as { type?: string; status?: number; body?: string; message?: string };
  if (!e || typeof e !== 'object' || typeof e.type !== 'string') return null;
  if (e.type === 'entity.too.large') return detail(413, 'Request body too large');
  if (e.type === 'encoding.unsupported' || e.type === 'charset.unsupported')
    return detail(415, e.message ?? 'Unsupported Media Type');
  if (typeof e.status === 'number' && e.status >= 400 && e.status < 500)
    return detail(e.status, e.message ?? 'Bad Request');
  return null;
}
