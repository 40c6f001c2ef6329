import { randomBytes, scrypt, type ScryptOptions, timingSafeEqual } from 'crypto';

/**
 * Passwords at rest: scrypt (memory-hard), a random salt per password, and the parameters stored
 * with the hash so that they can be raised later without invalidating older hashes:
 * `scrypt$<N>$<r>$<p>$<salt base64url>$<hash base64url>`.
 */
const PARAMS = { N: 2 ** 15, r: 8, p: 1 } as const;
const KEY_LENGTH = 32;
const SALT_BYTES = 16;

function derive(password: string, salt: Buffer, params: ScryptOptions): Promise<Buffer> {
  // scrypt needs 128 * N * r bytes; Node's default ceiling (32 MiB) is exactly that at N=2^15.
  const maxmem = 256 * (params.N ?? 0) * (params.r ?? 0);
  return new Promise((resolve, reject) =>
    scrypt(password.normalize('NFKC'), salt, KEY_LENGTH, { ...params, maxmem }, (err, key) =>
      err ? reject(err) : resolve(key),
    ),
  );
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  const key = await derive(password, salt, PARAMS);
  return [
    'scrypt',
    PARAMS.N,
    PARAMS.r,
    PARAMS.p,
    salt.toString('base64url'),
    key.toString('base64url'),
  ].join('$');
}

/** False for a wrong password and for a stored value this code cannot read. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64url');
  const key = await derive(password, Buffer.from(salt, 'base64url'), {
    N: Number(n),
    r: Number(r),
    p: Number(p),
  });
  return key.length === expected.length && timingSafeEqual(key, expected);
}

/**
 * A hash of no one's password, verified when the email names no one, so that an unknown address
 * takes as long to refuse as a wrong password (the answer does not tell which either).
 */
export function unusablePasswordHash(): Promise<string> {
  unusable ??= hashPassword(randomBytes(16).toString('hex'));
  return unusable;
}
let unusable: Promise<string> | undefined;
