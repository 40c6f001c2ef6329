import { randomUUID } from 'crypto';
import { ProviderEmulator, Route } from './emulator-server.js';

/**
 * Bell Telephony, an imaginary carrier for the voice-provider extension tests: `POST /calls` (Bearer
 * API key) answers 201 `{ "id" }` and remembers where to post the call's end; `complete(id)` posts
 * `{ "event_id", "call_id", "reference", "result" }` there with the API key in `X-Bell-Key`.
 */
export class BellEmulator extends ProviderEmulator {
  readonly calls = new Map<string, { callbackUrl: string; reference: string; apiKey: string }>();

  protected routes(): [string, RegExp, Route][] {
    return [
      [
        'POST',
        /^\/calls$/,
        (req) => {
          const apiKey = (req.headers.authorization ?? '').replace(/^Bearer /, '');
          if (!apiKey) return { status: 401, body: { error: 'no key' } };
          const body = JSON.parse(req.rawBody) as { callback_url: string; reference: string };
          const id = `bell-${randomUUID()}`;
          this.calls.set(id, { callbackUrl: body.callback_url, reference: body.reference, apiKey });
          return { status: 201, body: { id } };
        },
      ],
    ];
  }

  /** Posts the call's end as Bell would; returns the receiver's status. */
  async complete(callId: string, result: 'answered' | 'no_answer', apiKey?: string) {
    const call = this.calls.get(callId)!;
    const body = JSON.stringify({
      event_id: `evt-${callId}`,
      call_id: callId,
      reference: call.reference,
      result,
    });
    const posted = await this.post(
      call.callbackUrl,
      { 'content-type': 'application/json', 'x-bell-key': apiKey ?? call.apiKey },
      body,
    );
    return posted.status;
  }
}
