import type twilio from 'twilio';
import { UnauthorizedError } from '../../../../common/errors/domain-errors.js';
import { DestinationPolicy } from '../../../../common/net/outbound-destination.js';
import { ProviderSdks, providerSdks } from './provider-sdks.js';
import { loadTwilio, twilioRestClient, verifiedTwilioParams } from './twilio-sdk.js';
import { ResolvedConnection } from '../../domain/provider-connection.js';
import {
  CAMPAIGN_VOICEMAIL_MARK,
  callLogIdOf,
  voicemailMessageOf,
} from '../../domain/provider-call.js';
import {
  CallEvent,
  CallProvider,
  CallRef,
  ProviderReply,
  ProviderRequest,
  StartCallRequest,
} from '../../../telephony/application/ports/call-provider.js';
import { fillPlaceholders, renderTwimlTemplate } from '../../domain/twiml-template.js';
import {
  isTwilioFinalStatus,
  TWILIO_ANSWERED_STATUS,
  twilioCallResult,
  TwilioCallReport,
  twilioDeliveredVoicemail,
  twilioVoicemailAction,
} from '../../domain/twilio-outcome.js';

/**
 * Query parameters of our own callback URLs (Twilio signs the whole URL, so they cannot be forged):
 * the message to leave, on the AMD callback; and the mark that it played to its end, on the redirect
 * Twilio follows after it.
 */
