import type { NextFunction, Request, Response } from 'express';
import { item, pydantic, PydanticErrorItem } from '../validation/pydantic-errors.js';
import { RequestValidationError } from '../validation/request-validation.error.js';
import { notePlainJson } from '../validation/plain-json.js';
import { MAX_JSON_DEPTH } from '../validation/storable.js';
import { pythonJsonError } from './python-json-error.js';

/**
 * Request bodies as FastAPI reads them. body-parser's `text` parser has read the raw text (within the
 * size limit); this decides what it is:
 * - no content type, `application/json` or `application/*+json`: JSON. An empty body is no body
 *   (FastAPI: `missing`), malformed JSON is `json_invalid` with Python's words and position;
 * - any other content type: the text itself, which no JSON schema accepts (`model_attributes_type`).
 *
 * Nesting deeper than MAX_JSON_DEPTH is refused before anything else reads the body, so no later
 * recursion (validation, serialization, jsonb) can overflow the stack on a hostile body.
 */
export function parseJsonBody(req: Request, _res: Response, next: NextFunction): void {
  const text: unknown = req.body;
  if (typeof text !== 'string' || !isJsonContentType(req.headers['content-type'])) return next();
  if (text === '') {
    req.body = undefined;
    return next();
  }
  // Parsing first is safe (V8's JSON.parse does not recurse, and a RangeError lands in the catch) and
  // cheap; only a body that turns out too deep or malformed pays for the scan that locates the error.
  // The order of the checks is unchanged: a body nested too deep is refused as such, even malformed.
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return next(tooDeep(text) ?? malformed(text));
  }
  const error = nestedBeyond(body, MAX_JSON_DEPTH, 0) ? tooDeep(text) : null;
  if (error) return next(error);
  notePlainJson(text, body);
  req.body = body;
  next();
}

function tooDeep(text: string): RequestValidationError | null {
  const tooDeepAt = nestingBeyond(text, MAX_JSON_DEPTH);
  if (tooDeepAt === null) return null;
  const message = `JSON must not be nested more than ${MAX_JSON_DEPTH} levels deep`;
  return jsonInvalid(message, codePoints(text, tooDeepAt));
}

function malformed(text: string): RequestValidationError {
  const error = pythonJsonError(text) ?? { msg: 'Expecting value', pos: 0 };
  return jsonInvalid(error.msg, error.pos);
}

/** FastAPI's test: `application/json` or `application/<anything>+json`, or no content type at all. */
export function isJsonContentType(header: string | undefined): boolean {
  if (!header) return true;
  const mediaType = header.split(';')[0].trim().toLowerCase();
  const [main, sub] = mediaType.split('/');
  return main === 'application' && sub !== undefined && (sub === 'json' || sub.endsWith('+json'));
}

/**
 * A body sent with another content type than JSON (curl's `-d` sends
 * `application/x-www-form-urlencoded`, `fetch` a string as `text/plain`) is read as text, which no
 * JSON schema accepts. FastAPI answers only that the input is not an object; ours also says which
 * content type the text was sent as and which one to send, in the same item.
 */
export function withContentTypeHint(
  items: PydanticErrorItem[],
  contentType: string | undefined,
): PydanticErrorItem[] {
  if (isJsonContentType(contentType)) return items;
  const sentAs = contentType!.split(';')[0].trim().toLowerCase() || contentType!.trim();
  return items.map((i) =>
    i.loc.length === 1 &&
    i.loc[0] === 'body' &&
    typeof i.input === 'string' &&
    (i.type === 'model_attributes_type' || i.type === 'dict_type')
      ? {
          ...i,
          msg: `${i.msg}: the body was sent as ${sentAs}; send JSON with the header Content-Type: application/json`,
        }
      : i,
  );
}

function jsonInvalid(message: string, position: number): RequestValidationError {
  return new RequestValidationError([item(pydantic.jsonInvalid(message), ['body', position], {})]);
}

/**
 * Whether a parsed value holds an array or object at level `limit + 1` (the value itself at level 1 when
 * `depth` is 0): exactly when `nestingBeyond` finds a bracket in its text. Recurses `limit` levels at most.
 */
function nestedBeyond(value: unknown, limit: number, depth: number): boolean {
  if (typeof value !== 'object' || value === null) return false;
  if (depth >= limit) return true;
  const children = Array.isArray(value) ? value : Object.values(value);
  for (let i = 0; i < children.length; i++) {
    if (nestedBeyond(children[i], limit, depth + 1)) return true;
  }
  return false;
}

/** The UTF-16 index of the bracket that opens level `limit + 1`, or null; strings are skipped. */
function nestingBeyond(text: string, limit: number): number | null {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      // A backslash escapes the next character; a quote ends the string.
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) {
      inString = true;
    } else if (c === 0x5b || c === 0x7b) {
      if (++depth > limit) return i;
    } else if (c === 0x5d || c === 0x7d) {
      depth--;
    }
  }
  return null;
}

/** Python counts positions in code points, JavaScript in UTF-16 units. */
function codePoints(text: string, utf16Index: number): number {
  return Array.from(text.slice(0, utf16Index)).length;
}
