import { Module, Provider } from '@nestjs/common';
import { APP_INTERCEPTOR } from '@nestjs/core';
import { AuditEventController } from './api/audit-event.controller.js';
import { AuditInterceptor } from './api/audit.interceptor.js';
import { RequestAuditService } from './application/request-audit.service.js';
import { AuditTrailService } from './application/audit-trail.service.js';
import { AuditEventStore } from './application/ports/audit-event.store.js';
import { SqlAuditEventStore } from './infrastructure/audit-event-store.sql.js';

/** The adapters of this module's ports, bound by the root module (where another may be chosen). */
export const AUDIT_ADAPTERS: Provider[] = [
  { provide: AuditEventStore, useClass: SqlAuditEventStore },
];

/**
 * The audit trail (`audit_events`): who read which patient and who changed what, chained per
 * organization. Routes declare their action with `@Audit` and the interceptor records it; other
 * modules call `AuditTrailService.record`; the API key guard records refusals through `RequestAuditService`.
 */
@Module({
  controllers: [AuditEventController],
  providers: [
    AuditTrailService,
    RequestAuditService,
    { provide: APP_INTERCEPTOR, useClass: AuditInterceptor },
  ],
  exports: [AuditTrailService, RequestAuditService],
})
export class AuditModule {}
