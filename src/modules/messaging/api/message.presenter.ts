import type { Message } from '../domain/message.js';
import type { MessageResponseDto } from './dto/message-response.dto.js';

export function presentMessage(m: Message): MessageResponseDto {
  return {
    id: m.id,
    campaign_id: m.campaignId,
    target_id: m.targetId,
    call_log_id: m.callLogId,
    direction: m.direction,
    to: m.to,
    from: m.from,
    body: m.body,
    status: m.status,
    provider: m.provider,
    provider_connection_id: m.providerConnectionId,
    provider_message_id: m.providerMessageId,
    error_code: m.errorCode,
    error_message: m.errorMessage,
    keyword: m.keyword,
    send_after: m.sendAfter?.toISOString() ?? null,
    created_at: m.createdAt.toISOString(),
    updated_at: m.updatedAt.toISOString(),
    sent_at: m.sentAt?.toISOString() ?? null,
    settled_at: m.settledAt?.toISOString() ?? null,
  };
}
