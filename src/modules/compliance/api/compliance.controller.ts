import { Operation } from '../../../common/http/api-operation.js';
import { Audit, NotAudited, listedIds } from '../../../common/audit/audit.decorators.js';
import { Body, Controller, Get, Headers, Put, Query, Res } from '@nestjs/common';
import { ApiOkResponse, ApiProduces, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { lowerBound, upperBound } from '../../../common/dates/date-bounds.js';
import { type CsvFile, sendCsv, wantsCsv } from '../../../common/http/csv-download.js';
import {
  Auth,
  type AuthContext,
  RequiresPermission,
  CampaignScope,
} from '../../../common/http/auth.decorators.js';
import { ComplianceService } from '../application/compliance.service.js';
import { changeActorOf } from '../domain/change-actor.js';
import { policyWarnings, type CompliancePolicy } from '../domain/compliance-policy.js';
import { policyDocument } from '../domain/policy-document.js';
import type { ComplianceDecision, DecisionQuery } from '../domain/compliance-decision.js';
import { hoursWords } from '../domain/state-rules.js';
import { CompliancePolicyDto, CompliancePolicyResponseDto } from './dto/compliance-policy.dto.js';
import {
  ComplianceDecisionPageResponseDto,
  ListDecisionsQueryDto,
} from './dto/compliance-decisions.dto.js';

const DECISION_FIELDS = [
  'id',
  'campaign_id',
  'target_id',
  'rule',
  'action',
  'reason',
  'time_zone',
  'local_time',
  'deferred_until',
  'decided_at',
] as const;

const presentDecision = (d: ComplianceDecision) => ({
  id: d.id,
  campaign_id: d.campaignId,
  target_id: d.targetId,
  rule: d.rule,
  action: d.action,
  reason: d.reason,
  time_zone: d.timeZone,
  local_time: d.localTime,
  deferred_until: d.deferredUntil?.toISOString() ?? null,
  decided_at: d.decidedAt.toISOString(),
});

const DECISIONS_CSV: CsvFile<ComplianceDecision> = {
  filename: 'compliance-decisions.csv',
  header: DECISION_FIELDS,
  line: (decision) => {
    const d = presentDecision(decision);
    return DECISION_FIELDS.map((f) => d[f] ?? '');
  },
};

const policyFromBody = (b: CompliancePolicyDto, current: CompliancePolicy): CompliancePolicy => ({
  quietHours: b.quiet_hours ? { start: b.quiet_hours.start, end: b.quiet_hours.end } : null,
  stateRules: b.state_rules,
  maxCallsPerNumber: {
    per24h: b.max_calls_per_number.per_24h,
    per7d: b.max_calls_per_number.per_7d,
  },
  restrictedDates: b.restricted_dates
    .map((d) => ({ date: d.date, reason: d.reason }))
    .sort((a, b) => a.date.localeCompare(b.date)),
  defaultTimeZone: b.default_time_zone,
  // Optional so that a client that predates it keeps the organization's country on a PUT.
  defaultCountry: b.default_country ?? current.defaultCountry,
});

@ApiTags('compliance')
@Controller('api/v1/compliance')
export class ComplianceController {
  constructor(private readonly compliance: ComplianceService) {}

  private present(policy: CompliancePolicy) {
    const pack = this.compliance.stateRulesInForce();
    return {
      ...policyDocument(policy),
      warnings: policyWarnings(policy),
      state_rule_pack: {
        version: pack.version,
        scope: pack.scope,
        rules: pack.rules.map((r) => ({
          id: r.id,
          state: r.state,
          name: r.name,
          effective: r.effective,
          hours: hoursWords(r.hours),
          max_calls_per_24h: r.maxCallsPer24h,
          citation: r.citation,
        })),
      },
    };
  }

  @RequiresPermission('compliance.read')
  @NotAudited()
  @Get('policy')
  @Operation(
    'get_compliance_policy_api_v1_compliance_policy_get',
    "The organization's calling policy",
    'Quiet hours, state rules, caps per number, restricted dates and the default zone (the defaults ' +
      'until set), with the state rules in force and their citations (docs/compliance.md).',
  )
  @ApiOkResponse({ type: CompliancePolicyResponseDto })
  async getPolicy(@Auth() auth: AuthContext) {
    return this.present(await this.compliance.policy(auth.organizationId));
  }

  @RequiresPermission('compliance.write')
  @Audit<ComplianceController>({
    action: 'policy.update',
    resource: 'policy',
    values: { before: (c, auth) => c.getPolicy(auth) },
  })
  @Put('policy')
  @Operation(
    'put_compliance_policy_api_v1_compliance_policy_put',
    "Replace the organization's calling policy",
    'The whole policy; it applies to the next call of every campaign.',
  )
  @ApiOkResponse({ type: CompliancePolicyResponseDto })
  async putPolicy(@Auth() auth: AuthContext, @Body() body: CompliancePolicyDto) {
    const policy = await this.compliance.setPolicy(
      auth.organizationId,
      policyFromBody(body, await this.compliance.policy(auth.organizationId)),
      changeActorOf(auth.principal),
    );
    return this.present(policy);
  }

  @RequiresPermission('compliance.read')
  @CampaignScope('filtered')
  @Audit({
    action: 'compliance_decision.list',
    resource: 'compliance_decision',
    csvExport: 'compliance_decision.export',
    ids: listedIds('decisions'),
  })
  @Get('decisions')
  @Operation(
    'list_compliance_decisions_api_v1_compliance_decisions_get',
    'Decisions of the calling rules',
    'Every deferral or refusal a calling rule made, oldest first, a page at a time; with ' +
      '`Accept: text/csv`, every decision the filters match as one CSV file (limit and skip ignored).',
  )
  @ApiProduces('application/json', 'text/csv')
  @ApiOkResponse({ type: ComplianceDecisionPageResponseDto })
  async decisions(
    @Auth() auth: AuthContext,
    @Query() q: ListDecisionsQueryDto,
    @Headers('accept') accept: string | undefined,
    @Res({ passthrough: true }) res: Response,
  ) {
    const to = upperBound(q.to);
    const query: DecisionQuery = {
      organizationId: auth.organizationId,
      campaignId: q.campaign_id ?? null,
      campaignIds: auth.campaignIds,
      from: lowerBound(q.from),
      // Inclusive to the millisecond (see date-bounds): the log compares `decided_at < to`.
      to: to && new Date(to.getTime() + 1),
    };
    if (wantsCsv(accept)) {
      return sendCsv(res, DECISIONS_CSV, this.compliance.allDecisions(query));
    }
    const { decisions, total } = await this.compliance.decisions(query, q.skip, q.limit);
    return { decisions: decisions.map(presentDecision), total };
  }
}
