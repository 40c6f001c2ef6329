import { createParamDecorator, ExecutionContext, SetMetadata } from '@nestjs/common';
import type { AuthContext } from '../auth/auth-context.js';

export const IS_PUBLIC = 'isPublic';

/** The route needs no API key (health, docs). */
export const Public = () => SetMetadata(IS_PUBLIC, true);

// Controllers take the decorator and the type of what it gives from one import.
export type { AuthContext };

/** The caller's organization, set by the API key guard. */
export const Auth = createParamDecorator((_data: unknown, ctx: ExecutionContext): AuthContext => {
  const req = ctx.switchToHttp().getRequest();
  return req.auth as AuthContext;
});
