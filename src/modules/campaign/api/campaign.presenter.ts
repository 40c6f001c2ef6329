import { normalizeWeekSchedule } from '../../../common/schedule/week-schedule.js';
import { Campaign, CampaignStep } from '../domain/campaign.js';
import type { CampaignResponseDto } from './dto/campaign-response.dto.js';
import type { CreateCampaign } from '../application/campaign.service.js';
import type { CampaignChanges } from '../application/ports/campaign.repository.js';
import type { CampaignStepDto, CreateCampaignDto, UpdateCampaignDto } from './dto/campaign.dto.js';

export function presentCampaign(c: Campaign, withSecret = false): CampaignResponseDto {
  const response: CampaignResponseDto = {
    id: c.id,
    organization_id: c.organizationId,
    name: c.name,
    type: c.type,
    caller_id: c.callerId,
    max_attempts: c.maxAttempts,
    retry_delay_minutes: c.retryDelayMinutes,
    max_concurrent_calls: c.maxConcurrentCalls,
    calling_window: c.callingWindow,
    steps: c.steps,
    entry_step: c.entryStep,
    blacklist_ids: c.blacklistIds,
    webhook_url: c.webhookUrl,
    provider_connection_id: c.providerConnectionId,
    state: c.state,
    state_changed_at: c.stateChangedAt?.toISOString() ?? null,
    auto_pause: c.autoPause,
    sms_follow_up: c.smsFollowUp,
    default_country: c.defaultCountry,
    voicemail_message: c.voicemailMessage,
    paused_reason: c.pausedReason,
    created_at: c.createdAt.toISOString(),
    updated_at: c.updatedAt.toISOString(),
  };
  if (withSecret) response.webhook_secret = c.webhookSecret;
  return response;
}

const toSteps = (steps: CampaignStepDto[] | undefined): CampaignStep[] | undefined =>
  steps?.map((s) => ({
    friendly_id: s.friendly_id,
    type: s.type,
    on_receive: s.on_receive ?? 'merge',
  }));

export function toCampaignChanges(dto: UpdateCampaignDto): CampaignChanges {
  return {
    name: dto.name,
    type: dto.type,
    callerId: dto.caller_id,
    maxAttempts: dto.max_attempts,
    retryDelayMinutes: dto.retry_delay_minutes,
    maxConcurrentCalls: dto.max_concurrent_calls,
    // Each nested setting as sent when it is absent or null (null clears it).
    callingWindow:
      dto.calling_window &&
      normalizeWeekSchedule(dto.calling_window as unknown as Record<string, unknown>),
    steps: toSteps(dto.steps),
    entryStep: dto.entry_step,
    blacklistIds: dto.blacklist_ids,
    webhookUrl: dto.webhook_url,
    defaultCountry: dto.default_country,
    voicemailMessage: dto.voicemail_message,
    providerConnectionId: dto.provider_connection_id,
    autoPause: dto.auto_pause && {
      window: dto.auto_pause.window,
      max_failure_ratio: dto.auto_pause.max_failure_ratio,
    },
    smsFollowUp: dto.sms_follow_up && {
      provider_connection_id: dto.sms_follow_up.provider_connection_id ?? null,
      on_categories: [...new Set(dto.sms_follow_up.on_categories)],
      template: dto.sms_follow_up.template,
      after: dto.sms_follow_up.after ?? 'each_attempt',
    },
  };
}

export function toCreateCampaign(dto: CreateCampaignDto): CreateCampaign {
  const changes = toCampaignChanges(dto);
  return { ...changes, name: dto.name, type: dto.type } as CreateCampaign;
}
