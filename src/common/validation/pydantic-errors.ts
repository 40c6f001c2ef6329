/**
 * The one table of FastAPI / pydantic v2 error types and messages. Validators and the exception filter
 * build every 422 item through these functions, so the wording lives in exactly one place.
 */
export type Loc = (string | number)[];

export interface PydanticErrorItem {
  type: string;
  loc: Loc;
  msg: string;
  input?: unknown;
  ctx?: Record<string, unknown>;
}

/** A validation failure before its location is known. */
export type PydanticError = Omit<PydanticErrorItem, 'loc' | 'input'>;

export function quoteList(values: readonly (string | number)[]): string {
  const quoted = values.map((v) => (typeof v === 'string' ? `'${v}'` : String(v)));
  if (quoted.length <= 1) return quoted.join('');
  return `${quoted.slice(0, -1).join(', ')} or ${quoted[quoted.length - 1]}`;
}

/** An error of `type` with pydantic's `msg` (and `ctx` when it has one), keys in pydantic's order. */
const error = (type: string, msg: string, ctx?: Record<string, unknown>): PydanticError =>
  ctx === undefined ? { type, msg } : { type, msg, ctx };

/** `at least 1 item`, `at most 2 characters`. */
const count = (n: number, unit: string) => `${n} ${unit}${n === 1 ? '' : 's'}`;

export const pydantic = {
  missing: () => error('missing', 'Field required'),
  stringType: () => error('string_type', 'Input should be a valid string'),
  intType: () => error('int_type', 'Input should be a valid integer'),
  intParsing: () =>
    error('int_parsing', 'Input should be a valid integer, unable to parse string as an integer'),
  intFromFloat: () =>
    error('int_from_float', 'Input should be a valid integer, got a number with a fractional part'),
  boolType: () => error('bool_type', 'Input should be a valid boolean'),
  boolParsing: () =>
    error('bool_parsing', 'Input should be a valid boolean, unable to interpret input'),
  dictType: () => error('dict_type', 'Input should be a valid dictionary'),
  modelType: () =>
    error(
      'model_attributes_type',
      'Input should be a valid dictionary or object to extract fields from',
    ),
  extraForbidden: () => error('extra_forbidden', 'Extra inputs are not permitted'),
  listType: () => error('list_type', 'Input should be a valid list'),
  floatType: () => error('float_type', 'Input should be a valid number'),
  floatParsing: () =>
    error('float_parsing', 'Input should be a valid number, unable to parse string as a number'),
  greaterThan: (gt: number) => error('greater_than', `Input should be greater than ${gt}`, { gt }),
  greaterThanEqual: (ge: number | bigint) =>
    error('greater_than_equal', `Input should be greater than or equal to ${ge}`, { ge }),
  lessThanEqual: (le: number | bigint) =>
    error('less_than_equal', `Input should be less than or equal to ${le}`, { le }),
  tooShort: (fieldType: 'List' | 'Value', minLength: number, actual: number) =>
    error(
      'too_short',
      `${fieldType} should have at least ${count(minLength, 'item')} after validation, not ${actual}`,
      { field_type: fieldType, min_length: minLength, actual_length: actual },
    ),
  tooLong: (fieldType: 'List' | 'Value', maxLength: number, actual: number) =>
    error(
      'too_long',
      `${fieldType} should have at most ${count(maxLength, 'item')} after validation, not ${actual}`,
      { field_type: fieldType, max_length: maxLength, actual_length: actual },
    ),
  stringTooShort: (minLength: number) =>
    error('string_too_short', `String should have at least ${count(minLength, 'character')}`, {
      min_length: minLength,
    }),
  stringTooLong: (maxLength: number) =>
    error('string_too_long', `String should have at most ${count(maxLength, 'character')}`, {
      max_length: maxLength,
    }),
  enum: (values: readonly (string | number)[]) => {
    const expected = quoteList(values);
    return error('enum', `Input should be ${expected}`, { expected });
  },
  uuidParsing: (e: string) =>
    error('uuid_parsing', `Input should be a valid UUID, ${e}`, { error: e }),
  datetimeFromDateParsing: (e: string) =>
    error('datetime_from_date_parsing', `Input should be a valid datetime or date, ${e}`, {
      error: e,
    }),
  // FastAPI's JSON encoder turns the ValueError in ctx into `{}`.
  valueError: (message: string) => error('value_error', `Value error, ${message}`, { error: {} }),
  stringPatternMismatch: (pattern: string) =>
    error('string_pattern_mismatch', `String should match pattern '${pattern}'`, { pattern }),
  urlParsing: (e: string) =>
    error('url_parsing', `Input should be a valid URL, ${e}`, { error: e }),
  urlScheme: () =>
    error('url_scheme', "URL scheme should be 'http' or 'https'", {
      expected_schemes: "'http' or 'https'",
    }),
  jsonInvalid: (e: string) => error('json_invalid', 'JSON decode error', { error: e }),
};

/** One `detail` entry, keys in pydantic's order. */
export function item(error: PydanticError, loc: Loc, input: unknown): PydanticErrorItem {
  const out: PydanticErrorItem = { type: error.type, loc, msg: error.msg, input };
  if (error.ctx) out.ctx = error.ctx;
  return out;
}

const BIGINT_MARK = `bigint-${Math.random().toString(36).slice(2)}:`;
const BIGINT_MARKED = new RegExp(`"${BIGINT_MARK}(-?\\d+)"`, 'g');

/**
 * A 422 body as JSON text. Bounds beyond JavaScript's exact integers (`le: 9223372036854775807`) are
 * BigInts, which JSON.stringify refuses: they are written as the bare digits Python writes.
 */
export function validationBodyJson(detail: PydanticErrorItem[]): string {
  const text = JSON.stringify({ detail }, (_key, value: unknown) =>
    typeof value === 'bigint' ? `${BIGINT_MARK}${value}` : value,
  );
  return text.replace(BIGINT_MARKED, '$1');
}
