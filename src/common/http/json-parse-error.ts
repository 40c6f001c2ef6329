import { item, pydantic } from '../validation/pydantic-errors';
import { RequestValidationError } from '../validation/request-validation.error';

/**
 * body-parser's "entity.parse.failed" as FastAPI's 422 `json_invalid`, located at the character where
 * parsing stopped: `["body", <position>]`. Other errors pass through unchanged.
 */
export function jsonParseErrorToValidationError(err: unknown): unknown {
  const e = err as { type?: string; message?: string; body?: string };
  if (!e || e.type !== 'entity.parse.failed') return err;
  const message = e.message ?? 'Invalid JSON';
  const position = /position (\d+)/.exec(message)?.[1];
  const at = position !== undefined ? Number(position) : (e.body?.length ?? 0);
  return new RequestValidationError([item(pydantic.jsonInvalid(message), ['body', at], {})]);
}
