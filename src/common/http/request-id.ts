import { randomUUID } from 'crypto';
import type { IncomingMessage, ServerResponse } from 'http';

/** The request as the request-id middleware leaves it. */
export type IdentifiedRequest = IncomingMessage & { id: string };

/** Longer or stranger ids are replaced: a caller's id goes into logs and a response header. */
const ACCEPTED_REQUEST_ID = /^[\x21-\x7e]{1,128}$/;

/**
 * Every request gets an id, echoed as `X-Request-Id`: the caller's own when it sends a sane one (so a
 * proxy's or client's id follows the request through), a new UUID otherwise. It is set here, before
 * any logging, so the response carries it whatever the log level (pino-http reads `req.id`, and is not
 * mounted at all at `LOG_LEVEL=silent`, see campaign-calling.module.ts).
 */
export function assignRequestId(req: IncomingMessage, res: ServerResponse, next: () => void): void {
  const given = req.headers['x-request-id'];
  const id = typeof given === 'string' && ACCEPTED_REQUEST_ID.test(given) ? given : randomUUID();
  (req as IdentifiedRequest).id = id;
  res.setHeader('X-Request-Id', id);
  next();
}
