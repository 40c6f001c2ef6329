import { randomBytes } from 'crypto';
import twilio from 'twilio';
import {
  EmulatorReply,
  EmulatorRequest,
  PostedEvent,
  ProviderEmulator,
  Route,
} from './emulator-server.js';

/**
 * Twilio Programmable Voice, as its public documentation describes the Calls resource: create a call
 * (`POST /2010-04-01/Accounts/{AccountSid}/Calls.json`, form-encoded, HTTP basic auth with the account
 * SID and auth token), fetch it (`GET .../Calls/{CallSid}.json`), and status callbacks posted to the
 * call's `StatusCallback` as forms signed with `X-Twilio-Signature` (the `twilio` package's helper).
 *
 * And Programmable Messaging, as the Messages resource documentation describes it: send a message
 * (`POST .../Messages.json` with `To`, `From` or `MessagingServiceSid`, `Body`, `StatusCallback`), its
 * status callbacks (`MessageStatus`, `ErrorCode`), and incoming messages posted to a number's
 * messaging webhook (`From`, `To`, `Body`, `SmsStatus=received`), all signed the same way.
 */
export interface TwilioEmulatedMessage {
  sid: string;
  params: URLSearchParams;
  status: string;
}
export interface TwilioEmulatedCall {
  sid: string;
  params: URLSearchParams;
  /** The TwiML the call was updated with (`POST .../Calls/{CallSid}.json` with `Twiml`), in order. */
  updates: string[];
  status: string;
  answeredBy: string | null;
  duration: number | null;
  sequence: number;
}

export type TwilioFinalStatus = 'completed' | 'busy' | 'no-answer' | 'failed' | 'canceled';

const twilioDate = (d: Date) => d.toUTCString().replace('GMT', '+0000');

export class TwilioEmulator extends ProviderEmulator {
  readonly calls = new Map<string, TwilioEmulatedCall>();
  readonly messages = new Map<string, TwilioEmulatedMessage>();

  constructor(
    readonly accountSid: string,
    private readonly authToken: string,
  ) {
    super();
  }

  protected routes(): [string, RegExp, Route][] {
    const calls = /^\/2010-04-01\/Accounts\/([^/]+)\/Calls\.json$/;
    const call = /^\/2010-04-01\/Accounts\/([^/]+)\/Calls\/([^/]+)\.json$/;
    const messages = /^\/2010-04-01\/Accounts\/([^/]+)\/Messages\.json$/;
    return [
      ['POST', messages, (req, [sid]) => this.authorized(req, sid) ?? this.createMessage(req)],
      ['POST', calls, (req, [sid]) => this.authorized(req, sid) ?? this.create(req)],
      ['GET', call, (req, [sid, callSid]) => this.authorized(req, sid) ?? this.fetch(callSid)],
      [
        'POST',
        call,
        (req, [sid, callSid]) => this.authorized(req, sid) ?? this.update(req, callSid),
      ],
    ];
  }

  /**
   * Plays a call to its end: the progress events it subscribed to, then the final status (always
   * sent). `answeredBy` is reported as answering machine detection would.
   */
  async finish(
    callSid: string,
    outcome: { status: TwilioFinalStatus; answeredBy?: string; duration?: number },
  ): Promise<PostedEvent[]> {
    const call = this.mustGet(callSid);
    const wanted = new Set(call.params.getAll('StatusCallbackEvent'));
    const progress = outcome.status === 'completed' ? ['ringing', 'answered'] : ['ringing'];
    const posted: PostedEvent[] = [];
    if (wanted.has('initiated')) posted.push(await this.postStatus(callSid, 'initiated'));
    for (const event of progress.filter((e) => wanted.has(e))) {
      posted.push(await this.postStatus(callSid, event === 'answered' ? 'in-progress' : event));
    }
    call.answeredBy = outcome.answeredBy ?? null;
    call.duration = outcome.status === 'completed' ? (outcome.duration ?? 30) : 0;
    posted.push(await this.postStatus(callSid, outcome.status));
    return posted;
  }

