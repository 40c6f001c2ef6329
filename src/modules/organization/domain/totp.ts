import { Secret, TOTP } from 'otpauth';

/** RFC 6238 as authenticator apps expect it: SHA-1, 6 digits, 30-second steps. */
const PERIOD_SECONDS = 30;
const ISSUER = 'Campaign Calling Service';

function totp(secret: string, label: string): TOTP {
  return new TOTP({
    issuer: ISSUER,
    label,
    algorithm: 'SHA1',
    digits: 6,
    period: PERIOD_SECONDS,
    secret: Secret.fromBase32(secret),
  });
}

/** A new secret (160 random bits, base32) and the otpauth:// URI an app reads from a QR code. */
export function newTotpSecret(label: string): { secret: string; uri: string } {
  const secret = new Secret({ size: 20 }).base32;
  return { secret, uri: totp(secret, label).toString() };
}

/**
 * The time step the code belongs to, if it is right at `now` or one step either side (clocks drift);
 * null otherwise. The caller refuses a step already used, so a code works once.
 */
export function totpStep(secret: string, code: string, now: Date): number | null {
  if (!/^\d{6}$/.test(code.trim())) return null;
  const delta = totp(secret, '').validate({
    token: code.trim(),
    timestamp: now.getTime(),
    window: 1,
  });
  return delta === null ? null : Math.floor(now.getTime() / 1000 / PERIOD_SECONDS) + delta;
}

/** The code an authenticator shows at `at` (tests and the demo only). */
export function totpCode(secret: string, at: Date): string {
  return totp(secret, '').generate({ timestamp: at.getTime() });
}
