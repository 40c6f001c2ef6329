import fc from 'fast-check';
import { PydanticValidationPipe } from '../../../../common/validation/pydantic-validation.pipe.js';
import { RequestValidationError } from '../../../../common/validation/request-validation.error.js';
import { BatchStepDto, StepUpdateDto } from './step.dto.js';

const pipe = new PydanticValidationPipe();
const body = (metatype: new () => object, value: unknown) =>
  pipe.transform(value, { type: 'body', metatype }).then(
    (v) => ({ ok: true as const, value: v as any }),
    (e: unknown) => {
      if (e instanceof RequestValidationError) return { ok: false as const, detail: e.items };
      throw e;
    },
  );

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
