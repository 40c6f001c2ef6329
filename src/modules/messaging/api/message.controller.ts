import { Operation } from '../../../common/http/api-operation.js';
import { Audit, listedIds } from '../../../common/audit/audit.decorators.js';
import { requireCampaignReach } from '../../../common/auth/auth-context.js';
import { Controller, Get, Param } from '@nestjs/common';
import { ApiParam, ApiResponse, ApiTags } from '@nestjs/swagger';
import {
  Auth,
  type AuthContext,
  RequiresPermission,
  CampaignScope,
} from '../../../common/http/auth.decorators.js';
import { MessagingService } from '../application/messaging.service.js';
import { MessageResponseDto, TargetMessagesResponseDto } from './dto/message-response.dto.js';
import { presentMessage } from './message.presenter.js';

@ApiTags('messages')
@Controller('api/v1')
export class MessageController {
  constructor(private readonly messaging: MessagingService) {}

  @RequiresPermission('messages.read')
  @CampaignScope('handler')
  @Audit({ action: 'message.list', resource: 'target', ids: listedIds('messages') })
  @Get('targets/:target_id/messages')
  @Operation(
    'list_target_messages_api_v1_targets__target_id__messages_get',
    'List Target Messages',
    "The target's texts, oldest first: follow-up texts sent after its calls (campaign `sms_follow_up`) " +
      'and the replies matched to it. See docs/calling.md, "Texts".',
  )
  @ApiParam({ name: 'target_id', description: 'The ID of the target.' })
  @ApiResponse({ status: 200, type: TargetMessagesResponseDto })
  async listForTarget(@Auth() auth: AuthContext, @Param('target_id') targetId: string) {
    const messages = await this.messaging.listForTarget(
      auth.organizationId,
      targetId,
      auth.campaignIds,
    );
    return { messages: messages.map(presentMessage) };
  }

  @RequiresPermission('messages.read')
  @CampaignScope('handler')
  @Audit({ action: 'message.read', resource: 'message' })
  @Get('messages/:message_id')
  @Operation(
    'retrieve_message_api_v1_messages__message_id__get',
    'Retrieve Message',
    'One text of the organization, sent or received.',
  )
  @ApiParam({ name: 'message_id', description: 'The ID of the message.' })
  @ApiResponse({ status: 200, type: MessageResponseDto })
  async get(@Auth() auth: AuthContext, @Param('message_id') messageId: string) {
    const message = await this.messaging.get(auth.organizationId, messageId);
    requireCampaignReach(auth, message.campaignId, `Message ${messageId} not found`);
    return presentMessage(message);
  }
}
