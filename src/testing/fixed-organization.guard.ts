import { CanActivate, ExecutionContext } from '@nestjs/common';
import type { AuthContext } from '../common/auth/auth-context.js';

/** Authenticates every request as one organization: for HTTP tests built on the fakes. */
export class FixedOrganizationGuard implements CanActivate {
  constructor(readonly auth: AuthContext) {}

  canActivate(context: ExecutionContext): boolean {
    context.switchToHttp().getRequest().auth = this.auth;
    return true;
  }
}
