import fc from 'fast-check';
import { PydanticValidationPipe } from '../../../../common/validation/pydantic-validation.pipe.js';
import { RequestValidationError } from '../../../../common/validation/request-validation.error.js';
import { toAddTargetInput } from '../target.request-mapper.js';
import { AddTargetsDto, MAX_EXTERNAL_ID_LENGTH, TargetInputDto } from './add-targets.dto.js';

const pipe = new PydanticValidationPipe();
const body = (metatype: new () => object, value: unknown) =>
  pipe.transform(value, { type: 'body', metatype }).then(
    (v) => ({ ok: true as const, value: v as any }),
    (e: unknown) => {
      if (e instanceof RequestValidationError) return { ok: false as const, detail: e.items };
      throw e;
    },
  );

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
