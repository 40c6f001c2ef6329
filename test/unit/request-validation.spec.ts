// Request validation: PydanticValidationPipe and the DTOs it checks. One file, not one per DTO: each
// test file loads class-validator, class-transformer and Nest's pipe afresh, about half a second of the
// unit project's time per file.
import fc from 'fast-check';
import {
  OptionalJsonObject,
  PydanticValidationPipe,
} from '../../src/common/validation/pydantic-validation.pipe.js';
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
} from '../../src/common/validation/py-validators.js';
import { RequestValidationError } from '../../src/common/validation/request-validation.error.js';
import {
  ListBlacklistNumbersQueryDto,
  ListBlacklistsQueryDto,
} from '../../src/modules/blacklist/api/dto/blacklist.dto.js';
import { ListCallLogsQueryDto } from '../../src/modules/call-log/api/dto/call-log.dto.js';
import { ListCampaignsQueryDto } from '../../src/modules/campaign/api/dto/campaign.dto.js';
import { BatchStepDto, StepUpdateDto } from '../../src/modules/step/api/dto/step.dto.js';
import {
  AddTargetsDto,
  MAX_EXTERNAL_ID_LENGTH,
  TargetInputDto,
} from '../../src/modules/target/api/dto/add-targets.dto.js';
import { ListTargetsQueryDto } from '../../src/modules/target/api/dto/list-targets.query.dto.js';
import { toAddTargetInput } from '../../src/modules/target/api/target.request-mapper.js';
import { ListDeliveriesQueryDto } from '../../src/modules/webhook/api/dto/webhook.dto.js';

const pipe = new PydanticValidationPipe();
const body = (metatype: new () => object, value: unknown) =>
  pipe.transform(value, { type: 'body', metatype }).then(
    (v) => ({ ok: true as const, value: v as any }),
    (e: unknown) => {
      if (e instanceof RequestValidationError) return { ok: false as const, detail: e.items };
      throw e;
    },
  );

// PydanticValidationPipe, on a DTO with a field of each kind.
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

const bodyOfTestDto = (value: unknown) => pipe.transform(value, { type: 'body', metatype: Body });
const detailsOfTestDto = async (value: unknown) => {
  const error = await bodyOfTestDto(value).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(RequestValidationError);
  return (error as RequestValidationError).items;
};

