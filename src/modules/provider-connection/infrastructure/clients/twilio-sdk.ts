import type twilio from 'twilio';
import {
  DestinationPolicy,
  pinnedLookup,
  resolveDestination,
} from '../../../../common/net/outbound-destination.js';
import { ResolvedConnection } from '../../domain/provider-connection.js';
import { ProviderSdks } from './provider-sdks.js';

/** The `twilio` package, loaded on first use (an optional peer dependency: see provider-sdks.ts). */
export const loadTwilio = (sdks: ProviderSdks): Promise<typeof twilio> =>
  sdks.load<{ default: typeof twilio }>('twilio').then((m) => m.default);

/** The official client of a connection: its account, its `api_base_url`, its destination policy. */
export async function twilioRestClient(
  connection: ResolvedConnection,
  destinations: DestinationPolicy,
  sdks: ProviderSdks,
): Promise<ReturnType<typeof twilio>> {
  const sdk = await loadTwilio(sdks);
  const { account_sid, auth_token } = connection.credentials;
  const client = sdk(account_sid, auth_token);
  client.api.baseUrl = String(connection.settings.api_base_url);
  // The SDK sends through axios: each request's host is checked, and its connection pinned to the
  // checked address, before the auth token goes out (see outbound-destination.ts).
  client.httpClient.axios.interceptors.request.use(async (config) => {
    const destination = await resolveDestination(
      new URL(String(config.url), config.baseURL),
      destinations,
    );
    config.lookup = pinnedLookup(destination) as NonNullable<typeof config.lookup>;
    return config;
  });
  return client;
}

/** The form parameters of a Twilio request, once `X-Twilio-Signature` matches them and the URL. */
export async function verifiedTwilioParams(
  authToken: string,
  req: { rawBody: Buffer; headers: Record<string, string>; url: string },
  sdks: ProviderSdks,
): Promise<Record<string, string> | null> {
  const params = Object.fromEntries(new URLSearchParams(req.rawBody.toString('utf8')));
  const signature = req.headers['x-twilio-signature'] ?? '';
  const sdk = await loadTwilio(sdks);
  return sdk.validateRequest(authToken, signature, req.url, params) ? params : null;
}
