import { Agent, fetch as undiciFetch } from 'undici';
import { DestinationPolicy, pinnedLookup, resolveDestination } from './outbound-destination.js';

/**
 * A `fetch` (for our own requests and the providers' SDKs) that goes only where `policy` allows: each
 * request's host is resolved and checked (`resolveDestination`), and its connection, redirects
 * included, pinned to the checked address, so DNS cannot move it after the check. Refused requests
 * reject with `RefusedDestinationError` and send nothing. Undici's own `fetch` is used with its
 * `Agent`: the connector's `lookup` is the only way to pin a fetch's connection.
 */
export function pinnedFetch(policy: DestinationPolicy): typeof fetch {
  const guarded = async (input: string | URL | Request, init?: RequestInit) => {
    const request = typeof input === 'string' || input instanceof URL ? null : input;
    const url = new URL(request ? request.url : String(input));
    const destination = await resolveDestination(url, policy);
    const dispatcher = new Agent({ connect: { lookup: pinnedLookup(destination) } });
    const options = request
      ? {
          method: request.method,
          headers: request.headers,
          body: request.body,
          signal: request.signal,
          duplex: 'half',
          ...init,
        }
      : init;
    try {
      return (await undiciFetch(url, {
        ...(options as object),
        dispatcher,
      })) as unknown as Response;
    } finally {
      // Graceful: the response body is still read to its end; the connection is not kept for reuse.
      void dispatcher.close();
    }
  };
  return guarded as typeof fetch;
}
