import type twilio from 'twilio';
import { UnauthorizedError } from '../../../../common/errors/domain-errors.js';
import { DestinationPolicy } from '../../../../common/net/outbound-destination.js';
import { twilioRestClient, verifiedTwilioParams } from './twilio-sdk.js';
import { ResolvedConnection } from '../../domain/provider-connection.js';
import { callLogIdOf } from '../../domain/provider-call.js';
import {
  CallEvent,
  CallProvider,
  ProviderRequest,
  StartCallRequest,
} from '../../../calling/application/ports/call-provider.js';
import { renderTwimlTemplate } from '../../domain/twiml-template.js';
import {
  isTwilioFinalStatus,
  TWILIO_ANSWERED_STATUS,
  twilioCallResult,
  TwilioCallReport,
} from '../../domain/twilio-outcome.js';

/**
 * Twilio Programmable Voice through the official `twilio` package: no campaign logic, only the
 * translation between our neutral call shapes and Twilio's. Our call log id travels in the status
 * callback URL's query (Twilio signs the whole URL).
 */
export class TwilioCallClient extends CallProvider {
  /** The connection id: the `{connection}` of its events route and its call logs' `provider`. */
  readonly name: string;

  private sdkClient: Promise<ReturnType<typeof twilio>> | null = null;

  constructor(
    private readonly connection: ResolvedConnection,
    private readonly destinations: DestinationPolicy,
  ) {
    super();
    this.name = connection.id;
  }

  private client(): Promise<ReturnType<typeof twilio>> {
    return (this.sdkClient ??= twilioRestClient(this.connection, this.destinations));
  }

  async startCall(req: StartCallRequest): Promise<{ providerCallId: string }> {
    const settings = this.connection.settings;
    const callbackUrl = withCallLogId(req.eventsUrl, req.callLogId);
    const twiml =
      typeof settings.twiml_template === 'string'
        ? { twiml: renderTwimlTemplate(settings.twiml_template, req.inputData) }
        : { url: String(settings.twiml_url) };
    const machineDetection =
      typeof settings.machine_detection === 'string'
        ? {
            machineDetection: settings.machine_detection,
            asyncAmd: 'true',
            asyncAmdStatusCallback: callbackUrl,
            asyncAmdStatusCallbackMethod: 'POST',
          }
        : {};
    const call = await (
      await this.client()
    ).calls.create({
      to: req.to,
      from: typeof settings.from_number === 'string' ? settings.from_number : req.from,
      ...twiml,
      statusCallback: callbackUrl,
      statusCallbackMethod: 'POST',
      statusCallbackEvent: ['initiated', 'ringing', 'answered', 'completed'],
      ...machineDetection,
    });
    return { providerCallId: call.sid };
  }

  /** Reads the call back (deadline recovery); null when Twilio cannot tell us more. */
  async getCall(ref: {
    providerCallId: string | null;
    callLogId: number;
  }): Promise<CallEvent | null> {
    // Twilio cannot be searched by our ids: without its call sid there is nothing to ask.
    if (!ref.providerCallId) return null;
    const call = await (await this.client()).calls(ref.providerCallId).fetch();
    return this.event(
      {
        CallSid: call.sid,
        CallStatus: call.status,
        AnsweredBy: call.answeredBy ?? null,
        CallDuration: call.duration,
      },
      ref.callLogId,
      call.endTime ?? new Date(),
    );
  }

  /**
   * Verifies `X-Twilio-Signature` against the URL as Twilio called it and the form parameters, then
   * reads a status callback (or an asynchronous AMD result, which only refines the final one).
   */
  async readEvents(req: ProviderRequest): Promise<CallEvent[]> {
    const params = await verifiedTwilioParams(this.connection.credentials.auth_token, req);
    if (!params) throw new UnauthorizedError('Invalid Twilio signature');
    if (!params.CallStatus) return [];
    const report: TwilioCallReport = {
      CallSid: params.CallSid,
      CallStatus: params.CallStatus,
      AnsweredBy: params.AnsweredBy ?? null,
      CallDuration: params.CallDuration ?? null,
      RecordingUrl: params.RecordingUrl ?? null,
    };
    // With asynchronous detection, the verdict may be known to Twilio but absent from the callback.
    if (
      report.CallStatus === 'completed' &&
      !report.AnsweredBy &&
      typeof this.connection.settings.machine_detection === 'string'
    ) {
      const call = await (await this.client()).calls(report.CallSid).fetch();
      report.AnsweredBy = call.answeredBy ?? null;
    }
    const at = params.Timestamp ? new Date(params.Timestamp) : new Date();
    const event = this.event(
      report,
      callLogIdOf(new URL(req.url).searchParams.get('call_log_id')),
      Number.isNaN(at.getTime()) ? new Date() : at,
    );
    return event ? [event] : [];
  }

  private event(report: TwilioCallReport, callLogId: number | null, at: Date): CallEvent | null {
    const base = { providerCallId: report.CallSid, callLogId, at };
    if (isTwilioFinalStatus(report.CallStatus)) {
      const result = twilioCallResult(report) ?? undefined;
      return { ...base, key: `twilio:${report.CallSid}:ended`, kind: 'ended', result };
    }
    if (report.CallStatus === TWILIO_ANSWERED_STATUS) {
      return { ...base, key: `twilio:${report.CallSid}:started`, kind: 'started' };
    }
    return null;
  }
}

function withCallLogId(url: string, callLogId: number): string {
  const u = new URL(url);
  u.searchParams.set('call_log_id', String(callLogId));
  return u.toString();
}
