import { createParamDecorator, ExecutionContext, SetMetadata } from '@nestjs/common';
import type { Permission } from '../auth/access.js';
import type { AuthContext } from '../auth/auth-context.js';

export const IS_PUBLIC = 'isPublic';
export const REQUIRED_PERMISSION = 'requiredPermission';
export const CAMPAIGN_SCOPE = 'campaignScope';

/** The route needs no API key (health, metrics, provider webhooks that carry their own signature). */
export const Public = () => SetMetadata(IS_PUBLIC, true);

/**
 * The permission a credential's role must hold to call the route (see ROLE_PERMISSIONS). Every route
 * not @Public() declares one; a route without it is refused to everyone.
 */
export const RequiresPermission = (permission: Permission) =>
  SetMetadata(REQUIRED_PERMISSION, permission);

/**
 * How a route without a `campaign_id` path parameter keeps a campaign-limited key to its campaigns:
 * `handler`, the handler checks the campaign of the resource it loads (404 outside); `filtered`,
 * it answers only the campaigns the key reaches. Without it such a route is refused to those keys
 * (routes with `campaign_id` in their path are checked by the guard).
 */
export const CampaignScope = (how: 'handler' | 'filtered') => SetMetadata(CAMPAIGN_SCOPE, how);

// Controllers take the decorator and the type of what it gives from one import.
export type { AuthContext };

/** The caller's organization, set by the API key guard. */
export const Auth = createParamDecorator((_data: unknown, ctx: ExecutionContext): AuthContext => {
  const req = ctx.switchToHttp().getRequest();
  return req.auth as AuthContext;
});
