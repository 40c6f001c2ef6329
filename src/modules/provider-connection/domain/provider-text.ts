/**
 * Texts through a provider connection, in neutral shapes: what the messaging module sends and what a
 * provider posts back (status reports on our texts, texts it received for our numbers).
 */
import type { ProviderRequest } from '../../telephony/application/ports/call-provider.js';

/** Where a text stands as a provider reports it (our `queued` is before the provider has it). */
export type ProviderTextStatus = 'sent' | 'delivered' | 'undelivered' | 'failed';

export interface ProviderTextRequest {
  to: string;
  /** The sender's number; a connection's `messaging_service_sid` setting sends through that instead. */
  from: string | null;
  body: string;
  /** Where the provider posts status reports (the connection's messages route under PUBLIC_BASE_URL). */
  statusCallbackUrl: string | null;
}

export interface ProviderTextResult {
  providerMessageId: string;
  from: string | null;
  status: ProviderTextStatus;
  errorCode: string | null;
  errorMessage: string | null;
}

/** What a provider posted to the messages route, once its signature is checked. */
export type ProviderTextReport =
  | {
      kind: 'status';
      providerMessageId: string;
      status: ProviderTextStatus;
      errorCode: string | null;
      errorMessage: string | null;
    }
  | { kind: 'received'; providerMessageId: string; from: string; to: string; body: string };

export interface ProviderTextClient {
  send(req: ProviderTextRequest): Promise<ProviderTextResult>;
  /** Verifies the request's signature (UnauthorizedError when it fails) and reads it; null: not ours. */
  readMessageRequest(req: ProviderRequest): Promise<ProviderTextReport | null>;
}