  /**
   * Asynchronous answering machine detection: posts the verdict to the call's
   * `AsyncAmdStatusCallback` (`AnsweredBy`, `MachineDetectionDuration` in milliseconds), signed, as
   * Twilio does once it knows (with `DetectMessageEnd`, at the end of the greeting).
   */
  async postAmd(callSid: string, answeredBy: string): Promise<PostedEvent> {
    const call = this.mustGet(callSid);
    call.answeredBy = answeredBy;
    const url = call.params.get('AsyncAmdStatusCallback');
    if (!url) throw new Error(`Call ${callSid} has no AsyncAmdStatusCallback`);
    return this.postSigned(
      url,
      {
        AccountSid: this.accountSid,
        CallSid: call.sid,
        AnsweredBy: answeredBy,
        MachineDetectionDuration: '4210',
      },
      {},
    );
  }

  /**
   * Runs the TwiML the call was last updated with to its end: after its `<Say>`, a `<Redirect>` is
   * followed (a signed TwiML request with the call's parameters, `CallStatus=in-progress`) and its
   * answer returned; null when that TwiML has no redirect.
   */
  async playUpdatedTwiml(
    callSid: string,
  ): Promise<{ posted: PostedEvent; contentType: string | null; twiml: string } | null> {
    const call = this.mustGet(callSid);
    const twiml = call.updates.at(-1);
    if (!twiml) throw new Error(`Call ${callSid} was never updated`);
    const redirect = /<Redirect[^>]*>([^<]+)<\/Redirect>/.exec(twiml);
    if (!redirect) return null;
    const url = redirect[1].replace(/&amp;/g, '&');
    const params: Record<string, string> = {
      AccountSid: this.accountSid,
      ApiVersion: '2010-04-01',
      CallSid: call.sid,
      CallStatus: 'in-progress',
      Direction: 'outbound-api',
      From: call.params.get('From') ?? '',
      To: call.params.get('To') ?? '',
    };
    const headers = {
      'Content-Type': 'application/x-www-form-urlencoded',
      'X-Twilio-Signature': twilio.getExpectedTwilioSignature(this.authToken, url, params),
    };
    const body = new URLSearchParams(params).toString();
    // A TwiML request: its answer is the call's next instructions, so it is read (not `post`).
    const res = await fetch(url, { method: 'POST', headers, body });
    const posted = { url, headers, body, status: res.status };
    this.posted.push(posted);
    return { posted, contentType: res.headers.get('content-type'), twiml: await res.text() };
  }

  /**
   * Posts one status callback for the call (and records the status), signed with `authToken`
   * (default: the account's; pass another to forge one).
   */
  async postStatus(
    callSid: string,
    status: string,
    options: { authToken?: string } = {},
  ): Promise<PostedEvent> {
    const call = this.mustGet(callSid);
    call.status = status;
    const params: Record<string, string> = {
      AccountSid: this.accountSid,
      ApiVersion: '2010-04-01',
      CallSid: call.sid,
      CallStatus: status,
      Called: call.params.get('To') ?? '',
      Caller: call.params.get('From') ?? '',
      Direction: 'outbound-api',
      From: call.params.get('From') ?? '',
      To: call.params.get('To') ?? '',
      Timestamp: twilioDate(new Date()),
      CallbackSource: 'call-progress-events',
      SequenceNumber: String(call.sequence++),
    };
    if (call.answeredBy) params.AnsweredBy = call.answeredBy;
    if (call.duration !== null && status === 'completed') {
      params.CallDuration = String(call.duration);
      params.Duration = String(Math.ceil(call.duration / 60));
    }
    const url = call.params.get('StatusCallback');
    if (!url) throw new Error(`Call ${callSid} has no StatusCallback`);
    const signature = twilio.getExpectedTwilioSignature(
      options.authToken ?? this.authToken,
      url,
      params,
    );
    return this.post(
      url,
      {
        'Content-Type': 'application/x-www-form-urlencoded',
        'X-Twilio-Signature': signature,
        'I-Twilio-Idempotency-Token': randomBytes(16).toString('hex'),
      },
      new URLSearchParams(params).toString(),
    );
  }

