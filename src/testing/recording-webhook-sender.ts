import {
  WebhookRequest,
  WebhookResponse,
  WebhookSender,
} from '../modules/webhook/application/ports/webhook-sender.js';

export type ScriptedReply =
  Partial<WebhookResponse> | ((request: WebhookRequest) => Partial<WebhookResponse>);

/**
 * Records every request and answers from a script (then `fallback`, 200 by default), for unit tests
 * and integrators who want notifications without a receiver.
 */
export class RecordingWebhookSender extends WebhookSender {
  readonly sent: WebhookRequest[] = [];
  private readonly script: ScriptedReply[] = [];

  constructor(private fallback: ScriptedReply = { statusCode: 200 }) {
    super();
  }

  /** The next answers, in order. */
  answer(...replies: ScriptedReply[]): this {
    this.script.push(...replies);
    return this;
  }

  async send(request: WebhookRequest): Promise<WebhookResponse> {
    this.sent.push(structuredClone(request));
    const next = this.script.shift() ?? this.fallback;
    const reply = typeof next === 'function' ? next(request) : next;
    return { statusCode: null, error: null, responseExcerpt: null, durationMs: 1, ...reply };
  }
}
