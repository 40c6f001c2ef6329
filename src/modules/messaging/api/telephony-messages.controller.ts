import { Operation } from '../../../common/http/api-operation.js';
import { Controller, HttpCode, Param, Post, Req } from '@nestjs/common';
import { ApiOkResponse, ApiParam, ApiProperty, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { NotFoundError } from '../../../common/errors/domain-errors.js';
import {
  countingSignatureFailures,
  signedProviderRequest,
} from '../../../common/http/provider-request.js';
import { AuthFailureLimiter } from '../../../common/http/auth-failure-limiter.js';
import { Public } from '../../../common/http/auth.decorators.js';
import { ProviderTextClients } from '../../provider-connection/application/ports/provider-text-clients.js';
import { ProviderConnectionService } from '../../provider-connection/application/provider-connection.service.js';
import { MessagingService, MessagingSettings } from '../application/messaging.service.js';

export class TelephonyMessagesResponseDto {
  @ApiProperty({ example: 'ok', enum: ['ok'] }) status: 'ok';
}

/**
 * Where a connection's provider posts texts' status reports and the texts it received for the
 * connection's numbers. No API key: the provider's signature over the request authenticates it; a
 * request that fails is 401 and changes nothing.
 */
@ApiTags('telephony')
@Controller('api/v1/telephony')
export class TelephonyMessagesController {
  constructor(
    private readonly connections: ProviderConnectionService,
    private readonly clients: ProviderTextClients,
    private readonly messaging: MessagingService,
    private readonly settings: MessagingSettings,
    private readonly failures: AuthFailureLimiter,
  ) {}

  @Public()
  @Post(':connection_id/messages')
  @HttpCode(200)
  @Operation(
    'telephony_messages_api_v1_telephony__connection_id__messages_post',
    'Telephony Messages',
    "Texts' status callbacks and inbound texts from the provider connection `connection_id` " +
      "(Twilio: form posts signed with X-Twilio-Signature under the connection's auth token). A " +
      'status report applies only when it moves the text forward (late or repeated reports change ' +
      'nothing); an inbound text is recorded once per provider message id, matched to the target ' +
      'whose text it answers; an opt-out word puts the sender on the do-not-call list at once. See ' +
      'docs/calling.md, "Texts".',
  )
  @ApiParam({ name: 'connection_id', description: "The provider connection's id." })
  @ApiOkResponse({ type: TelephonyMessagesResponseDto })
  @ApiResponse({ status: 401, description: 'Missing, forged or stale signature; nothing changed' })
  @ApiResponse({
    status: 429,
    description: 'Too many failed signatures from this address or for this connection',
  })
  @ApiResponse({
    status: 404,
    description: 'Unknown connection, one that sends no texts, or a report on an unknown text',
  })
  async messages(
    @Param('connection_id') connectionId: string,
    @Req() req: Request,
  ): Promise<TelephonyMessagesResponseDto> {
    const connection = await this.connections.resolveForEvents(connectionId);
    const client = connection ? this.clients.forConnection(connection) : null;
    if (!connection || !client) {
      throw new NotFoundError(`Unknown texting connection '${connectionId}'`);
    }
    const report = await countingSignatureFailures(
      client.readMessageRequest(signedProviderRequest(req, this.settings.publicBaseUrl)),
      this.failures,
      req,
      connection.id,
    );
    if (report?.kind === 'status') {
      const known = await this.messaging.report(connection.type, report.providerMessageId, report);
      if (!known) throw new NotFoundError('Message not found');
    } else if (report?.kind === 'received') {
      await this.messaging.receive({
        organizationId: connection.organizationId,
        connectionId: connection.id,
        provider: connection.type,
        providerMessageId: report.providerMessageId,
        from: report.from,
        to: report.to,
        body: report.body,
        helpReply:
          typeof connection.settings.help_message === 'string'
            ? connection.settings.help_message
            : null,
      });
    }
    return { status: 'ok' };
  }
}