  /** Posts a message's status callback (`sent`, `delivered`, `undelivered`, `failed`), signed. */
  async postMessageStatus(
    messageSid: string,
    status: string,
    options: { errorCode?: string; authToken?: string; signed?: boolean } = {},
  ): Promise<PostedEvent> {
    const message = this.messages.get(messageSid);
    if (!message) throw new Error(`No emulated Twilio message ${messageSid}`);
    message.status = status;
    const params: Record<string, string> = {
      AccountSid: this.accountSid,
      ApiVersion: '2010-04-01',
      MessageSid: message.sid,
      SmsSid: message.sid,
      MessageStatus: status,
      SmsStatus: status,
      From: message.params.get('From') ?? '',
      To: message.params.get('To') ?? '',
    };
    if (options.errorCode) params.ErrorCode = options.errorCode;
    const url = message.params.get('StatusCallback');
    if (!url) throw new Error(`Message ${messageSid} has no StatusCallback`);
    return this.postSigned(url, params, options);
  }

  /**
   * Posts an incoming message to a number's messaging webhook `url`, as Twilio does when someone texts
   * one of the account's numbers; `messageSid` repeats an earlier post (a retry).
   */
  async postIncomingMessage(
    url: string,
    text: { from: string; to: string; body: string; messageSid?: string },
    options: { authToken?: string; signed?: boolean } = {},
  ): Promise<PostedEvent & { messageSid: string }> {
    const sid = text.messageSid ?? `SM${randomBytes(16).toString('hex')}`;
    const params: Record<string, string> = {
      ToCountry: 'US',
      SmsMessageSid: sid,
      NumMedia: '0',
      SmsSid: sid,
      SmsStatus: 'received',
      Body: text.body,
      To: text.to,
      NumSegments: '1',
      MessageSid: sid,
      AccountSid: this.accountSid,
      From: text.from,
      ApiVersion: '2010-04-01',
    };
    return { ...(await this.postSigned(url, params, options)), messageSid: sid };
  }

  private postSigned(
    url: string,
    params: Record<string, string>,
    options: { authToken?: string; signed?: boolean },
  ): Promise<PostedEvent> {
    const headers: Record<string, string> = {
      'Content-Type': 'application/x-www-form-urlencoded',
      'I-Twilio-Idempotency-Token': randomBytes(16).toString('hex'),
    };
    if (options.signed !== false) {
      headers['X-Twilio-Signature'] = twilio.getExpectedTwilioSignature(
        options.authToken ?? this.authToken,
        url,
        params,
      );
    }
    return this.post(url, headers, new URLSearchParams(params).toString());
  }

  private createMessage(req: EmulatorRequest): EmulatorReply {
    const params = new URLSearchParams(req.rawBody);
    const error = !params.get('To')
      ? { code: 21604, message: "A 'To' phone number is required." }
      : !params.get('From') && !params.get('MessagingServiceSid')
        ? { code: 21603, message: "A 'From' phone number is required." }
        : !params.get('Body')
          ? { code: 21602, message: 'Message body is required.' }
          : null;
    if (error) {
      return {
        status: 400,
        body: {
          ...error,
          more_info: `https://www.twilio.com/docs/errors/${error.code}`,
          status: 400,
        },
      };
    }
    const sid = `SM${randomBytes(16).toString('hex')}`;
    // Through a Messaging Service a message is `accepted` first; from a number, `queued`.
    const status = params.get('MessagingServiceSid') ? 'accepted' : 'queued';
    this.messages.set(sid, { sid, params, status });
    const now = twilioDate(new Date());
    return {
      status: 201,
      body: {
        sid,
        account_sid: this.accountSid,
        messaging_service_sid: params.get('MessagingServiceSid'),
        to: params.get('To'),
        from: params.get('From'),
        body: params.get('Body'),
        status,
        direction: 'outbound-api',
        num_segments: '1',
        num_media: '0',
        error_code: null,
        error_message: null,
        price: null,
        price_unit: 'USD',
        api_version: '2010-04-01',
        date_created: now,
        date_updated: now,
        date_sent: null,
        uri: `/2010-04-01/Accounts/${this.accountSid}/Messages/${sid}.json`,
      },
    };
  }

