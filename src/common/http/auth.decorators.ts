import { createParamDecorator, ExecutionContext, SetMetadata } from '@nestjs/common';

export const IS_PUBLIC = 'isPublic';

/** The route needs no API key (health, docs). */
export const Public = () => SetMetadata(IS_PUBLIC, true);

export interface AuthContext {
  organizationId: string;
  apiKeyId: string;
}

/** The caller's organization, set by the API key guard. */
export const Auth = createParamDecorator((_data: unknown, ctx: ExecutionContext): AuthContext => {
  const req = ctx.switchToHttp().getRequest();
  return req.auth as AuthContext;
});
