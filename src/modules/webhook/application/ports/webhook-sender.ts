/**
 * One notification to POST. The sender signs it (Standard Webhooks: `webhook-id` is `messageId`,
 * `webhook-timestamp` is `sentAt`, `webhook-signature` signs both with the body under `secret`), so
 * the application never touches a signing library.
 */
export interface WebhookRequest {
  url: string;
  body: string;
  /** The event id: the same on every attempt and rerun, so receivers can deduplicate. */
  messageId: string;
  sentAt: Date;
  secret: string;
}

/**
 * What became of one POST. `statusCode` is null when no response came (refused by the address guard,
 * DNS or connection failure, timeout); `error` then says why.
 */
export interface WebhookResponse {
  statusCode: number | null;
  error: string | null;
  /** The start of the response body, capped (see RESPONSE_EXCERPT_BYTES). */
  responseExcerpt: string | null;
  durationMs: number;
}

/** Sends one signed notification. Never throws for a receiver's failure: it reports it. */
export abstract class WebhookSender {
  abstract send(request: WebhookRequest): Promise<WebhookResponse>;
}
