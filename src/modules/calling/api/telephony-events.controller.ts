import { Operation } from '../../../common/http/api-operation.js';
import { Controller, HttpCode, Param, Post, Req, Res } from '@nestjs/common';
import { ApiOkResponse, ApiParam, ApiProperty, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { NotFoundError } from '../../../common/errors/domain-errors.js';
import {
  countingSignatureFailures,
  signedProviderRequest,
} from '../../../common/http/provider-request.js';
import { Public } from '../../../common/http/auth.decorators.js';
import { AuthFailureLimiter } from '../../../common/http/auth-failure-limiter.js';
import { CallEventIngestion } from '../application/call-event-ingestion.js';
import { CallingSettings } from '../application/calling-settings.js';
import { CallProviders } from '../../telephony/application/ports/call-provider.js';

export class TelephonyEventsResponseDto {
  @ApiProperty({ example: 'ok', enum: ['ok'] }) status: 'ok';
}

/** The path prefix whose bodies `configureApp` keeps raw (providers sign the exact bytes). */
export const TELEPHONY_EVENTS_PREFIX = '/api/v1/telephony';

/**
 * Where providers post call events. No API key: the provider adapter authenticates each request itself
 * (a signature over the raw body); a request that fails is 401 and changes nothing.
 */
@ApiTags('telephony')
@Controller('api/v1/telephony')
export class TelephonyEventsController {
  constructor(
    private readonly providers: CallProviders,
    private readonly ingestion: CallEventIngestion,
    private readonly settings: CallingSettings,
    private readonly failures: AuthFailureLimiter,
  ) {}

  @Public()
  @Post(':connection/events')
  @HttpCode(200)
  @Operation(
    'telephony_events_api_v1_telephony__connection__events_post',
    'Telephony Events',
    'Call events from the provider connection named by `connection` (a connection id, or a ' +
      "CALL_PROVIDER name such as `http`): authenticated with that connection's own secret " +
      '(X-Twilio-Signature, Vapi server secret, x-retell-signature, Standard Webhooks for `http`), ' +
      'JSON or `application/x-www-form-urlencoded`. Stored once per event: a duplicate is a 200 no-op, ' +
      'and a late or repeated final status never moves a target backwards.',
  )
  @ApiParam({
    name: 'connection',
    description:
      "What placed the call: a provider connection's id (`/api/v1/provider-connections`), or the CALL_PROVIDER name (`http`, `simulated`).",
  })
  @ApiOkResponse({
    type: TelephonyEventsResponseDto,
    description:
      'Or TwiML (`text/xml`) when Twilio asks what the call does next (after a voicemail message)',
  })
  @ApiResponse({ status: 401, description: 'Missing, forged or stale signature; nothing changed' })
  @ApiResponse({
    status: 429,
    description:
      'Too many failed signatures from this address or for this connection (AUTH_FAILURE_LIMIT per window)',
  })
  @ApiResponse({ status: 404, description: 'Unknown connection, or an event for an unknown call' })
  @ApiResponse({ status: 422, description: 'A signed body that is not a valid event' })
  async events(
    @Param('connection') connection: string,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<TelephonyEventsResponseDto | string> {
    const provider = await this.providers.get(connection);
    if (!provider) throw new NotFoundError(`Unknown telephony connection '${connection}'`);
    const request = signedProviderRequest(req, this.settings.publicBaseUrl);
    const events = await countingSignatureFailures(
      provider.readEvents(request),
      this.failures,
      req,
      provider.name,
    );
    const results = await this.ingestion.ingest(provider.name, events);
    if (results.includes('unknown_call')) throw new NotFoundError('Call not found');
    const reply = await provider.reply(request);
    if (!reply) return { status: 'ok' };
    res.type(reply.contentType);
    return reply.body;
  }
}
