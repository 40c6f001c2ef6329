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

export const pydantic = {
  missing: (): PydanticError => ({ type: 'missing', msg: 'Field required' }),
  stringType: (): PydanticError => ({ type: 'string_type', msg: 'Input should be a valid string' }),
  intType: (): PydanticError => ({ type: 'int_type', msg: 'Input should be a valid integer' }),
  intParsing: (): PydanticError => ({
    type: 'int_parsing',
    msg: 'Input should be a valid integer, unable to parse string as an integer',
  }),
  intFromFloat: (): PydanticError => ({
    type: 'int_from_float',
    msg: 'Input should be a valid integer, got a number with a fractional part',
  }),
  boolType: (): PydanticError => ({ type: 'bool_type', msg: 'Input should be a valid boolean' }),
  boolParsing: (): PydanticError => ({
    type: 'bool_parsing',
    msg: 'Input should be a valid boolean, unable to interpret input',
  }),
  dictType: (): PydanticError => ({ type: 'dict_type', msg: 'Input should be a valid dictionary' }),
  modelType: (): PydanticError => ({
    type: 'model_attributes_type',
    msg: 'Input should be a valid dictionary or object to extract fields from',
  }),
  extraForbidden: (): PydanticError => ({
    type: 'extra_forbidden',
    msg: 'Extra inputs are not permitted',
  }),
  listType: (): PydanticError => ({ type: 'list_type', msg: 'Input should be a valid list' }),
  floatType: (): PydanticError => ({ type: 'float_type', msg: 'Input should be a valid number' }),
  floatParsing: (): PydanticError => ({
    type: 'float_parsing',
    msg: 'Input should be a valid number, unable to parse string as a number',
  }),
  greaterThan: (gt: number): PydanticError => ({
    type: 'greater_than',
    msg: `Input should be greater than ${gt}`,
    ctx: { gt },
  }),
  greaterThanEqual: (ge: number | bigint): PydanticError => ({
    type: 'greater_than_equal',
    msg: `Input should be greater than or equal to ${ge}`,
    ctx: { ge },
  }),
  lessThanEqual: (le: number | bigint): PydanticError => ({
    type: 'less_than_equal',
    msg: `Input should be less than or equal to ${le}`,
    ctx: { le },
  }),
  tooShort: (fieldType: 'List' | 'Value', minLength: number, actual: number): PydanticError => ({
    type: 'too_short',
    msg: `${fieldType} should have at least ${minLength} item${minLength === 1 ? '' : 's'} after validation, not ${actual}`,
    ctx: { field_type: fieldType, min_length: minLength, actual_length: actual },
  }),
  tooLong: (fieldType: 'List' | 'Value', maxLength: number, actual: number): PydanticError => ({
    type: 'too_long',
    msg: `${fieldType} should have at most ${maxLength} item${maxLength === 1 ? '' : 's'} after validation, not ${actual}`,
    ctx: { field_type: fieldType, max_length: maxLength, actual_length: actual },
  }),
  stringTooShort: (minLength: number): PydanticError => ({
    type: 'string_too_short',
    msg: `String should have at least ${minLength} character${minLength === 1 ? '' : 's'}`,
    ctx: { min_length: minLength },
  }),
  stringTooLong: (maxLength: number): PydanticError => ({
    type: 'string_too_long',
    msg: `String should have at most ${maxLength} character${maxLength === 1 ? '' : 's'}`,
    ctx: { max_length: maxLength },
  }),
  enum: (values: readonly (string | number)[]): PydanticError => {
    const expected = quoteList(values);
    return { type: 'enum', msg: `Input should be ${expected}`, ctx: { expected } };
  },
  uuidParsing: (error: string): PydanticError => ({
    type: 'uuid_parsing',
    msg: `Input should be a valid UUID, ${error}`,
    ctx: { error },
  }),
  datetimeFromDateParsing: (error: string): PydanticError => ({
    type: 'datetime_from_date_parsing',
    msg: `Input should be a valid datetime or date, ${error}`,
    ctx: { error },
  }),
  // FastAPI's JSON encoder turns the ValueError in ctx into `{}`.
  valueError: (message: string): PydanticError => ({
    type: 'value_error',
    msg: `Value error, ${message}`,
    ctx: { error: {} },
  }),
  stringPatternMismatch: (pattern: string): PydanticError => ({
    type: 'string_pattern_mismatch',
    msg: `String should match pattern '${pattern}'`,
    ctx: { pattern },
  }),
  urlParsing: (error: string): PydanticError => ({
    type: 'url_parsing',
    msg: `Input should be a valid URL, ${error}`,
    ctx: { error },
  }),
  urlScheme: (): PydanticError => ({
    type: 'url_scheme',
    msg: "URL scheme should be 'http' or 'https'",
    ctx: { expected_schemes: "'http' or 'https'" },
  }),
  jsonInvalid: (error: string): PydanticError => ({
    type: 'json_invalid',
    msg: 'JSON decode error',
    ctx: { error },
  }),
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
