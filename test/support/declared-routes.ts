import { INestApplication, RequestMethod } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants.js';
import { MetadataScanner, ModulesContainer, Reflector } from '@nestjs/core';
import type { Permission } from '../../src/common/auth/access.js';
import {
  AUDIT_SPEC,
  type AuditSpec,
  NOT_AUDITED,
} from '../../src/common/audit/audit.decorators.js';
import {
  CAMPAIGN_SCOPE,
  IS_PUBLIC,
  REQUIRED_PERMISSION,
} from '../../src/common/http/auth.decorators.js';

export interface DeclaredRoute {
  method: string;
  /** Express style: `/api/v1/targets/:target_id`. */
  path: string;
  /** What the route says of itself: public, a permission, or nothing (a defect). */
  isPublic: boolean;
  permission: Permission | undefined;
  campaignScope: string | undefined;
  /** The audit action it declares (`@Audit`), or that it reads no patient data (`@NotAudited`). */
  audit: AuditSpec | undefined;
  notAudited: boolean;
}

/** Every route the running app serves, read from Nest's registered controllers at runtime. */
export function declaredRoutes(app: INestApplication): DeclaredRoute[] {
  const reflector = new Reflector();
  const scanner = new MetadataScanner();
  const routes: DeclaredRoute[] = [];
  for (const module of app.get(ModulesContainer).values()) {
    for (const wrapper of module.controllers.values()) {
      const controller = wrapper.metatype as (new (...args: never[]) => object) | null;
      if (!controller) continue;
      const prefix = Reflect.getMetadata(PATH_METADATA, controller) as string | undefined;
      for (const name of scanner.getAllMethodNames(controller.prototype)) {
        const handler = (controller.prototype as Record<string, () => unknown>)[name];
        const path = Reflect.getMetadata(PATH_METADATA, handler) as string | string[] | undefined;
        const method = Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod | undefined;
        if (path === undefined || method === undefined) continue;
        const targets = [handler, controller];
        for (const p of Array.isArray(path) ? path : [path]) {
          routes.push({
            method: RequestMethod[method],
            path: ('/' + [prefix ?? '', p].filter((x) => x && x !== '/').join('/')).replace(
              /\/+/g,
              '/',
            ),
            isPublic: reflector.getAllAndOverride<boolean>(IS_PUBLIC, targets) === true,
            permission: reflector.getAllAndOverride<Permission>(REQUIRED_PERMISSION, targets),
            campaignScope: reflector.getAllAndOverride<string>(CAMPAIGN_SCOPE, targets),
            audit: reflector.get<AuditSpec | undefined>(AUDIT_SPEC, handler),
            notAudited: reflector.get<boolean>(NOT_AUDITED, handler) === true,
          });
        }
      }
    }
  }
  return routes.sort((a, b) => a.path.localeCompare(b.path) || a.method.localeCompare(b.method));
}
