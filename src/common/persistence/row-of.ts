/**
 * A row type from its domain type, for the tables whose columns are the domain's fields in
 * snake_case with the types the domain has (as `pg` returns them): a field added to the domain type
 * is a column of the row type, and the mapper that does not read it fails to compile.
 */
export type RowOf<T> = { [K in keyof T & string as SnakeCase<K>]: T[K] };

/** A field's column (and wire) name: `preCallData`, `pre_call_data`. */
export type SnakeCase<F extends string> = F extends `${infer H}${infer T}`
  ? `${H extends Lowercase<H> ? H : `_${Lowercase<H>}`}${SnakeCase<T>}`
  : F;
export const snakeCase = (field: string) => field.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
