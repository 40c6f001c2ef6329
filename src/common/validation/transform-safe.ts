/**
 * class-transformer trips over two JSON keys: an own `constructor` (it calls `new value.constructor()`,
 * a TypeError and so a 500) and an own `__proto__` (it would assign the instance's prototype). No request
 * model has such a field, so the copy handed to class-transformer leaves them out; pydantic ignores them
 * as unknown keys too. Error inputs are always taken from the raw body, and free-form objects (`PyDict`)
 * read their raw value back through `rawOf`, so no client data is lost.
 *
 * Copy on write: a request without such keys is passed through untouched, with no copy at all.
 */
const UNSAFE_KEYS = ['constructor', '__proto__'];
const originals = new WeakMap<object, object>();

export function withoutUnsafeKeys(value: unknown): unknown {
  if (Array.isArray(value)) {
    let copy: unknown[] | null = null;
    for (let i = 0; i < value.length; i++) {
      const safe = withoutUnsafeKeys(value[i]);
      if (safe !== value[i]) (copy ??= value.slice())[i] = safe;
    }
    return copy ? remember(copy, value) : value;
  }
  if (typeof value !== 'object' || value === null) return value;
  const source = value as Record<string, unknown>;
  let copy: Record<string, unknown> | null = null;
  for (const key of Object.keys(source)) {
    if (UNSAFE_KEYS.includes(key)) {
      copy ??= { ...source };
      delete copy[key];
      continue;
    }
    const safe = withoutUnsafeKeys(source[key]);
    if (safe !== source[key]) (copy ??= { ...source })[key] = safe;
  }
  return copy ? remember(copy, source) : value;
}

function remember<T extends object>(copy: T, original: object): T {
  originals.set(copy, original);
  return copy;
}

/** The value as the client sent it, for an object `withoutUnsafeKeys` may have copied. */
export function rawOf<T>(value: T): T {
  return typeof value === 'object' && value !== null
    ? ((originals.get(value) as T | undefined) ?? value)
    : value;
}
