import { DateTime, NullableString } from '../../../../common/http/response-properties.js';
import { ApiProperty } from '@nestjs/swagger';
import { MESSAGE_DIRECTIONS, MESSAGE_STATUSES } from '../../domain/message.js';

/** A text as the API answers it (`presentMessage`). */
export class MessageResponseDto {
  @ApiProperty({ type: 'string', format: 'uuid' }) id: string;
  @ApiProperty({ type: 'string', format: 'uuid', nullable: true }) campaign_id: string | null;
  @ApiProperty({ type: 'string', format: 'uuid', nullable: true }) target_id: string | null;
  @ApiProperty({
    type: 'integer',
    nullable: true,
    description: 'The call a follow-up text follows',
  })
  call_log_id: number | null;
  @ApiProperty({ enum: MESSAGE_DIRECTIONS }) direction: string;
  @ApiProperty({ type: 'string', example: '+15551230000' }) to: string;
  @NullableString({ example: '+15550000000' }) from: string | null;
  @ApiProperty({ type: 'string' }) body: string;
  @ApiProperty({
    enum: MESSAGE_STATUSES,
    description:
      '`queued` (waiting, possibly held by the calling rules), `sent`, then `delivered` / `undelivered` / `failed`; `received` for inbound texts',
  })
  status: string;
  @NullableString({ example: 'simulated' }) provider: string | null;
  @ApiProperty({ type: 'string', format: 'uuid', nullable: true })
  provider_connection_id: string | null;
  @NullableString() provider_message_id: string | null;
  @NullableString({
    example: 'do_not_call',
    description:
      "The provider's error code (Twilio's numbers), or why our rules stopped it: do_not_call, calling_rules, campaign_cancelled, texts_not_supported, provider_error",
  })
  error_code: string | null;
  @NullableString() error_message: string | null;
  @ApiProperty({
    enum: ['opt_out', 'opt_in', 'help'],
    nullable: true,
    description:
      "What an inbound text asked for: `opt_out` (STOP, STOPALL, UNSUBSCRIBE, CANCEL, END, QUIT, REVOKE, OPTOUT: the number went on the do-not-call list), `opt_in` (START, UNSTOP: recorded; the do-not-call entry is removed only through the API), `help` (HELP, INFO: answered with the connection's `help_message`)",
  })
  keyword: string | null;
  @DateTime({ nullable: true, description: 'A queued text held by the calling rules is sent then' })
  send_after: string | null;
  @DateTime() created_at: string;
  @DateTime() updated_at: string;
  @DateTime({ nullable: true }) sent_at: string | null;
  @DateTime({ nullable: true, description: 'When it reached its final status' })
  settled_at: string | null;
}

export class TargetMessagesResponseDto {
  @ApiProperty({ type: [MessageResponseDto] }) messages: MessageResponseDto[];
}
