import { ArgumentMetadata, Injectable, PipeTransform } from '@nestjs/common';
import { plainToInstance } from 'class-transformer';
import { validate, ValidationError } from 'class-validator';
import { item, Loc, pydantic, PydanticError, PydanticErrorItem } from './pydantic-errors.js';
import {
  isPlainObject,
  modelRuleErrors,
  parseConstraintMessage,
  RANK_VALUE,
} from './py-validators.js';
import { RequestValidationError } from './request-validation.error.js';
import { isPlainJson } from './plain-json.js';
import { unstorableStrings } from './storable.js';
import { withoutUnsafeKeys } from './transform-safe.js';

/**
 * The type of a free-form JSON object body that may be left out (the reference does not require it, as
 * FastAPI's `Body({})`): no body, an empty one or `null` is `{}`; anything else must be an object.
 */
export class OptionalJsonObject {
  [key: string]: unknown;
}

const PRIMITIVES: unknown[] = [String, Boolean, Number, Array, Symbol, BigInt];

type Source = 'body' | 'query' | 'path';

/**
 * The single place where request DTOs are validated and the FastAPI-style 422 `detail` list is built.
 * Body, query and path DTOs all pass through here; `loc` starts with their source.
 */
@Injectable()
export class PydanticValidationPipe implements PipeTransform {
  async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    const source = SOURCES[metadata.type];
    if (!source) return value;
    const metatype = metadata.metatype;
    // A JSON body whose text showed it has no unstorable string and no unsafe key is not walked for them.
    const plain = isPlainJson(value);

    if (source !== 'path' && !plain) {
      const unstorable = unstorableStrings(value, [source]);
      if (unstorable.length > 0) throw fail(unstorable);
    }
    if (source === 'query') value = lastOfRepeated(value);
    if (source === 'body') {
      // FastAPI treats a `null` body like no body at all.
      if (value === undefined || value === null) {
        if (metatype === OptionalJsonObject) return {};
        throw fail([item(pydantic.missing(), ['body'], null)]);
      }
      if (metatype === Object || metatype === OptionalJsonObject) {
        if (!isPlainObject(value)) throw fail([item(pydantic.dictType(), ['body'], value)]);
        return value;
      }
    }
    if (!metatype || PRIMITIVES.includes(metatype) || metatype === Object) return value;
    if (source === 'body' && !isPlainObject(value)) {
      throw fail([item(pydantic.modelType(), ['body'], value)]);
    }

    const instance = plainToInstance(metatype, plain ? value : withoutUnsafeKeys(value ?? {}));
    const errors = await validate(instance as object, { forbidUnknownValues: false });
    if (errors.length > 0) throw fail(toItems(errors, [source], value));
    // Like pydantic's `model_validator(mode="after")`: only once every field is valid.
    const ruleErrors = modelRuleErrors(metatype, instance);
    if (ruleErrors.length > 0) throw fail(ruleErrors.map((e) => item(e, [source], value)));
    return withSafeIntegers(instance as Record<string, unknown>);
  }
}

/**
 * An integer beyond 2^53 that passed its bounds (`page=9007199254740993`: pydantic has no upper bound on
 * a page) is checked as a BigInt but handed on as a number, capped at 2^53 - 1: a page, offset or id
 * that far out finds nothing, and SQL never sees a number it cannot read.
 */
function withSafeIntegers<T extends Record<string, unknown>>(model: T): T {
  for (const [key, value] of Object.entries(model)) {
    if (typeof value === 'bigint') {
      (model as Record<string, unknown>)[key] =
        value > BigInt(Number.MAX_SAFE_INTEGER) ? Number.MAX_SAFE_INTEGER : Number(value);
    }
  }
  return model;
}

/** FastAPI reads the last value of a repeated query parameter (`?limit=5&limit=x` is `x`). */
function lastOfRepeated(query: unknown): unknown {
  if (!isPlainObject(query)) return query;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(query)) {
    out[key] = Array.isArray(value) ? value[value.length - 1] : value;
  }
  return out;
}

const SOURCES: Partial<Record<ArgumentMetadata['type'], Source>> = {
  body: 'body',
  query: 'query',
  param: 'path',
};

function fail(items: PydanticErrorItem[]): RequestValidationError {
  return new RequestValidationError(items);
}

interface RankedError extends PydanticError {
  rank: number;
  /** Errors of list elements, by index. */
  items?: (PydanticError & { index: number })[];
  /** Errors deeper inside the field (see py-located.ts), with their own inputs. */
  located?: (PydanticError & { at: Loc; input: unknown })[];
}

/** Walks class-validator's tree; one error per field (lowest rank), every failing field reported. */
export function toItems(errors: ValidationError[], loc: Loc, raw: unknown): PydanticErrorItem[] {
  const out: PydanticErrorItem[] = [];
  for (const error of errors) {
    const key = Array.isArray(raw) ? Number(error.property) : error.property;
    const path = [...loc, key];
    const rawValue = isPlainObject(raw) || Array.isArray(raw) ? (raw as any)[key] : undefined;

    // class-validator's own "nestedValidation" repeats what PyModel/PyModelList report as model_type.
    const ranked = Object.entries(error.constraints ?? {})
      .filter(([name]) => name !== 'nestedValidation')
      .map(([, message]) => parseConstraint(message))
      .filter((e): e is RankedError => e !== null)
      .sort((a, b) => a.rank - b.rank);
    const best = ranked[0];
    const own: PydanticErrorItem[] = [];
    if (best?.located) {
      for (const { at, input, ...located } of best.located) {
        own.push(item(located, [...path, ...at], input));
      }
    } else if (best?.items) {
      for (const { index, ...error } of best.items) {
        own.push(item(error, [...path, index], (rawValue as unknown[])[index]));
      }
    } else if (best?.type === 'missing') {
      // FastAPI reports the enclosing object as the input of a missing body field, null elsewhere.
      own.push(item(best, path, loc[0] === 'body' ? raw : null));
    } else if (best) {
      own.push(item(best, path, rawValue));
    }
    // Children are only worth reporting when the field itself has the right type.
    if (error.children?.length && (!best || best.rank >= RANK_VALUE)) {
      own.push(...toItems(error.children, path, rawValue));
    }
    out.push(...inElementOrder(own, path.length));
  }
  return out;
}

/** pydantic reports a list element by element: element-level and field-level errors interleaved. */
function inElementOrder(items: PydanticErrorItem[], depth: number): PydanticErrorItem[] {
  const indexOf = (i: PydanticErrorItem) =>
    typeof i.loc[depth] === 'number' ? (i.loc[depth] as number) : -1;
  return items
    .map((entry, order) => ({ entry, order }))
    .sort((a, b) => indexOf(a.entry) - indexOf(b.entry) || a.order - b.order)
    .map(({ entry }) => entry);
}

function parseConstraint(message: string): RankedError | null {
  try {
    const parsed = parseConstraintMessage(message) as RankedError | null;
    return typeof parsed === 'object' && parsed && typeof parsed.rank === 'number' ? parsed : null;
  } catch {
    // A plain class-validator constraint (not one of ours): reported as a value error.
    return { rank: RANK_VALUE, ...pydantic.valueError(message) };
  }
}
