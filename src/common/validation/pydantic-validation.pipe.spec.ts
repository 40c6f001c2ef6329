import { OptionalJsonObject, PydanticValidationPipe } from './pydantic-validation.pipe.js';
import {
  PyBool,
  PyDateOrDateTime,
  PyDict,
  PyEnum,
  PyInt,
  PyList,
  PyModel,
  PyModelList,
  PyOptional,
  PyRequired,
  PyStr,
  PyUuid,
  checkString,
} from './py-validators.js';
import { RequestValidationError } from './request-validation.error.js';

class Inner {
  @PyRequired() @PyStr() name: string;
}

class Body {
  @PyRequired() @PyInt({ ge: 1, le: 10 }) count: number;
  @PyOptional() @PyBool() flag?: boolean;
  @PyOptional() @PyDict() data?: Record<string, unknown>;
  @PyOptional() @PyEnum(['a', 'b', 'c']) letter?: string;
  @PyOptional() @PyList({ min: 1, max: 2 }, checkString) tags?: string[];
  @PyOptional() @PyModel(() => Inner) inner?: Inner;
  @PyOptional() @PyModelList(() => Inner, { max: 3 }) items?: Inner[];
  @PyOptional() @PyUuid() id?: string;
  @PyOptional({ nullable: true }) @PyDateOrDateTime() when?: string | null;
  @PyOptional() @PyStr({ min: 2, max: 3 }) code?: string;
}

const pipe = new PydanticValidationPipe();
const body = (value: unknown) => pipe.transform(value, { type: 'body', metatype: Body });
const details = async (value: unknown) => {
  const error = await body(value).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(RequestValidationError);
  return (error as RequestValidationError).items;
};

describe('PydanticValidationPipe', () => {
  it('coerces like pydantic lax mode and returns the DTO instance', async () => {
    const dto = (await body({ count: '7', flag: 'yes', letter: 'b', when: '2026-01-31' })) as Body;
    expect(dto).toBeInstanceOf(Body);
    expect(dto).toMatchObject({ count: 7, flag: true, letter: 'b', when: '2026-01-31' });
    expect(((await body({ count: 5.0 })) as Body).count).toBe(5);
  });

  it('reports one error per field, missing first, with the raw input', async () => {
    expect(await details({ flag: 'maybe', count: 2.5 })).toEqual([
      {
        type: 'int_from_float',
        loc: ['body', 'count'],
        msg: 'Input should be a valid integer, got a number with a fractional part',
        input: 2.5,
      },
      {
        type: 'bool_parsing',
        loc: ['body', 'flag'],
        msg: 'Input should be a valid boolean, unable to interpret input',
        input: 'maybe',
      },
    ]);
    expect(await details({})).toEqual([
      { type: 'missing', loc: ['body', 'count'], msg: 'Field required', input: {} },
    ]);
  });

  it('counts string lengths in characters as Python does, not in UTF-16 units', async () => {
    // Each emoji is one character but two UTF-16 units.
    expect(((await body({ count: 1, code: '\u{1F600}\u{1F600}\u{1F600}' })) as Body).code).toBe(
      '\u{1F600}\u{1F600}\u{1F600}',
    );
    expect(await details({ count: 1, code: '\u{1F600}'.repeat(4) })).toEqual([
      {
        type: 'string_too_long',
        loc: ['body', 'code'],
        msg: 'String should have at most 3 characters',
        input: '\u{1F600}'.repeat(4),
        ctx: { max_length: 3 },
      },
    ]);
    expect(await details({ count: 1, code: '\u{1F600}' })).toEqual([
      {
        type: 'string_too_short',
        loc: ['body', 'code'],
        msg: 'String should have at least 2 characters',
        input: '\u{1F600}',
        ctx: { min_length: 2 },
      },
    ]);
  });

  it('takes a missing or null optional object body as {}, and refuses anything but an object', async () => {
    const optional = (value: unknown) =>
      pipe.transform(value, { type: 'body', metatype: OptionalJsonObject });
    await expect(optional(undefined)).resolves.toEqual({});
    await expect(optional(null)).resolves.toEqual({});
    await expect(optional({ a: 1 })).resolves.toEqual({ a: 1 });
    const error = (await optional([1]).catch((e: unknown) => e)) as RequestValidationError;
    expect(error).toBeInstanceOf(RequestValidationError);
    expect(error.items).toEqual([
      { type: 'dict_type', loc: ['body'], msg: 'Input should be a valid dictionary', input: [1] },
    ]);
  });

  it('locates errors inside nested models and lists by index', async () => {
    expect(
      await details({
        count: 1,
        tags: ['x', 3],
        inner: {},
        items: [{ name: 'ok' }, 'junk', { name: 1 }],
      }),
    ).toEqual([
      {
        type: 'string_type',
        loc: ['body', 'tags', 1],
        msg: 'Input should be a valid string',
        input: 3,
      },
      { type: 'missing', loc: ['body', 'inner', 'name'], msg: 'Field required', input: {} },
      {
        type: 'model_attributes_type',
        loc: ['body', 'items', 1],
        msg: 'Input should be a valid dictionary or object to extract fields from',
        input: 'junk',
      },
      {
        type: 'string_type',
        loc: ['body', 'items', 2, 'name'],
        msg: 'Input should be a valid string',
        input: 1,
      },
    ]);
  });

  it('words list lengths, enums, dicts, uuids and dates as pydantic v2 does', async () => {
    expect(
      await details({ count: 11, tags: [], data: [], letter: 'z', id: 'abc', when: '2026-13-01' }),
    ).toEqual([
      {
        type: 'less_than_equal',
        loc: ['body', 'count'],
        msg: 'Input should be less than or equal to 10',
        input: 11,
        ctx: { le: 10 },
      },
      {
        type: 'dict_type',
        loc: ['body', 'data'],
        msg: 'Input should be a valid dictionary',
        input: [],
      },
      {
        type: 'enum',
        loc: ['body', 'letter'],
        msg: "Input should be 'a', 'b' or 'c'",
        input: 'z',
        ctx: { expected: "'a', 'b' or 'c'" },
      },
      {
        type: 'too_short',
        loc: ['body', 'tags'],
        msg: 'List should have at least 1 item after validation, not 0',
        input: [],
        ctx: { field_type: 'List', min_length: 1, actual_length: 0 },
      },
      {
        type: 'uuid_parsing',
        loc: ['body', 'id'],
        msg: 'Input should be a valid UUID, invalid length: expected length 32 for simple format, found 3',
        input: 'abc',
        ctx: { error: 'invalid length: expected length 32 for simple format, found 3' },
      },
      {
        type: 'datetime_from_date_parsing',
        loc: ['body', 'when'],
        msg: 'Input should be a valid datetime or date, month value is outside expected range of 1-12',
        input: '2026-13-01',
        ctx: { error: 'month value is outside expected range of 1-12' },
      },
    ]);
  });

  it('refuses a missing body and a body that is not an object', async () => {
    await expect(body(undefined)).rejects.toEqual(
      new RequestValidationError([
        { type: 'missing', loc: ['body'], msg: 'Field required', input: null },
      ]),
    );
    expect(await details('text')).toEqual([
      {
        type: 'model_attributes_type',
        loc: ['body'],
        msg: 'Input should be a valid dictionary or object to extract fields from',
        input: 'text',
      },
    ]);
  });

  it('prefixes query and path errors with their source', async () => {
    class Query {
      @PyOptional() @PyInt({ ge: 0 }) page: number = 0;
    }
    const error = await pipe
      .transform({ page: 'x' }, { type: 'query', metatype: Query })
      .catch((e: unknown) => e);
    expect((error as RequestValidationError).items[0].loc).toEqual(['query', 'page']);
    expect(await pipe.transform({}, { type: 'query', metatype: Query })).toEqual(
      Object.assign(new Query(), { page: 0 }),
    );
  });
});