const VOICEMAIL_MESSAGE_PARAM = 'voicemail_message';
const VOICEMAIL_PLAYED_PARAM = 'voicemail_played';

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
    private readonly sdks: ProviderSdks = providerSdks,
  ) {
    super();
    this.name = connection.id;
  }

  private client(): Promise<ReturnType<typeof twilio>> {
    return (this.sdkClient ??= twilioRestClient(this.connection, this.destinations, this.sdks));
  }

  async startCall(req: StartCallRequest): Promise<{ providerCallId: string }> {
    const settings = this.connection.settings;
    const voicemail = this.detectsGreetingEnd()
      ? voicemailMessageOf(req.voicemailMessage, settings)
      : null;
    // A campaign's message on a connection without one: the mark tells the final callback it was a drop.
    const callbackUrl = voicemail?.fromCampaign
      ? withParam(withCallLogId(req.eventsUrl, req.callLogId), CAMPAIGN_VOICEMAIL_MARK, '1')
      : withCallLogId(req.eventsUrl, req.callLogId);
    const twiml =
      typeof settings.twiml_template === 'string'
        ? { twiml: renderTwimlTemplate(settings.twiml_template, req) }
        : { url: String(settings.twiml_url) };
    // The message travels (filled in) in the AMD callback's URL: when Twilio reports the greeting's
    // end, that callback is all we receive, and it needs nothing else to leave the message.
    const amdCallbackUrl = voicemail
      ? withParam(callbackUrl, VOICEMAIL_MESSAGE_PARAM, fillPlaceholders(voicemail.text, req))
      : callbackUrl;
    const machineDetection =
      typeof settings.machine_detection === 'string'
        ? {
            machineDetection: settings.machine_detection,
            asyncAmd: 'true',
            asyncAmdStatusCallback: amdCallbackUrl,
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
  async getCall(ref: CallRef): Promise<CallEvent | null> {
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
      call.endTime ?? null,
      // Read back, the call no longer says whether its campaign gave the message: the connection's say.
      this.dropsVoicemail(null),
    );
  }

  /**
   * Verifies `X-Twilio-Signature` against the URL as Twilio called it and the form parameters, then
   * reads a status callback (or an asynchronous AMD result, which only refines the final one).
   */
  async readEvents(req: ProviderRequest): Promise<CallEvent[]> {
    const params = await verifiedTwilioParams(
      this.connection.credentials.auth_token,
      req,
      this.sdks,
    );
    if (!params) throw new UnauthorizedError('Invalid Twilio signature');
    const url = new URL(req.url);
    const callLogId = callLogIdOf(url.searchParams.get('call_log_id'));
    const played = url.searchParams.get(VOICEMAIL_PLAYED_PARAM);
    if (played !== null && params.CallSid) {
      // Twilio followed the redirect after the message: it played to its end. Keyed as the call's
      // end, so the `completed` callback that follows the hang-up is a duplicate.
      return [
        {
          key: `twilio:${params.CallSid}:ended`,
          kind: 'ended',
          providerCallId: params.CallSid,
          callLogId,
          at: null,
          result: twilioDeliveredVoicemail(played),
        },
      ];
    }
    if (!params.CallStatus) {
      const message = url.searchParams.get(VOICEMAIL_MESSAGE_PARAM);
      if (message !== null && params.AnsweredBy && params.CallSid) {
        await this.dropVoicemail(params.CallSid, params.AnsweredBy, message, url);
      }
      return [];
    }
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
    const event = this.event(
      report,
      callLogId,
      params.Timestamp ? new Date(params.Timestamp) : null,
      this.dropsVoicemail(url),
    );
    return event ? [event] : [];
  }

  /**
   * The body Twilio gets back. The redirect after a voicemail message is a TwiML request: it is
   * answered with TwiML that hangs up. Status and AMD callbacks ignore the body (null: the JSON one).
   */
  override async reply(req: ProviderRequest): Promise<ProviderReply | null> {
    if (!new URL(req.url).searchParams.has(VOICEMAIL_PLAYED_PARAM)) return null;
    const sdk = await loadTwilio(this.sdks);
    const twiml = new sdk.twiml.VoiceResponse();
    twiml.hangup();
    return { contentType: 'text/xml', body: twiml.toString() };
  }

  /** A voicemail message can be left only when the connection waits for the greeting's end. */
  private detectsGreetingEnd(): boolean {
    return this.connection.settings.machine_detection === 'DetectMessageEnd';
  }

  /**
   * Whether the call left a voicemail message: the connection's (it has one), or its campaign's (the
   * callback URL carries the mark).
   */
  private dropsVoicemail(callbackUrl: URL | null): boolean {
    return (
      this.detectsGreetingEnd() &&
      (typeof this.connection.settings.voicemail_message === 'string' ||
        callbackUrl?.searchParams.has(CAMPAIGN_VOICEMAIL_MARK) === true)
    );
  }

  /**
   * The AMD verdict on a voicemail-drop call: at the greeting's end the live call's TwiML is replaced
   * by the message, then a redirect to our events URL that tells us it played to its end; with no
   * mailbox to record in, by a hang-up. A call that is already over cannot be updated (Twilio answers
   * 21220): its final status callback reports it, so that error is not ours to raise.
   */
  private async dropVoicemail(
    callSid: string,
    answeredBy: string,
    message: string,
    amdUrl: URL,
  ): Promise<void> {
    const action = twilioVoicemailAction(answeredBy);
    if (!action) return;
    const sdk = await loadTwilio(this.sdks);
    const twiml = new sdk.twiml.VoiceResponse();
    if (action === 'play') {
      twiml.say(message);
      const playedUrl = new URL(amdUrl);
      playedUrl.searchParams.delete(VOICEMAIL_MESSAGE_PARAM);
      playedUrl.searchParams.set(VOICEMAIL_PLAYED_PARAM, answeredBy);
      twiml.redirect({ method: 'POST' }, playedUrl.toString());
    } else {
      twiml.hangup();
    }
    try {
      await (await this.client()).calls(callSid).update({ twiml: twiml.toString() });
    } catch (error) {
      if ((error as { code?: number }).code !== CALL_NOT_IN_PROGRESS) throw error;
    }
  }

  private event(
    report: TwilioCallReport,
    callLogId: number | null,
    at: Date | null,
    voicemailDrop: boolean,
  ): CallEvent | null {
    const base = { providerCallId: report.CallSid, callLogId, at };
    if (isTwilioFinalStatus(report.CallStatus)) {
      const result = twilioCallResult(report, voicemailDrop) ?? undefined;
      return { ...base, key: `twilio:${report.CallSid}:ended`, kind: 'ended', result };
    }
    if (report.CallStatus === TWILIO_ANSWERED_STATUS) {
      return { ...base, key: `twilio:${report.CallSid}:started`, kind: 'started' };
    }
    return null;
  }
}

/** Twilio's error for updating a call that is no longer in progress. */
const CALL_NOT_IN_PROGRESS = 21220;

function withParam(url: string, name: string, value: string): string {
  const u = new URL(url);
  u.searchParams.set(name, value);
  return u.toString();
}

const withCallLogId = (url: string, callLogId: number) =>
  withParam(url, 'call_log_id', String(callLogId));
