/**
 * Errors that mean "the database cannot be reached right now" (a restart, a failover, a network cut,
 * a terminated backend), as opposed to a bad statement. The API answers them with 503 and
 * `Retry-After`; workers log them and try again.
 */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
]);

/** Seconds a client should wait before retrying while the database is away (`Retry-After`). */
export const UNAVAILABLE_RETRY_AFTER_SECONDS = 5;

/** SQLSTATEs: admin_shutdown, crash_shutdown, cannot_connect_now, too_many_connections. */
const SERVER_CODES = new Set(['57P01', '57P02', '57P03', '53300']);

const MESSAGES = [
  /connection terminated/i,
  /timeout exceeded when trying to connect/i,
  /not queryable/i,
  /not currently accepting connections/i,
  /cannot use a pool after calling end/i,
  /connection (is )?(closed|ended)/i,
  /terminating connection/i,
];

// SQLSTATE class 08: connection exception.
const isUnavailableCode = (code: string) =>
  NETWORK_CODES.has(code) || SERVER_CODES.has(code) || code.startsWith('08');

export function isDatabaseUnavailable(err: unknown): boolean {
  for (let e = err, depth = 0; e && typeof e === 'object' && depth < 4; depth++) {
    const { code, message } = e as { code?: unknown; message?: unknown };
    if (typeof code === 'string' && isUnavailableCode(code)) return true;
    if (typeof message === 'string' && MESSAGES.some((m) => m.test(message))) return true;
    e = (e as { driverError?: unknown; cause?: unknown }).driverError ?? (e as any).cause;
  }
  return false;
}
