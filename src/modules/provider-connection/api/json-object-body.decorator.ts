import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import { item, pydantic } from '../../../common/validation/pydantic-errors.js';
import { isPlainObject } from '../../../common/validation/py-validators.js';
import { RequestValidationError } from '../../../common/validation/request-validation.error.js';
import { unstorableStrings } from '../../../common/validation/storable.js';
import { maskCredentialInputs } from './provider-connection.presenter.js';

/**
 * The JSON body, which must be a storable object (422 as the global pipe words it otherwise), exactly
 * as received: for a controller that validates it itself (models that depend on stored state).
 */
export const JsonObjectBody = createParamDecorator((_data: unknown, ctx: ExecutionContext) => {
  const body: unknown = ctx.switchToHttp().getRequest().body;
  if (body === undefined) {
    throw new RequestValidationError([item(pydantic.missing(), ['body'], null)]);
  }
  const unstorable = unstorableStrings(body, ['body']);
  if (unstorable.length > 0) {
    throw new RequestValidationError(maskCredentialInputs(unstorable, body));
  }
  if (!isPlainObject(body)) {
    throw new RequestValidationError([item(pydantic.modelType(), ['body'], body)]);
  }
  return body;
});
