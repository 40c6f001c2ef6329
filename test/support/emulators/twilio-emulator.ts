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
 */
export interface TwilioEmulatedCall {
  sid: string;
  params: URLSearchParams;
  status: string;
  answeredBy: string | null;
  duration: number | null;
  sequence: number;
}

export type TwilioFinalStatus = 'completed' | 'busy' | 'no-answer' | 'failed' | 'canceled';

const twilioDate = (d: Date) => d.toUTCString().replace('GMT', '+0000');

export class TwilioEmulator extends ProviderEmulator {
  readonly calls = new Map<string, TwilioEmulatedCall>();

  constructor(
    readonly accountSid: string,
    private readonly authToken: string,
  ) {
    super();
  }

  protected routes(): [string, RegExp, Route][] {
    const calls = /^\/2010-04-01\/Accounts\/([^/]+)\/Calls\.json$/;
    const call = /^\/2010-04-01\/Accounts\/([^/]+)\/Calls\/([^/]+)\.json$/;
    return [
      ['POST', calls, (req, [sid]) => this.authorized(req, sid) ?? this.create(req)],
      ['GET', call, (req, [sid, callSid]) => this.authorized(req, sid) ?? this.fetch(callSid)],
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
    };
    this.calls.set(sid, call);
    return { status: 201, body: this.resource(call) };
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
