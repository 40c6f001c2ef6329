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

/** The names a column list (an array, or the text of one) gives its columns: each entry's last word. */
export type ListedColumns<C> = C extends readonly string[]
  ? LastWord<C[number]>
  : C extends string
    ? LastWord<Entries<C>>
    : never;
type Entries<S extends string> = S extends `${infer H},${infer T}` ? H | Entries<T> : S;
type TrimEnd<S extends string> = S extends `${infer R}${' ' | '\n'}` ? TrimEnd<R> : S;
type AfterSeparators<S extends string> = S extends `${string}${' ' | '\n' | '.'}${infer R}`
  ? AfterSeparators<R>
  : S;
type LastWord<S extends string> = S extends unknown ? AfterSeparators<TrimEnd<S>> : never;
type CamelCase<S extends string> = S extends `${infer H}_${infer T}`
  ? `${H}${CamelCase<Capitalize<T>>}`
  : S;
/** The fields of T no column of the list fills: `never` when the list covers T. */
export type UnfilledFields<T, C, Renamed> = Exclude<
  keyof T & string,
  ListedColumns<C> extends infer Column extends string
    ? Column extends keyof Renamed
      ? Renamed[Column]
      : CamelCase<Column>
    : never
>;

/**
 * The mapper of a `RowOf<T>` table: copies each column `columns` names to its field, in the list's
 * order. `columns` is the statement's own list (an array, or the text of one: an entry's last word is
 * its name, so `u.id` and `... AS has_password` work, a comma inside an expression does not), so a
 * joined row's other columns stay out. `convert` gives the fields whose column needs more than a copy,
 * and `renamed` the columns named otherwise than their field (`R`, the row as read, then differs from
 * `RowOf<T>`).
 *
 * The list is checked at compile time: a field of T that no column fills fails to compile, naming it
 * (a list that is not a literal type fails too). Hence the call in two steps, `rowMapper<T>()(list)`:
 * T is given, the list's type inferred, and TypeScript infers none of a call's type arguments once one
 * is given.
 *
 * The mapper is compiled to one object literal, as a hand-written one: filled key by key in a loop,
 * the object cost 50 to 100 times as much per row (keyed stores of changing names).
 */
export function rowMapper<T, R extends object = RowOf<T>>() {
  return <
    const C extends string | readonly string[],
    const N extends Partial<Record<keyof R, keyof T & string>> = Record<never, never>,
  >(
    columns: C &
      (string extends ListedColumns<C>
        ? { columnListNotALiteral: never }
        : [UnfilledFields<T, C, N>] extends [never]
          ? unknown
          : { fieldsNoColumnFills: UnfilledFields<T, C, N> }),
    convert: { [K in keyof T]?: (row: R) => T[K] } = {},
    renamed?: N,
  ): ((row: R) => T) => compileMapper(columns, convert, renamed ?? {});
}

function compileMapper<T, R>(
  columns: string | readonly string[],
  convert: { [K in keyof T]?: (row: R) => T[K] },
  renamed: object,
): (row: R) => T {
  const converters: ((row: R) => unknown)[] = [];
  const entries = (typeof columns === 'string' ? columns.split(',') : columns).map((entry) => {
    const column = /(\w+)\s*$/.exec(entry)![1];
    const field =
      (renamed as Record<string, string | undefined>)[column] ??
      column.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());
    const converted = (convert as Record<string, ((row: R) => unknown) | undefined>)[field];
    const value = converted
      ? `converters[${converters.push(converted) - 1}](row)`
      : `row[${JSON.stringify(column)}]`;
    return `${JSON.stringify(field)}: ${value}`;
  });
  // Names are `\w+` words, quoted: the text is code only of this module's making.
  return new Function('converters', `return (row) => ({ ${entries.join(', ')} });`)(converters);
}
