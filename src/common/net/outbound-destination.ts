import { lookup as dnsLookup } from 'dns/promises';
import type { LookupFunction } from 'net';
import { blockedReason } from './address-policy.js';

export interface ResolvedAddress {
  address: string;
  family: number;
}

/** Host name to addresses. */
export type Resolver = (host: string) => Promise<ResolvedAddress[]>;

export const systemResolve: Resolver = (host) => dnsLookup(host, { all: true, verbatim: true });

/**
 * Where an outbound request may go: loopback, private, link-local and the other ranges of
 * `address-policy.ts` only when `allowPrivate` (an operator's setting, named in refusals).
 */
export interface DestinationPolicy {
  allowPrivate: boolean;
  /** The environment variable that allows private destinations: `WEBHOOK_ALLOW_PRIVATE`, ... */
  setting: string;
  /** The system resolver unless a test replaces it. */
  resolve?: Resolver;
}

/** The destination is not allowed; the message says why, without the URL's path or query. */
export class RefusedDestinationError extends Error {}

/**
 * Resolves the URL's host once and checks every address it resolves to (a host with one private
 * address among public ones is refused: the connection could land on either). Returns the address to
 * connect to; `pinnedLookup` makes the connection use exactly it, so a DNS answer that changes between
 * this check and the connect (rebinding) cannot reach an internal address. An IP literal is checked as
 * it is (the resolver returns it unchanged).
 */
export async function resolveDestination(
  url: URL,
  policy: DestinationPolicy,
): Promise<ResolvedAddress> {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new RefusedDestinationError(`${url.protocol} is not http or https`);
  }
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const resolved = await (policy.resolve ?? systemResolve)(host);
  if (resolved.length === 0) throw new Error(`DNS lookup of ${host} returned no address`);
  if (!policy.allowPrivate) {
    for (const { address } of resolved) {
      const reason = blockedReason(address);
      if (reason !== null) {
        throw new RefusedDestinationError(
          `${host} resolves to ${address}, a ${reason} address (${policy.setting} is off)`,
        );
      }
    }
  }
  return resolved[0];
}

/** A `lookup` for node's http(s) and undici's connector that answers the checked address only. */
export function pinnedLookup({ address, family }: ResolvedAddress): LookupFunction {
  return (_hostname, options, callback) => {
    if ((options as { all?: boolean }).all) (callback as any)(null, [{ address, family }]);
    else callback(null, address, family);
  };
}

/** `promise`, or an error naming `what` once `deadline` (epoch ms) has passed. */
export function withDeadline<T>(promise: Promise<T>, deadline: number, what: string): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`${what} timed out`)),
      Math.max(1, deadline - Date.now()),
    );
    promise.then(
      (v) => (clearTimeout(timer), resolve(v)),
      (e) => (clearTimeout(timer), reject(e)),
    );
  });
}
