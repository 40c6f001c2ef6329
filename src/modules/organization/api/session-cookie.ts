import type { Request, Response } from 'express';

/** The session cookie: the session's secret, out of reach of scripts and of other sites. */
export const SESSION_COOKIE = 'ccs_session';
/** The header a signed-in request that changes something carries (the token given at sign-in). */
export const CSRF_HEADER = 'x-csrf-token';

/**
 * `HttpOnly` (no script reads it), `Secure` (HTTPS only; browsers treat http://localhost and
 * http://127.0.0.1 as secure, so the local demo works), `SameSite=Strict` (no other site's page
 * sends it). No Max-Age: it ends with the browser, and the server ends the session before that
 * when it is idle or old.
 */
export function setSessionCookie(res: Response, token: string): void {
  res.append('Set-Cookie', `${SESSION_COOKIE}=${token}; Path=/; HttpOnly; Secure; SameSite=Strict`);
}

export function clearSessionCookie(res: Response): void {
  res.append(
    'Set-Cookie',
    `${SESSION_COOKIE}=; Path=/; HttpOnly; Secure; SameSite=Strict; Max-Age=0`,
  );
}

export function sessionToken(req: Request): string | undefined {
  return readCookie(req, SESSION_COOKIE);
}

export function readCookie(req: Request, name: string): string | undefined {
  const header = req.headers.cookie;
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) {
      return part.slice(eq + 1).trim() || undefined;
    }
  }
  return undefined;
}

/** Methods that change nothing need no CSRF token. */
export function isSafeMethod(method: string): boolean {
  return method === 'GET' || method === 'HEAD' || method === 'OPTIONS';
}
