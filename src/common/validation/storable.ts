// Checks only; the PyStorable decorator is with the request validators (py-validators.ts), so a service
// keeping a provider's values loads this without class-validator.
import { item, Loc, pydantic, PydanticErrorItem } from './pydantic-errors.js';

/** Deeper JSON than this is refused: PostgreSQL's jsonb parser would fail on it with a 500. */
export const MAX_JSON_DEPTH = 64;

/** A NUL or any surrogate: only then is the precise (slower) check worth running. */
// eslint-disable-next-line no-control-regex -- NUL is exactly what this looks for
const SUSPECT = /[\u0000\ud800-\udfff]/;
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/**
 * What PostgreSQL cannot store although JSON allows it: NUL characters (in text and jsonb), lone UTF-16
 * surrogates (`"\ud800"`: jsonb refuses the escape) and very deep nesting. Null when the value is storable.
 */
export function unstorableJsonError(value: unknown, depth = 0): string | null {
  if (typeof value === 'string') {
    // Runs on every string of every request: one cheap character-class test clears almost all.
    if (!SUSPECT.test(value)) return null;
    if (value.includes('\u0000')) return 'text must not contain NUL (\\u0000) characters';
    if (LONE_SURROGATE.test(value))
      return 'text must be valid Unicode (no lone surrogate \\ud800-\\udfff escapes)';
    return null;
  }
  if (typeof value !== 'object' || value === null) return null;
  if (depth >= MAX_JSON_DEPTH)
    return `JSON must not be nested more than ${MAX_JSON_DEPTH} levels deep`;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const error = unstorableJsonError(value[i], depth + 1);
      if (error !== null) return error;
    }
    return null;
  }
  for (const key of Object.keys(value)) {
    const error =
      unstorableJsonError(key, depth) ??
      unstorableJsonError((value as Record<string, unknown>)[key], depth + 1);
    if (error !== null) return error;
  }
  return null;
}

/**
 * Every string (value or key) of a request that PostgreSQL could not store, located FastAPI style.
 * The validation pipe runs this over every body and query, so no module can forget it.
 */
export function unstorableStrings(value: unknown, loc: Loc): PydanticErrorItem[] {
  // One quick pass answers for almost every request; only a bad one pays for locating its errors.
  return unstorableJsonError(value) === null ? [] : locateUnstorable(value, loc, 0);
}

function locateUnstorable(value: unknown, loc: Loc, depth: number): PydanticErrorItem[] {
  if (typeof value === 'string') {
    const error = unstorableJsonError(value);
    return error === null ? [] : [item(pydantic.valueError(error), loc, value)];
  }
  if (typeof value !== 'object' || value === null || depth > MAX_JSON_DEPTH) return [];
  const out: PydanticErrorItem[] = [];
  const entries: [string | number, unknown][] = Array.isArray(value)
    ? value.map((v, i) => [i, v])
    : Object.entries(value);
  for (const [key, child] of entries) {
    const keyError = typeof key === 'string' ? unstorableJsonError(key) : null;
    if (keyError !== null) out.push(item(pydantic.valueError(keyError), [...loc, key], key));
    else out.push(...locateUnstorable(child, [...loc, key], depth + 1));
  }
  return out;
}

/**
 * A copy PostgreSQL can store, for values we keep rather than refuse (what a provider reported): NUL
 * characters and lone surrogates become U+FFFD, and nesting past MAX_JSON_DEPTH is dropped (null).
 * The value itself when it is storable already, which is almost always.
 */
export function storableCopy<T>(value: T): T {
  return unstorableJsonError(value) === null ? value : (copyStorable(value, 0) as T);
}

function copyStorable(value: unknown, depth: number): unknown {
  // eslint-disable-next-line no-control-regex -- NUL is exactly what this replaces
  if (typeof value === 'string') return value.toWellFormed().replace(/\u0000/g, '\ufffd');
  if (value instanceof Date || typeof value !== 'object' || value === null) return value;
  if (depth >= MAX_JSON_DEPTH) return null;
  if (Array.isArray(value)) return value.map((v) => copyStorable(v, depth + 1));
  return Object.fromEntries(
    Object.entries(value).map(([k, v]) => [
      copyStorable(k, depth) as string,
      copyStorable(v, depth + 1),
    ]),
  );
}