  private authorized(req: EmulatorRequest, accountSid: string): EmulatorReply | null {
    const expected = `Basic ${Buffer.from(`${this.accountSid}:${this.authToken}`).toString('base64')}`;
    if (accountSid === this.accountSid && req.headers.authorization === expected) return null;
    return {
      status: 401,
      body: {
        code: 20003,
        message: 'Authenticate',
        more_info: 'https://www.twilio.com/docs/errors/20003',
        status: 401,
      },
    };
  }

  private create(req: EmulatorRequest): EmulatorReply {
    const params = new URLSearchParams(req.rawBody);
    const missing = ['To', 'From'].filter((p) => !params.get(p));
    if (missing.length > 0 || !(params.get('Url') || params.get('Twiml'))) {
      return {
        status: 400,
        body: {
          code: 21205,
          message:
            missing.length > 0
              ? `A '${missing[0]}' phone number is required.`
              : 'Url parameter is required.',
          more_info: 'https://www.twilio.com/docs/errors/21205',
          status: 400,
        },
      };
    }
    const sid = `CA${randomBytes(16).toString('hex')}`;
    const call: TwilioEmulatedCall = {
      sid,
      params,
      status: 'queued',
      answeredBy: null,
      duration: null,
      sequence: 0,
      updates: [],
    };
    this.calls.set(sid, call);
    return { status: 201, body: this.resource(call) };
  }

  /**
   * Updates a live call: new TwiML (`Twiml`) runs at once. A call that is over cannot be updated
   * (error 21220, "Call is not in-progress").
   */
  private update(req: EmulatorRequest, callSid: string): EmulatorReply {
    const call = this.calls.get(callSid);
    if (!call) return this.fetch(callSid);
    const params = new URLSearchParams(req.rawBody);
    if (!['queued', 'ringing', 'in-progress'].includes(call.status)) {
      return {
        status: 400,
        body: {
          code: 21220,
          message: 'Call is not in-progress. Cannot redirect.',
          more_info: 'https://www.twilio.com/docs/errors/21220',
          status: 400,
        },
      };
    }
    const twiml = params.get('Twiml');
    if (twiml) call.updates.push(twiml);
    return { status: 200, body: this.resource(call) };
  }

  private fetch(callSid: string): EmulatorReply {
    const call = this.calls.get(callSid);
    if (!call) {
      return {
        status: 404,
        body: {
          code: 20404,
          message: `The requested resource /2010-04-01/Accounts/${this.accountSid}/Calls/${callSid}.json was not found`,
          more_info: 'https://www.twilio.com/docs/errors/20404',
          status: 404,
        },
      };
    }
    return { status: 200, body: this.resource(call) };
  }

  /** The Call resource as the API returns it (snake_case JSON, RFC 2822 dates). */
  private resource(call: TwilioEmulatedCall) {
    const now = twilioDate(new Date());
    return {
      sid: call.sid,
      account_sid: this.accountSid,
      to: call.params.get('To'),
      from: call.params.get('From'),
      status: call.status,
      direction: 'outbound-api',
      answered_by: call.answeredBy,
      duration: call.duration === null ? null : String(call.duration),
      start_time: call.status === 'queued' ? null : now,
      end_time: null,
      date_created: now,
      date_updated: now,
      api_version: '2010-04-01',
      price: null,
      price_unit: 'USD',
      uri: `/2010-04-01/Accounts/${this.accountSid}/Calls/${call.sid}.json`,
    };
  }

  private mustGet(callSid: string): TwilioEmulatedCall {
    const call = this.calls.get(callSid);
    if (!call) throw new Error(`No emulated Twilio call ${callSid}`);
    return call;
  }
}
