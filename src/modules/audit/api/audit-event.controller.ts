import { Operation } from '../../../common/http/api-operation.js';
import { Controller, Get, Headers, Query, Res } from '@nestjs/common';
import { ApiOkResponse, ApiProduces, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { Audit } from '../../../common/audit/audit.decorators.js';
import { type CsvFile, sendCsv, wantsCsv } from '../../../common/http/csv-download.js';
import { lowerBound, upperBound } from '../../../common/dates/date-bounds.js';
import {
  Auth,
  type AuthContext,
  RequiresPermission,
} from '../../../common/http/auth.decorators.js';
import { offsetOf, pageEnvelope } from '../../../common/paging/paging.js';
import { AuditTrailService } from '../application/audit-trail.service.js';
import type { AuditEventQuery } from '../application/ports/audit-event.store.js';
import type { AuditEvent } from '../domain/audit-event.js';
import {
  AUDIT_CSV_COLUMNS,
  auditEventCsvRow,
  presentAuditEvent,
  presentVerification,
} from './audit-event.presenter.js';
import {
  AuditChainResponseDto,
  AuditEventPageResponseDto,
  ListAuditEventsQueryDto,
} from './dto/audit-event.dto.js';

const AUDIT_EVENTS_CSV: CsvFile<AuditEvent> = {
  filename: 'audit-events.csv',
  header: AUDIT_CSV_COLUMNS,
  line: auditEventCsvRow,
};

@ApiTags('audit')
@Controller('api/v1/audit-events')
export class AuditEventController {
  constructor(private readonly trail: AuditTrailService) {}

  @RequiresPermission('audit_events.read')
  @Audit({
    action: 'audit_event.list',
    resource: 'audit_event',
    csvExport: 'audit_event.export',
    ids: (_req, result) =>
      (result as { audit_events?: { id: string }[] } | undefined)?.audit_events?.map((e) => e.id),
  })
  @Get()
  @Operation(
    'list_audit_events_api_v1_audit_events_get',
    'Audit events',
    "The organization's audit events, oldest first, a page at a time (admin only); with " +
      '`Accept: text/csv`, every event the filters match as one CSV file (page and limit ignored).',
  )
  @ApiProduces('application/json', 'text/csv')
  @ApiOkResponse({ type: AuditEventPageResponseDto })
  async list(
    @Auth() auth: AuthContext,
    @Query() q: ListAuditEventsQueryDto,
    @Headers('accept') accept: string | undefined,
    @Res({ passthrough: true }) res: Response,
  ) {
    const to = upperBound(q.to);
    const query: AuditEventQuery = {
      organizationId: auth.organizationId,
      actorId: q.actor_id ?? undefined,
      action: q.action ?? undefined,
      resourceType: q.resource_type ?? undefined,
      resourceId: q.resource_id ?? undefined,
      campaignId: q.campaign_id ?? undefined,
      from: lowerBound(q.from),
      // Inclusive to the millisecond (see date-bounds); the store compares `occurred_at < to`.
      to: to && new Date(to.getTime() + 1),
    };
    if (wantsCsv(accept)) {
      return sendCsv(res, AUDIT_EVENTS_CSV, this.trail.all(query));
    }
    const { events, total } = await this.trail.page(query, offsetOf(q), q.limit);
    return { audit_events: events.map(presentAuditEvent), ...pageEnvelope(q, total) };
  }

  @RequiresPermission('audit_events.read')
  @Audit({ action: 'audit_chain.verify', resource: 'audit_chain' })
  @Get('verify')
  @Operation(
    'verify_audit_events_api_v1_audit_events_verify_get',
    'Verify the audit chain',
    "Recomputes the organization's hash chain from its first event and names the first event " +
      'that does not match (changed, removed or out of place), if any.',
  )
  @ApiOkResponse({ type: AuditChainResponseDto })
  async verify(@Auth() auth: AuthContext) {
    return presentVerification(await this.trail.verify(auth.organizationId));
  }
}
