import type twilio from 'twilio';
import { UnauthorizedError } from '../../../../common/errors/domain-errors.js';
import { DestinationPolicy } from '../../../../common/net/outbound-destination.js';
import type { ProviderRequest } from '../../../telephony/application/ports/call-provider.js';
import { ResolvedConnection } from '../../domain/provider-connection.js';
import type {
  ProviderTextClient,
  ProviderTextReport,
  ProviderTextRequest,
  ProviderTextResult,
} from '../../domain/provider-text.js';
import { twilioTextError, twilioTextStatus } from '../../domain/twilio-message-status.js';
import { ProviderSdks, providerSdks } from './provider-sdks.js';
import { twilioRestClient, verifiedTwilioParams } from './twilio-sdk.js';

/**
 * Twilio Programmable Messaging through the official `twilio` package: the Messages resource
 * (`POST /2010-04-01/Accounts/{AccountSid}/Messages.json`) from the connection's `from_number` or its
 * `messaging_service_sid`, with the status callback on our messages route; and the signed posts Twilio
 * makes there (status callbacks, inbound messages).
 */
export class TwilioTextClient implements ProviderTextClient {
  private sdkClient: Promise<ReturnType<typeof twilio>> | null = null;

  constructor(
    private readonly connection: ResolvedConnection,
    private readonly destinations: DestinationPolicy,
    private readonly sdks: ProviderSdks = providerSdks,
  ) {}

  private client(): Promise<ReturnType<typeof twilio>> {
    return (this.sdkClient ??= twilioRestClient(this.connection, this.destinations, this.sdks));
  }

  async send(req: ProviderTextRequest): Promise<ProviderTextResult> {
    const service = this.connection.settings.messaging_service_sid;
    const sender =
      typeof service === 'string' ? { messagingServiceSid: service } : { from: req.from ?? '' };
    const message = await (
      await this.client()
    ).messages.create({
      to: req.to,
      ...sender,
      body: req.body,
      ...(req.statusCallbackUrl ? { statusCallback: req.statusCallbackUrl } : {}),
    });
    return {
      providerMessageId: message.sid,
      from: message.from ?? req.from,
      status: twilioTextStatus(message.status) ?? 'sent',
      ...twilioTextError(message.errorCode),
    };
  }

  async readMessageRequest(req: ProviderRequest): Promise<ProviderTextReport | null> {
    const params = await verifiedTwilioParams(
      this.connection.credentials.auth_token,
      req,
      this.sdks,
    );
    if (!params) throw new UnauthorizedError('Invalid Twilio signature');
    const sid = params.MessageSid ?? params.SmsSid;
    if (!sid) return null;
    const status = twilioTextStatus(params.MessageStatus ?? params.SmsStatus);
    if (status !== null) {
      return {
        kind: 'status',
        providerMessageId: sid,
        status,
        ...twilioTextError(params.ErrorCode),
      };
    }
    if (typeof params.From !== 'string' || typeof params.Body !== 'string') return null;
    return {
      kind: 'received',
      providerMessageId: sid,
      from: params.From,
      to: params.To ?? '',
      body: params.Body,
    };
  }
}