describe('PydanticValidationPipe', () => {
  it('coerces like pydantic lax mode and returns the DTO instance', async () => {
    const dto = (await bodyOfTestDto({
      count: '7',
      flag: 'yes',
      letter: 'b',
      when: '2026-01-31',
    })) as Body;
    expect(dto).toBeInstanceOf(Body);
    expect(dto).toMatchObject({ count: 7, flag: true, letter: 'b', when: '2026-01-31' });
    expect(((await bodyOfTestDto({ count: 5.0 })) as Body).count).toBe(5);
  });

  it('reports one error per field, missing first, with the raw input', async () => {
    expect(await detailsOfTestDto({ flag: 'maybe', count: 2.5 })).toEqual([
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
    expect(await detailsOfTestDto({})).toEqual([
      { type: 'missing', loc: ['body', 'count'], msg: 'Field required', input: {} },
    ]);
  });

  it('counts string lengths in characters as Python does, not in UTF-16 units', async () => {
    // Each emoji is one character but two UTF-16 units.
    expect(
      ((await bodyOfTestDto({ count: 1, code: '\u{1F600}\u{1F600}\u{1F600}' })) as Body).code,
    ).toBe('\u{1F600}\u{1F600}\u{1F600}');
    expect(await detailsOfTestDto({ count: 1, code: '\u{1F600}'.repeat(4) })).toEqual([
      {
        type: 'string_too_long',
        loc: ['body', 'code'],
        msg: 'String should have at most 3 characters',
        input: '\u{1F600}'.repeat(4),
        ctx: { max_length: 3 },
      },
    ]);
    expect(await detailsOfTestDto({ count: 1, code: '\u{1F600}' })).toEqual([
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
      await detailsOfTestDto({
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
      await detailsOfTestDto({
        count: 11,
        tags: [],
        data: [],
        letter: 'z',
        id: 'abc',
        when: '2026-13-01',
      }),
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
    await expect(bodyOfTestDto(undefined)).rejects.toEqual(
      new RequestValidationError([
        { type: 'missing', loc: ['body'], msg: 'Field required', input: null },
      ]),
    );
    expect(await detailsOfTestDto('text')).toEqual([
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
    const items = await detailsOfTestDto({ count: 1, when: '2026-01-01T00:00:00+99:99' });
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
    const dto = (await bodyOfTestDto({ count: 1, data })) as Body;
    expect(dto.data).toEqual(data);
  });
});

describe('AddTargetsDto', () => {
  it('hands the controller valid targets as sent, without copying their data', async () => {
    const input_data = { a: { b: [1, 2] } };
    const extra_data = { mrn: 'x' };
    const result = await body(AddTargetsDto, {
      targets: [
        {
          id: '{A0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A11}',
          phone_number: '+1 (555) 010-0000',
          input_data,
          patient: { first_name: 'Ada', extra_data },
          unknown: 1,
        },
        { phone_number: { value: '+15550100001' }, external_id: 'e', pre_call_data: null },
      ],
    });
    expect(result.ok).toBe(true);
    const targets = result.ok ? result.value.targets : [];
    expect(targets.map(toAddTargetInput)).toEqual([
      {
        id: 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11',
        externalId: null,
        phoneNumber: '+1 (555) 010-0000',
        fallbackPhoneNumber: null,
        timeZone: null,
        inputData: input_data,
        preCallData: null,
        patient: {
          first_name: 'Ada',
          last_name: null,
          date_of_birth: null,
          phone_number: null,
          external_id: null,
          extra_data,
        },
      },
      {
        externalId: 'e',
        phoneNumber: { value: '+15550100001', operatingHours: null },
        fallbackPhoneNumber: null,
        timeZone: null,
        inputData: {},
        preCallData: null,
        patient: null,
      },
    ]);
    expect(targets[0].input_data).toBe(input_data);
    expect(targets[0].patient.extra_data).toBe(extra_data);
  });

  it('reports every bad target of a list that also has good ones, each at its index', async () => {
    const result = await body(AddTargetsDto, {
      targets: [{ phone_number: '+15550100000' }, { phone_number: 7 }, 'x'],
    });
    expect(result).toEqual({
      ok: false,
      detail: [
        {
          type: 'string_type',
          loc: ['body', 'targets', 1, 'phone_number', 'str'],
          msg: 'Input should be a valid string',
          input: 7,
        },
        {
          type: 'model_attributes_type',
          loc: ['body', 'targets', 1, 'phone_number', 'TargetInputPhoneNumber'],
          msg: 'Input should be a valid dictionary or object to extract fields from',
          input: 7,
        },
        {
          type: 'model_attributes_type',
          loc: ['body', 'targets', 2],
          msg: 'Input should be a valid dictionary or object to extract fields from',
          input: 'x',
        },
      ],
    });
  });

  it('accepts a target exactly when TargetInputDto accepts it, and hands on the same target (property)', async () => {
    const text = fc.oneof(
      fc.string({ maxLength: 4 }),
      fc.constant('x'.repeat(MAX_EXTERNAL_ID_LENGTH + 1)),
    );
    const optional = <T>(arb: fc.Arbitrary<T>) =>
      fc.oneof(fc.constant(undefined), fc.constant(null), arb, fc.integer(), fc.constant([]));
    const phone = fc.oneof(
      fc.constantFrom('+15550100000', '+1 (555) 010-0000', '555', '+1555x'),
      fc.record({ value: fc.oneof(fc.constant('+15550100000'), fc.integer()) }),
      fc.record({ value: fc.constant('+15550100000'), operating_hours: fc.constant('x') }),
      fc.constant({}),
    );
    const dict = fc.dictionary(fc.string({ maxLength: 3 }), fc.jsonValue({ maxDepth: 2 }));
    const patient = fc.record(
      {
        first_name: optional(text),
        date_of_birth: optional(text),
        external_id: optional(text),
        extra_data: optional(dict),
      },
      { requiredKeys: [] },
    );
    const target = fc.record(
      {
        id: optional(
          fc.constantFrom(
            'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11',
            'A0EEBC999C0B4EF8BB6D6BB9BD380A11',
            'urn:uuid:a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11',
            'not-a-uuid',
          ),
        ),
        external_id: optional(text),
        phone_number: optional(phone),
        fallback_phone_number: optional(phone),
        time_zone: optional(fc.constantFrom('America/Chicago', 'Mars/Olympus', 'UTC', '')),
        input_data: optional(dict),
        pre_call_data: optional(dict),
        patient: optional(patient),
      },
      { requiredKeys: [] },
    );
    await fc.assert(
      fc.asyncProperty(target, async (element) => {
        const plain = JSON.parse(JSON.stringify(element));
        const single = await body(TargetInputDto, plain);
        const list = await body(AddTargetsDto, { targets: [plain] });
        // The same target handed on, or the same field errors one level further down.
        expect(
          list.ok
            ? { ok: true, target: toAddTargetInput(list.value.targets[0]) }
            : { ok: false, detail: list.detail },
        ).toEqual(
          single.ok
            ? { ok: true, target: toAddTargetInput(single.value) }
            : {
                ok: false,
                detail: single.detail.map((d) => ({
                  ...d,
                  loc: ['body', 'targets', 0, ...d.loc.slice(1)],
                })),
              },
        );
      }),
      { numRuns: 150 },
    );
  });
});

describe('BatchStepDto', () => {
  it('hands the controller the updates as sent, without copying input_data', async () => {
    const input_data = { a: { b: [1, 2] } };
    const result = await body(BatchStepDto, {
      updates: [
        { target_id: 'x', input_data, extra: 1 },
        { external_id: 'e', target_id: null, input_data: {} },
      ],
    });
    expect(result.ok).toBe(true);
    const updates = result.ok ? result.value.updates : [];
    expect(updates.map((u: object) => ({ ...u }))).toEqual([
      { target_id: 'x', external_id: undefined, input_data },
      { target_id: null, external_id: 'e', input_data: {} },
    ]);
    expect(updates[0].input_data).toBe(input_data);
  });

  it('reports the list type of a non-list', async () => {
    for (const updates of [{ a: 1 }, 'x', null, 3]) {
      expect(await body(BatchStepDto, { updates })).toEqual({
        ok: false,
        detail: [
          {
            type: 'list_type',
            loc: ['body', 'updates'],
            msg: 'Input should be a valid list',
            input: updates,
          },
        ],
      });
    }
  });

  it('accepts an element exactly when StepUpdateDto accepts it and it names a target (property)', async () => {
    const field = fc.oneof(
      fc.constant(undefined),
      fc.constant(null),
      fc.string({ maxLength: 3 }),
      fc.integer(),
      fc.boolean(),
      fc.constant({}),
    );
    const data = fc.oneof(
      fc.constant(undefined),
      fc.constant(null),
      fc.dictionary(fc.string({ maxLength: 3 }), fc.jsonValue({ maxDepth: 2 })),
      fc.constant({ bad: 'nul\u0000' }),
      fc.constant([1]),
      fc.string({ maxLength: 3 }),
    );
    await fc.assert(
      fc.asyncProperty(field, field, data, async (target_id, external_id, input_data) => {
        const element: Record<string, unknown> = {};
        if (target_id !== undefined) element.target_id = target_id;
        if (external_id !== undefined) element.external_id = external_id;
        if (input_data !== undefined) element.input_data = input_data;

        const single = await body(StepUpdateDto, element);
        const batch = await body(BatchStepDto, { updates: [element] });
        const namesTarget = element.target_id != null || element.external_id != null;
        expect(batch.ok).toBe(single.ok && namesTarget);
        // An element refused alone is refused in a batch with the same field errors, one level down.
        expect(single.ok || batch.ok ? null : batch.detail).toEqual(
          single.ok || batch.ok
            ? null
            : single.detail.map((d) => ({ ...d, loc: ['body', 'updates', 0, ...d.loc.slice(1)] })),
        );
      }),
      { numRuns: 100 },
    );
  });
});

/**
 * Every paged list refuses a bad page (or skip) and limit the same pydantic way, reporting both. One
 * table instead of one copy per route's e2e test; the e2e tests check that each route uses its DTO.
 */
const PAGED_QUERIES = [
  { route: 'GET /campaigns', dto: ListCampaignsQueryDto, offset: 'page', maxLimit: 100 },
  { route: 'GET /blacklists', dto: ListBlacklistsQueryDto, offset: 'page', maxLimit: 100 },
  {
    route: 'GET /blacklists/{id}/phone-numbers',
    dto: ListBlacklistNumbersQueryDto,
    offset: 'skip',
    maxLimit: 1000,
  },
  { route: 'GET /campaigns/{id}/targets', dto: ListTargetsQueryDto, offset: 'page', maxLimit: 100 },
  { route: 'GET /call-logs', dto: ListCallLogsQueryDto, offset: 'page', maxLimit: 1000 },
  {
    route: 'GET /campaigns/{id}/webhooks/deliveries',
    dto: ListDeliveriesQueryDto,
    offset: 'page',
    maxLimit: 1000,
  },
] as const;

async function detailOf(dto: new () => object, query: Record<string, string>) {
  const error = await pipe.transform(query, { type: 'query', metatype: dto }).catch((e) => e);
  expect(error).toBeInstanceOf(RequestValidationError);
  // Declaration order decides the order of the items; compare by field.
  return [...(error as RequestValidationError).items].sort((a, b) =>
    String(a.loc[1]).localeCompare(String(b.loc[1])),
  );
}

describe.each(PAGED_QUERIES)('$route paging', ({ dto, offset, maxLimit }) => {
  it(`refuses ${offset} < 0 and limit < 1 together`, async () => {
    const detail = await detailOf(dto, { [offset]: '-1', limit: '0' });
    expect(detail).toEqual(
      [
        {
          type: 'greater_than_equal',
          loc: ['query', offset],
          msg: 'Input should be greater than or equal to 0',
          input: '-1',
          ctx: { ge: 0 },
        },
        {
          type: 'greater_than_equal',
          loc: ['query', 'limit'],
          msg: 'Input should be greater than or equal to 1',
          input: '0',
          ctx: { ge: 1 },
        },
      ].sort((a, b) => a.loc[1].localeCompare(b.loc[1])),
    );
  });

  it(`refuses a limit above ${maxLimit}`, async () => {
    expect(await detailOf(dto, { limit: String(maxLimit + 1) })).toEqual([
      {
        type: 'less_than_equal',
        loc: ['query', 'limit'],
        msg: `Input should be less than or equal to ${maxLimit}`,
        input: String(maxLimit + 1),
        ctx: { le: maxLimit },
      },
    ]);
  });

  it('refuses text where an integer belongs, with the raw string as input', async () => {
    const detail = await detailOf(dto, { [offset]: 'abc', limit: '1.5' });
    expect(detail).toEqual(
      [
        {
          type: 'int_parsing',
          loc: ['query', offset],
          msg: 'Input should be a valid integer, unable to parse string as an integer',
          input: 'abc',
        },
        {
          type: 'int_parsing',
          loc: ['query', 'limit'],
          msg: 'Input should be a valid integer, unable to parse string as an integer',
          input: '1.5',
        },
      ].sort((a, b) => a.loc[1].localeCompare(b.loc[1])),
    );
  });

  it(`accepts the defaults and the bounds`, async () => {
    await expect(
      pipe.transform({ [offset]: '0', limit: String(maxLimit) }, { type: 'query', metatype: dto }),
    ).resolves.toMatchObject({ [offset]: 0, limit: maxLimit });
  });
});
