/**
 * Where a connection's `api_base_url` may point: its requests carry the stored credentials, so the
 * address policy that keeps webhooks off the service's own network applies (PROVIDER_ALLOW_PRIVATE).
 * Checked when the URL is saved; the clients check it again at each connect.
 */
export abstract class ProviderDestinations {
  /** Why `url` is refused (`127.0.0.1 resolves to 127.0.0.1, a loopback address ...`), or null. */
  abstract refusal(url: string): Promise<string | null>;
}
