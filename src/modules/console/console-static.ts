import { existsSync } from 'fs';
import { join } from 'path';
import express, { NextFunction, Request, Response } from 'express';
import { SERVICE_PACKAGE } from '../../common/package/service-package.js';

/** The operator console's build (`console/build.js`): `dist/console` in the service's package. */
export const CONSOLE_DIR = join(SERVICE_PACKAGE.root, 'dist', 'console');
export const CONSOLE_PATH = '/console';

/**
 * Every console response is locked to the service's own origin: scripts, styles and requests only from
 * 'self' (no inline script or style element, no eval), no framing, no referrer. The console's only
 * dynamic styling is CSSOM (element.style), which this policy allows.
 */
export const CONSOLE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self'",
  "font-src 'self'",
  "connect-src 'self'",
  "manifest-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

function securityHeaders(_req: Request, res: Response, next: NextFunction): void {
  res.setHeader('Content-Security-Policy', CONSOLE_CSP);
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Referrer-Policy', 'no-referrer');
  res.setHeader('X-Frame-Options', 'DENY');
  res.setHeader('Cross-Origin-Opener-Policy', 'same-origin');
  res.setHeader('Cross-Origin-Resource-Policy', 'same-origin');
  // Files change with every build and are small: revalidate each time (ETag answers 304).
  res.setHeader('Cache-Control', 'no-cache');
  next();
}

/**
 * Serves the console's static files at /console from this same process, and redirects `/` there.
 * Without a build (`npm run build` makes one; `npm start` builds when it is missing) the console
 * answers 503 with what to run, and the API is unaffected.
 */
export function serveConsole(app: express.Express, dir: string = CONSOLE_DIR): void {
  app.use((req: Request, res: Response, next: NextFunction) => {
    if (req.path === '/' && (req.method === 'GET' || req.method === 'HEAD')) {
      res.redirect(302, `${CONSOLE_PATH}/`);
      return;
    }
    next();
  });
  app.use(CONSOLE_PATH, securityHeaders);
  app.use(CONSOLE_PATH, (req: Request, res: Response, next: NextFunction) => {
    if (existsSync(join(dir, 'index.html'))) return next();
    res
      .status(503)
      .type('text/plain')
      .send(
        'The operator console is not built: run `npm run build` (or `npm start`, which builds it).\n',
      );
  });
  app.use(
    CONSOLE_PATH,
    express.static(dir, {
      index: 'index.html',
      dotfiles: 'ignore',
      fallthrough: true,
      redirect: true,
    }),
  );
}
