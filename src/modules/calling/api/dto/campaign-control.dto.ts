import { DateTime } from '../../../../common/http/response-properties.js';
import { ApiProperty } from '@nestjs/swagger';
import { CAMPAIGN_STATES, type CampaignState } from '../../../campaign/domain/campaign.js';
import { TARGET_STATUS_FILTERS } from '../../../target/domain/target.js';
import { PyRequired, PyUuid } from '../../../../common/validation/py-validators.js';

/** `{campaign_id}` of the control and stats routes: a malformed id is a 422 `uuid_parsing`. */
export class CampaignIdParamsDto {
  @PyRequired({ description: 'The ID of the campaign.' })
  @PyUuid()
  campaign_id: string;
}

const counts = (description: string, keys?: readonly string[]) =>
  ApiProperty({
    type: 'object',
    description,
    additionalProperties: { type: 'integer' },
    ...(keys && { properties: Object.fromEntries(keys.map((k) => [k, { type: 'integer' }])) }),
  });

export class CampaignTargetStatsDto {
  @ApiProperty({ type: 'integer', description: 'Targets of the campaign' }) total: number;
  @counts('Targets by status; every status is present (0 when none)', TARGET_STATUS_FILTERS)
  by_status: Record<string, number>;
  @counts('Targets by outcome category, for those that have one')
  by_category: Record<string, number>;
  @counts('Targets by resolution, for those that have one')
  by_resolution: Record<string, number>;
}

/** `GET /campaigns/{id}/stats` (docs/calling.md: Campaign control and progress). */
export class CampaignStatsResponseDto {
  @ApiProperty({ type: 'string', format: 'uuid' }) campaign_id: string;
  @ApiProperty({ enum: CAMPAIGN_STATES }) state: CampaignState;
  @DateTime({ description: 'When the counts were read' }) as_of: string;
  @ApiProperty({ type: CampaignTargetStatsDto }) targets: CampaignTargetStatsDto;
  @ApiProperty({
    type: 'integer',
    description: 'Call attempts made (call logs, also of targets deleted since)',
  })
  attempts: number;
  @ApiProperty({ type: 'integer', description: 'Targets `In Progress` or `Post-processing`' })
  calls_in_flight: number;
  @ApiProperty({ type: 'integer', description: 'Calls that have ended' }) ended_calls: number;
  @ApiProperty({
    type: 'integer',
    description: 'Ended calls that reached someone (outcome GOOD, HUMAN_ONLY or DNC_REQUESTED)',
  })
  connected_calls: number;
  @ApiProperty({
    type: 'number',
    nullable: true,
    description: 'connected_calls / ended_calls, 4 decimals (null before any call ended)',
  })
  connect_rate: number | null;
  @ApiProperty({
    type: 'number',
    nullable: true,
    description: 'Mean length of the connected calls in seconds (null: none yet)',
  })
  average_call_seconds: number | null;
  @ApiProperty({ type: 'integer', description: '`Scheduled` targets due now' }) due_now: number;
  @ApiProperty({ type: 'integer', description: '`Scheduled` targets due later (retries, windows)' })
  due_later: number;
  @ApiProperty({
    type: 'object',
    additionalProperties: { type: 'integer' },
    example: { quiet_hours: 12, organization_limit: 1 },
    description:
      '`Scheduled` targets a calling rule holds right now, by rule (quiet_hours, state_hours, ' +
      'state_limit, organization_limit, restricted_date); see docs/compliance.md',
  })
  held_by_rule: Record<string, number>;
  @DateTime({
    nullable: true,
    description: 'The earliest future scheduled_time of a `Scheduled` target',
  })
  next_scheduled_time: string | null;
  @ApiProperty({ type: 'number', description: 'Calls started a minute over the last 15 minutes' })
  recent_calls_per_minute: number;
  @DateTime({
    nullable: true,
    description:
      'When the Scheduled and in-flight targets are expected to be done: one call each at the recent ' +
      'call rate (before any: max_concurrent_calls calls of the average length), counting only time ' +
      'the calling window is open, and none before the time a calling rule holds it to or its ' +
      'scheduled time: never before the last remaining call may start. null when paused or ' +
      'cancelled, with nothing left, with no rate known yet, or beyond 60 days.',
  })
  estimated_completion_at: string | null;
  @DateTime({
    nullable: true,
    description:
      'When calling rules make the estimate later than the call rate alone would (or it is unknown): ' +
      'the latest time a rule holds a remaining target to (rounded up to the minute); else null',
  })
  estimate_held_until: string | null;
  @ApiProperty({
    type: 'object',
    additionalProperties: { type: 'integer' },
    example: { quiet_hours: 3 },
    description:
      'With estimate_held_until: the targets the rules hold, by rule (as held_by_rule); else {}',
  })
  estimate_held_by_rule: Record<string, number>;
}
