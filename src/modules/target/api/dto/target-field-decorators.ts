/**
 * The declared target fields (domain/target-fields.ts) as the request and response DTOs' properties:
 * the same decorators a hand-written property would carry, applied in the order a hand-written one
 * applies them, so the OpenAPI document and the 422 bodies are what they would be.
 */
import { ApiProperty, ApiPropertyOptional, type ApiPropertyOptions } from '@nestjs/swagger';
import {
  PyDict,
  PyOptional,
  PyStorable,
  PyStr,
  PyValueRule,
} from '../../../../common/validation/py-validators.js';
import { type AddedField, FIELDS, PRESENTED_FIELDS } from '../../domain/target-fields.js';

/** What a hand-written property's type would have given `design:type` (@nestjs/swagger reads it). */
function designType(prototype: object, field: AddedField): void {
  Reflect.defineMetadata(
    'design:type',
    field.type === 'string' ? String : Object,
    prototype,
    field.name,
  );
}

/** A declared field's OpenAPI schema: its type, nullability (or the request's default), its words. */
function schema(field: AddedField, doc: AddedField['doc'], request: boolean): ApiPropertyOptions {
  return {
    ...(field.type === 'string'
      ? { type: 'string' }
      : { type: 'object', additionalProperties: true }),
    ...(field.nullable ? { nullable: true } : request ? { default: {} } : {}),
    ...doc,
  } as ApiPropertyOptions;
}

/** Bottom to top, as stacked above a property: the check, the type, optional, the document. */
function requestDecorators(field: AddedField): PropertyDecorator[] {
  return [
    ...(field.rule !== undefined ? [PyValueRule(field.field, field.rule)] : []),
    ...(field.type === 'object' ? [PyStorable(), PyDict()] : [PyStr()]),
    PyOptional(field.nullable ? { nullable: true } : {}),
    ApiPropertyOptional(schema(field, field.doc, true)),
  ];
}

/**
 * Stacked on top of a request DTO's property: the declared fields come right after it, in the
 * schema and in the order class-validator reports errors in.
 */
export function FollowedByAddedFields(): PropertyDecorator {
  return (prototype) => {
    for (const field of FIELDS) {
      designType(prototype, field);
      for (const decorate of requestDecorators(field)) decorate(prototype, field.name);
    }
  };
}

/** Stacked on top of a response DTO's property: the presented declared fields come right after it. */
export function FollowedByPresentedFields(): PropertyDecorator {
  return (prototype) => {
    for (const field of PRESENTED_FIELDS) {
      designType(prototype, field);
      ApiProperty(schema(field, field.presented, false))(prototype, field.name);
    }
  };
}
