import { ArgumentMetadata, Injectable, PipeTransform } from '@nestjs/common';
import { plainToInstance } from 'class-transformer';
import { validate, ValidationError } from 'class-validator';
import { item, Loc, pydantic, PydanticError, PydanticErrorItem } from './pydantic-errors';
import { isPlainObject, RANK_VALUE } from './py-validators';
import { RequestValidationError } from './request-validation.error';
import { unstorableStrings } from './storable';

const PRIMITIVES: unknown[] = [String, Boolean, Number, Array, Symbol, BigInt];

type Source = 'body' | 'query' | 'path';

/**
 * The single place where request DTOs are validated and the FastAPI-style 422 `detail` list is built.
 * Body, query and path DTOs all pass through here; `loc` starts with their source.
 */
@Injectable()
export class PydanticValidationPipe implements PipeTransform {
  async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    const source = toSource(metadata.type);
    if (!source) return value;
    const metatype = metadata.metatype;

    if (source !== 'path') {
      const unstorable = unstorableStrings(value, [source]);
      if (unstorable.length > 0) throw fail(unstorable);
    }
    if (source === 'body') {
      if (value === undefined) throw fail([item(pydantic.missing(), ['body'], null)]);
      if (metatype === Object) {
        if (!isPlainObject(value)) throw fail([item(pydantic.dictType(), ['body'], value)]);
        return value;
      }
    }
    if (!metatype || PRIMITIVES.includes(metatype) || metatype === Object) return value;
    if (source === 'body' && !isPlainObject(value)) {
      throw fail([item(pydantic.modelType(), ['body'], value)]);
    }

    const instance = plainToInstance(metatype, value ?? {});
    const errors = await validate(instance as object, { forbidUnknownValues: false });
    if (errors.length > 0) throw fail(toItems(errors, [source], value));
    return instance;
  }
}

function toSource(type: ArgumentMetadata['type']): Source | null {
  if (type === 'body') return 'body';
  if (type === 'query') return 'query';
  if (type === 'param') return 'path';
  return null;
}

function fail(items: PydanticErrorItem[]): RequestValidationError {
  return new RequestValidationError(items);
}

interface RankedError extends PydanticError {
  rank: number;
  items?: (PydanticError & { index: number })[];
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
    if (best?.items) {
      for (const { index, ...error } of best.items) {
        out.push(item(error, [...path, index], (rawValue as unknown[])[index]));
      }
    } else if (best?.type === 'missing') {
      // FastAPI reports the enclosing object as the input of a missing body field, null elsewhere.
      out.push(item(best, path, loc[0] === 'body' ? raw : null));
    } else if (best) {
      out.push(item(best, path, rawValue));
    }
    // Children are only worth reporting when the field itself has the right type.
    if (error.children?.length && (!best || best.rank >= RANK_VALUE)) {
      out.push(...toItems(error.children, path, rawValue));
    }
  }
  return out;
}

function parseConstraint(message: string): RankedError | null {
  try {
    const parsed = JSON.parse(message);
    return typeof parsed === 'object' && parsed && typeof parsed.rank === 'number' ? parsed : null;
  } catch {
    // A plain class-validator constraint (not one of ours): reported as a value error.
    return { rank: RANK_VALUE, ...pydantic.valueError(message) };
  }
}
