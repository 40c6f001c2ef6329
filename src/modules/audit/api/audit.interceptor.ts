import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import { ModuleRef, Reflector } from '@nestjs/core';
import type { Request } from 'express';
import { concatMap, type Observable } from 'rxjs';
import {
  AUDIT_SPEC,
  type AuditedRequest,
  type AuditSpec,
} from '../../../common/audit/audit.decorators.js';
import type { AuthContext } from '../../../common/auth/auth-context.js';
import { wantsCsv } from '../../../common/http/csv-download.js';
import { RequestAuditService } from '../application/request-audit.service.js';

type AuthedRequest = Request & { auth?: AuthContext };

/**
 * Records the audit event a route declares (`@Audit`) between the handler's answer and its
 * serialisation: the answer is held until the event is committed, and a failed write becomes the
 * request's error (500), so no data leaves without its event. A request the handler refuses (404,
 * 409, 422) read and changed nothing and is not recorded; a 403 is, by the guard. A CSV download is
 * streamed by its handler, so its event is committed before the handler starts.
 */
@Injectable()
export class AuditInterceptor implements NestInterceptor {
  constructor(
    private readonly reflector: Reflector,
    private readonly audit: RequestAuditService,
    private readonly moduleRef: ModuleRef,
  ) {}

  async intercept(context: ExecutionContext, next: CallHandler): Promise<Observable<unknown>> {
    if (context.getType() !== 'http') return next.handle();
    const spec = this.reflector.get<AuditSpec | undefined>(AUDIT_SPEC, context.getHandler());
    const req = context.switchToHttp().getRequest<AuthedRequest>();
    if (!spec || !req.auth) return next.handle();
    const authed = req as AuthedRequest & { auth: AuthContext };
    if (spec.csvExport && wantsCsv(req.headers.accept)) {
      await this.audit.allowed(authed, spec, spec.csvExport, undefined);
      return next.handle();
    }
    const before = await this.valuesBefore(context, spec, authed);
    const action = spec.refine?.(req as unknown as AuditedRequest) ?? spec.action;
    return next.handle().pipe(
      concatMap(async (result: unknown) => {
        await this.audit.allowed(authed, spec, action, result, before);
        return result;
      }),
    );
  }

  /** What a change's `values.before` reads (the route's own read of the resource), if declared. */
  private async valuesBefore(
    context: ExecutionContext,
    spec: AuditSpec,
    req: AuthedRequest & { auth: AuthContext },
  ): Promise<unknown> {
    if (!spec.values?.before) return undefined;
    const controller = this.moduleRef.get(context.getClass(), { strict: false });
    try {
      return await spec.values.before(controller, req.auth, {
        params: req.params as Record<string, string | undefined>,
        query: req.query as Record<string, unknown>,
        body: req.body,
      });
    } catch {
      // A resource that cannot be read is refused by the handler itself (404, 422): nothing to record.
      return undefined;
    }
  }
}
