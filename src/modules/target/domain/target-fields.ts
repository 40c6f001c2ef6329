/**
 * The target fields a caller gives when adding targets and that are stored as given (checked, not
 * reshaped), declared once, in the request's order: each one's `Target` property (its name on the
 * wire and its column are that name in snake_case), type, value rule, OpenAPI words, and whether the
 * Target response shows it. The request DTO and its fast path, the request mapping, the draft, the
 * new row, the insert, the row mapper, the response and the test builders are built from this list.
 * The fields reshaped when added (the id, the external id, the numbers and their hours, the patient)
 * are written out where they are used. Plain data: the API layer turns it into decorators.
 */
import { type SnakeCase, snakeCase } from '../../../common/persistence/row-of.js';
import { timeZoneError } from '../../../common/schedule/week-schedule.js';
import type { Target } from './target.js';

/** The OpenAPI words of a field, as `openapi.json` has them. */
export interface FieldDoc {
  description?: string;
  example?: unknown;
}

/**
 * `string` (`text`) or `object` (a free-form JSON object, `jsonb`). Left out of a request, a nullable
 * field is null and an object that is not is `{}`.
 */
type Declaration = {
  /**
   * Words for a bad value (pydantic `value_error`), or null when it holds; given whatever was sent,
   * it passes a value of another type (the type check reports that).
   */
  rule?: (value: unknown) => string | null;
  /** The add's request body. */
  doc: FieldDoc;
  /** Shown in the Target response (after `patient`), with these words; absent: not shown. */
  presented?: FieldDoc;
} & (
  | { type: 'string'; nullable: true; field: FieldsOf<string | null> }
  | { type: 'object'; nullable: true; field: FieldsOf<Record<string, unknown> | null> }
  | { type: 'object'; nullable: false; field: FieldsOf<Record<string, unknown>> }
);
/** The `Target` properties of a type, so a declaration's type agrees with its property's. */
type FieldsOf<T> = { [F in keyof Target]: Target[F] extends T ? F : never }[keyof Target];

const DECLARED = [
  {
    field: 'timeZone',
    type: 'string',
    nullable: true,
    rule: timeZoneError,
    doc: {
      example: 'America/Chicago',
      description:
        "The recipient's IANA time zone, when known better than the number's area code (calling rules: docs/compliance.md)",
    },
  },
  { field: 'inputData', type: 'object', nullable: false, doc: {} },
  { field: 'preCallData', type: 'object', nullable: true, doc: {} },
] as const satisfies readonly Declaration[];

type Declared = (typeof DECLARED)[number];
export type AddedFieldName = Declared['field'];
/** The declared fields with their domain types (a draft's and a new target's share of them). */
export type AddedFields = { [F in AddedFieldName]: Target[F] };
/** The declared fields as given to the domain: each may be left out or null. */
export type AddedFieldsInput = { [F in AddedFieldName]?: Target[F] | null };
/** The declared fields the Target response shows, by wire name. */
export type PresentedFields = {
  [F in Extract<Declared, { presented: FieldDoc }> as SnakeCase<F['field']>]: Target[F['field']];
};

export type AddedField = Declaration & { name: string };
/** The declaration with each field's wire name, for the loops that build from it. */
export const FIELDS: readonly AddedField[] = DECLARED.map((f) => ({
  ...f,
  name: snakeCase(f.field),
}));
export const PRESENTED_FIELDS = FIELDS.filter(
  (f): f is AddedField & { presented: FieldDoc } => f.presented !== undefined,
);

/**
 * Sets the declared fields on `to` from `from`, each side naming them by domain name (`field`) or by
 * wire and column name (`name`): the one place that reads the typed objects as records. A field left
 * out or null is its absent value.
 */
export function copyFields<T extends object>(
  to: T,
  toSide: 'field' | 'name',
  from: object,
  fromSide: 'field' | 'name',
  fields: readonly AddedField[] = FIELDS,
): T {
  const given = from as Record<string, unknown>;
  const set = to as Record<string, unknown>;
  for (const f of fields) set[f[toSide]] = given[f[fromSide]] ?? absentValue(f);
  return to;
}

/** A field's value when a request leaves it out (a fresh `{}` each time: it is stored as is). */
export function absentValue(field: AddedField): null | Record<string, unknown> {
  return field.nullable ? null : {};
}

/** Every declared field as a request that leaves them all out has them (test builders start here). */
export function absentFields(): AddedFields {
  return copyFields({}, 'field', {}, 'field') as AddedFields;
}