describe('what PostgreSQL cannot store', () => {
  it('refuses NUL characters and lone surrogates anywhere in a body or query, keys included', async () => {
    const error = await pipe
      .transform(
        { count: 1, data: { 'k\u0000': 1, nested: ['ok', 'bad\u0000'] }, letter: '\ud800' },
        { type: 'body', metatype: Body },
      )
      .catch((e: unknown) => e);
    expect((error as RequestValidationError).items).toEqual([
      {
        type: 'value_error',
        loc: ['body', 'data', 'k\u0000'],
        msg: 'Value error, text must not contain NUL (\\u0000) characters',
        input: 'k\u0000',
        ctx: { error: {} },
      },
      {
        type: 'value_error',
        loc: ['body', 'data', 'nested', 1],
        msg: 'Value error, text must not contain NUL (\\u0000) characters',
        input: 'bad\u0000',
        ctx: { error: {} },
      },
      {
        type: 'value_error',
        loc: ['body', 'letter'],
        msg: 'Value error, text must be valid Unicode (no lone surrogate \\ud800-\\udfff escapes)',
        input: '\ud800',
        ctx: { error: {} },
      },
    ]);
  });

  it('refuses date-times whose offset no clock has', async () => {
    const items = await details({ count: 1, when: '2026-01-01T00:00:00+99:99' });
    expect(items).toEqual([
      {
        type: 'datetime_from_date_parsing',
        loc: ['body', 'when'],
        msg: 'Input should be a valid datetime or date, unexpected extra characters at the end of the input',
        input: '2026-01-01T00:00:00+99:99',
        ctx: { error: 'unexpected extra characters at the end of the input' },
      },
    ]);
  });
});

describe('free-form dictionaries', () => {
  it('keep keys that shadow Object.prototype members, as received', async () => {
    const data = {
      constructor: 'c',
      toString: 't',
      __proto__x: 1,
      nested: { constructor: { a: 1 } },
    };
    const dto = (await body({ count: 1, data })) as Body;
    expect(dto.data).toEqual(data);
  });
});
