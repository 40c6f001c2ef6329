import { PydanticErrorItem } from './pydantic-errors.js';

/** A request that failed validation; the exception filter renders it as FastAPI's 422 body. */
export class RequestValidationError extends Error {
  constructor(readonly items: PydanticErrorItem[]) {
    super('Request validation failed');
  }
}
