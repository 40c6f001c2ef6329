import type Retell from 'retell-sdk';
import { UnauthorizedError } from '../../../../common/errors/domain-errors.js';
import { isRecord } from '../../domain/call-result.js';
import {
  CAMPAIGN_VOICEMAIL_MARK,
  callLogIdOf,
  callMetadata,
  voicemailMessageOf,
} from '../../domain/provider-call.js';
import {
  CallEvent,
  CallProvider,
  CallRef,
  ProviderRequest,
  StartCallRequest,
} from '../../../telephony/application/ports/call-provider.js';
import { ResolvedConnection } from '../../domain/provider-connection.js';
import { retellCallResult, RetellCallReport } from '../../domain/retell-outcome.js';
import { parseJsonBody } from './json-body.js';
import { ProviderSdks, providerSdks } from './provider-sdks.js';
import { fillPlaceholders } from '../../domain/twiml-template.js';

/**
 * Retell through `retell-sdk`: a phone call with the connection's agent, the target's input data as
 * dynamic variables, our ids in its metadata and this call's webhooks sent to our events URL. The
 * outcome is final at `call_analyzed`, or at `call_ended` when the connection says analysis is off.
 */
export class RetellCallClient extends CallProvider {
  /** The connection id: the `{connection}` of its events route and its call logs' `provider`. */
  readonly name: string;

  private sdkClient: Promise<Retell> | null = null;

  constructor(
    private readonly connection: ResolvedConnection,
    /** How the SDK reaches Retell: only where the destination policy allows (see pinned-fetch.ts). */
    private readonly fetch: typeof globalThis.fetch,
    private readonly sdks: ProviderSdks = providerSdks,
  ) {
    super();
    this.name = connection.id;
  }

  /**
   * The SDK is loaded on first use, not at start, like Vapi's and Twilio's: it is an optional peer
   * dependency (see provider-sdks.ts).
   */
  private client(): Promise<Retell> {
    return (this.sdkClient ??= this.retellSdk().then(
      (Sdk) =>
        new Sdk({
          apiKey: this.connection.credentials.api_key,
          baseURL: String(this.connection.settings.api_base_url),
          fetch: this.fetch,
          // A retried create could dial twice; the engine decides what to do after a failure.
          maxRetries: 0,
        }),
    ));
  }

  async startCall(req: StartCallRequest): Promise<{ providerCallId: string }> {
    const settings = this.connection.settings;
    const voicemail = voicemailMessageOf(req.voicemailMessage, settings);
    const call = await (
      await this.client()
    ).call.createPhoneCall({
      from_number: typeof settings.from_number === 'string' ? settings.from_number : req.from,
      to_number: req.to,
      override_agent_id: String(settings.agent_id),
      agent_override: {
        agent: {
          webhook_url: req.eventsUrl,
          ...(voicemail
            ? {
                voicemail_option: {
                  action: {
                    type: 'static_text' as const,
                    text: fillPlaceholders(voicemail.text, req),
                  },
                },
              }
            : {}),
        },
      },
      retell_llm_dynamic_variables: dynamicVariables(req.inputData),
      metadata: callMetadata(req, voicemail),
    });
    return { providerCallId: call.call_id };
  }

  async getCall(ref: CallRef): Promise<CallEvent | null> {
    if (!ref.providerCallId) return null;
    const call = (await (
      await this.client()
    ).call.retrieve(ref.providerCallId)) as unknown as Record<string, unknown>;
    if (call.call_status === 'ended' || call.call_status === 'error') {
      return this.event('ended', call, ref.callLogId, null);
    }
    if (call.call_status === 'ongoing') return this.event('started', call, ref.callLogId, null);
    return null;
  }

  /** Verifies `x-retell-signature` over the raw body with the API key, then reads the webhook. */
  async readEvents(req: ProviderRequest): Promise<CallEvent[]> {
    const raw = req.rawBody.toString('utf8');
    const signature = req.headers['x-retell-signature'] ?? '';
    // A missing SDK is the operator's to fix (PackageMissingError), not a bad signature; a malformed
    // signature header may make the verifier throw: it is as bad as a wrong one.
    const Sdk = await this.retellSdk();
    const valid = await Promise.resolve()
      .then(() => Sdk.verify(raw, this.connection.credentials.api_key, signature))
      .catch(() => false);
    if (!valid) {
      throw new UnauthorizedError('Invalid Retell signature');
    }
    const body = parseJsonBody(raw);
    if (!isRecord(body) || !isRecord(body.call)) return [];
    const call = body.call;
    const callLogId = callLogIdOf(isRecord(call.metadata) ? call.metadata.call_log_id : null);
    const final =
      this.connection.settings.final_event === 'call_ended' ? 'call_ended' : 'call_analyzed';
    if (body.event === 'call_started') {
      return [this.event('started', call, callLogId, timestamp(call.start_timestamp))];
    }
    if (body.event === final || body.event === 'call_analyzed') {
      return [this.event('ended', call, callLogId, timestamp(call.end_timestamp))];
    }
    return [];
  }

  /** `retell-sdk`'s client class (also its signature verifier), loaded on the first call or webhook. */
  private retellSdk(): Promise<typeof Retell> {
    return this.sdks.load<{ default: typeof Retell }>('retell').then((m) => m.default);
  }

  /** The call's `started` or `ended` event (with its result), keyed by Retell's call id. */
  private event(
    kind: CallEvent['kind'],
    call: Record<string, unknown>,
    callLogId: number | null,
    at: Date | null,
  ): CallEvent {
    const id = String(call.call_id);
    const key = `retell:${id}:${kind}`;
    const event: CallEvent = { key, kind, providerCallId: id, callLogId, at };
    if (kind === 'started') return event;
    const voicemailDrop =
      typeof this.connection.settings.voicemail_message === 'string' ||
      (isRecord(call.metadata) && call.metadata[CAMPAIGN_VOICEMAIL_MARK] === true);
    return {
      ...event,
      result: retellCallResult(call as unknown as RetellCallReport, voicemailDrop),
    };
  }
}

/** Retell's timestamps are epoch milliseconds; null when absent (the service takes its receipt time). */
function timestamp(value: unknown): Date | null {
  return typeof value === 'number' && Number.isFinite(value) ? new Date(value) : null;
}

/** Retell's dynamic variables are strings. */
function dynamicVariables(inputData: Record<string, unknown>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(inputData).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)]),
  );
}
