import { DateTime, NullableString } from '../../../../common/http/response-properties.js';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { WeekSchedule as WeekScheduleSchema } from '../../../../common/http/week-schedule.dto.js';
import { WeekSchedule } from '../../../../common/schedule/week-schedule.js';
import {
  CAMPAIGN_STATES,
  CAMPAIGN_TYPES,
  type CampaignState,
  CampaignStep,
  type CampaignType,
  STEP_ON_RECEIVE,
  STEP_TYPES,
} from '../../domain/campaign.js';

export class CampaignStepResponseDto {
  @ApiProperty({ type: 'string', example: 'intake-form' }) friendly_id: string;
  @ApiProperty({ enum: STEP_TYPES }) type: CampaignStep['type'];
  @ApiProperty({ enum: STEP_ON_RECEIVE }) on_receive: CampaignStep['on_receive'];
}

export class AutoPauseResponseDto {
  @ApiProperty({ type: 'integer', example: 20 }) window: number;
  @ApiProperty({ type: 'number', example: 0.5 }) max_failure_ratio: number;
}

export class SmsFollowUpResponseDto {
  @ApiProperty({ type: 'string', format: 'uuid', nullable: true })
  provider_connection_id: string | null;
  @ApiProperty({ type: 'string', isArray: true, example: ['VOICEMAIL', 'NO_RESPONSE'] })
  on_categories: string[];
  @ApiProperty({ type: 'string', example: 'Hi {{patient.first_name}}, please call us back.' })
  template: string;
  @ApiProperty({ enum: ['each_attempt', 'last_attempt'] }) after: 'each_attempt' | 'last_attempt';
}

/** A campaign as the API answers it (`presentCampaign`). */
export class CampaignResponseDto {
  @ApiProperty({ type: 'string', format: 'uuid' }) id: string;
  @ApiProperty({ type: 'string', format: 'uuid' }) organization_id: string;
  @ApiProperty({ type: 'string', example: 'Appointment reminders' }) name: string;
  @ApiProperty({ enum: CAMPAIGN_TYPES }) type: CampaignType;
  @NullableString({ example: '+15550100000' }) caller_id: string | null;
  @ApiProperty({ type: 'integer', example: 3 }) max_attempts: number;
  @ApiProperty({ type: 'integer', example: 60 }) retry_delay_minutes: number;
  @ApiProperty({ type: 'integer', example: 10 }) max_concurrent_calls: number;
  @ApiProperty({ type: () => WeekScheduleSchema, nullable: true })
  calling_window: WeekSchedule | null;
  @ApiProperty({ type: [CampaignStepResponseDto] }) steps: CampaignStepResponseDto[];
  @NullableString() entry_step: string | null;
  @ApiProperty({ type: 'string', format: 'uuid', isArray: true }) blacklist_ids: string[];
  @NullableString({ example: 'https://example.com/hooks/calls' }) webhook_url: string | null;
  @NullableString({
    format: 'uuid',
    description:
      "The provider connection that places the campaign's calls; null: the organization's default connection, else the service's own provider",
  })
  provider_connection_id: string | null;
  @NullableString({
    example: 'US',
    description: "The country its national numbers are read in; null: the organization's",
  })
  default_country: string | null;
  @NullableString({
    description:
      "What is left on a voicemail box (`{{patient.<field>}}` and `{{input_data.<field>}}` placeholders); null: the provider connection's",
  })
  voicemail_message: string | null;
  @ApiPropertyOptional({
    type: 'string',
    example: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
    description: 'Signs the webhook notifications; only in the answer to the creation',
  })
  webhook_secret?: string;
  @ApiProperty({
    enum: CAMPAIGN_STATES,
    description:
      '`active`: calls are placed; `paused`: no call starts (see /pause, /resume); `cancelled`: final, no call ever starts again (see /cancel)',
  })
  state: CampaignState;
  @DateTime({ nullable: true, description: 'When `state` last changed (null: never)' })
  state_changed_at: string | null;
  @ApiProperty({
    type: () => AutoPauseResponseDto,
    nullable: true,
    description: 'The circuit breaker setting (null: off)',
  })
  auto_pause: AutoPauseResponseDto | null;
  @ApiProperty({
    type: () => SmsFollowUpResponseDto,
    nullable: true,
    description: 'The follow-up text setting (null: off)',
  })
  sms_follow_up: SmsFollowUpResponseDto | null;
  @NullableString({
    example: 'auto_pause: 12 of the last 20 calls ended TECHNICAL_FAILURE (max_failure_ratio 0.5)',
    description:
      'Why the campaign is paused: set by the circuit breaker (`auto_pause`); null when paused through the API or not paused',
  })
  paused_reason: string | null;
  @DateTime() created_at: string;
  @DateTime() updated_at: string;
}
