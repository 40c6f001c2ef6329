import type * as VapiSdk from '@vapi-ai/server-sdk';
import type { VapiClient } from '@vapi-ai/server-sdk';
import { timingSafeEqual } from 'crypto';
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
import { vapiCallResult, VapiCallReport } from '../../domain/vapi-outcome.js';
import { parseJsonBody } from './json-body.js';
import { ProviderSdks, providerSdks } from './provider-sdks.js';
import { fillPlaceholders } from '../../domain/twiml-template.js';

/**
 * Vapi through `@vapi-ai/server-sdk`: an outbound call with the connection's assistant and phone
 * number, the target's input data as the assistant's variable values, our ids in its metadata, and
 * this call's server messages sent to our events URL.
 */
export class VapiCallClient extends CallProvider {
  /** The connection id: the `{connection}` of its events route and its call logs' `provider`. */
  readonly name: string;

  private sdkClient: Promise<VapiClient> | null = null;

  constructor(
    private readonly connection: ResolvedConnection,
    /** How the SDK reaches Vapi: only where the destination policy allows (see pinned-fetch.ts). */
    private readonly fetch: typeof globalThis.fetch,
    private readonly sdks: ProviderSdks = providerSdks,
  ) {
    super();
    this.name = connection.id;
  }

  /**
   * The SDK is loaded on first use, not at start: it is an optional peer dependency, and about 2,500
   * modules, half of what the whole service loads (see provider-sdks.ts).
   */
  private client(): Promise<VapiClient> {
    return (this.sdkClient ??= this.sdks.load<typeof VapiSdk>('vapi').then(
      ({ VapiClient }) =>
        new VapiClient({
          token: this.connection.credentials.api_key,
          baseUrl: String(this.connection.settings.api_base_url),
          fetch: this.fetch,
          // A retried create could dial twice; the engine decides what to do after a failure.
          maxRetries: 0,
        }),
    ));
  }

  async startCall(req: StartCallRequest): Promise<{ providerCallId: string }> {
    const settings = this.connection.settings;
    const voicemail = voicemailMessageOf(req.voicemailMessage, settings);
    const call = (await (
      await this.client()
    ).calls.create({
      assistantId: String(settings.assistant_id),
      phoneNumberId: String(settings.phone_number_id),
      customer: { number: req.to },
      assistantOverrides: {
        variableValues: req.inputData,
        metadata: callMetadata(req, voicemail),
        server: { url: req.eventsUrl },
        ...(voicemail
          ? {
              // Vapi hangs up on a voicemail box unless told what to say; detection is off unless set.
              voicemailMessage: fillPlaceholders(voicemail.text, req),
              voicemailDetection: { provider: 'vapi' as const },
            }
          : {}),
      },
    })) as { id: string };
    return { providerCallId: call.id };
  }

  async getCall(ref: CallRef): Promise<CallEvent | null> {
    // Vapi's call list cannot be searched by our metadata.
    if (!ref.providerCallId) return null;
    const call = await (await this.client()).calls.get({ id: ref.providerCallId });
    return this.event(call as unknown as Record<string, unknown>, ref.callLogId, null);
  }

  /** Authenticates the server secret (`X-Vapi-Secret`), then reads one server message. */
  async readEvents(req: ProviderRequest): Promise<CallEvent[]> {
    if (!sameSecret(req.headers['x-vapi-secret'], this.connection.credentials.server_secret)) {
      throw new UnauthorizedError('Invalid Vapi server secret');
    }
    const body = parseJsonBody(req.rawBody.toString('utf8'));
    const message = isRecord(body) && isRecord(body.message) ? body.message : null;
    if (!message || !isRecord(message.call)) return [];
    const call = message.call;
    const at = typeof message.timestamp === 'number' ? new Date(message.timestamp) : null;
    const callLogId = callLogIdOf(metadataOf(call).call_log_id);
    if (message.type === 'status-update' && message.status === 'in-progress') {
      return [this.started(String(call.id), callLogId, at)];
    }
    if (message.type === 'end-of-call-report') {
      // The report carries the artifact and analysis; the call object may not yet.
      const report = { ...call, ...message, status: 'ended' };
      const event = this.event(report, callLogId, at);
      return event ? [event] : [];
    }
    return [];
  }

  private event(
    call: Record<string, unknown>,
    callLogId: number | null,
    at: Date | null,
  ): CallEvent | null {
    const id = typeof call.id === 'string' ? call.id : null;
    const ids = {
      providerCallId: id,
      callLogId: callLogId ?? callLogIdOf(metadataOf(call).call_log_id),
    };
    if (call.status === 'ended' && typeof call.endedReason === 'string') {
      const report: VapiCallReport = {
        callId: id,
        endedReason: call.endedReason,
        startedAt: call.startedAt as string | undefined,
        endedAt: call.endedAt as string | undefined,
        artifact: call.artifact as VapiCallReport['artifact'],
        analysis: call.analysis as VapiCallReport['analysis'],
      };
      return {
        ...ids,
        at,
        key: `vapi:${id}:ended`,
        kind: 'ended',
        result: vapiCallResult(
          report,
          typeof this.connection.settings.voicemail_message === 'string' ||
            metadataOf(call)[CAMPAIGN_VOICEMAIL_MARK] === true,
        ),
      };
    }
    if (call.status === 'in-progress' && id) return this.started(id, ids.callLogId, at);
    return null;
  }

  private started(id: string, callLogId: number | null, at: Date | null): CallEvent {
    return { key: `vapi:${id}:started`, kind: 'started', providerCallId: id, callLogId, at };
  }
}

function metadataOf(call: Record<string, unknown>): Record<string, unknown> {
  const overrides = call.assistantOverrides;
  return isRecord(overrides) && isRecord(overrides.metadata) ? overrides.metadata : {};
}

function sameSecret(given: string | undefined, expected: string): boolean {
  const a = Buffer.from(given ?? '');
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}
