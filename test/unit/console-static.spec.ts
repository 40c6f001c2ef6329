import express from 'express';
import { mkdtempSync, rmSync, writeFileSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';
import request from 'supertest';
import { CONSOLE_CSP, serveConsole } from '../../src/modules/console/console-static.js';

describe('serving the operator console', () => {
  const dir = mkdtempSync(join(tmpdir(), 'console-static-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const appWith = (consoleDir: string) => {
    const app = express();
    // As app.setup.ts sets it for API answers; the console's files keep their own ETags.
    app.set('etag', false);
    serveConsole(app, consoleDir);
    app.use((_req, res) => res.status(404).json({ detail: 'Not Found' }));
    return app;
  };

  it('redirects / to /console/', async () => {
    const res = await request(appWith(dir)).get('/');
    expect(res.status).toBe(302);
    expect(res.headers.location).toBe('/console/');
  });

  it('serves the build with a strict CSP and no caching surprises', async () => {
    writeFileSync(join(dir, 'index.html'), '<!doctype html><title>console</title>');
    writeFileSync(join(dir, 'app.js'), 'export {};');
    const app = appWith(dir);
    const index = await request(app).get('/console/');
    expect(index.status).toBe(200);
    expect(index.text).toContain('<title>console</title>');
    expect(index.headers['content-security-policy']).toBe(CONSOLE_CSP);
    expect(CONSOLE_CSP).toMatch(/default-src 'none'/);
    expect(CONSOLE_CSP).toMatch(/script-src 'self'(;|$)/);
    expect(CONSOLE_CSP).not.toMatch(/unsafe-(inline|eval)/);
    expect(index.headers['x-content-type-options']).toBe('nosniff');
    expect(index.headers['referrer-policy']).toBe('no-referrer');
    expect(index.headers['cache-control']).toBe('no-cache');
    const script = await request(app).get('/console/app.js');
    expect(script.headers['content-type']).toMatch(/javascript/);
    // no-cache means revalidate: the file's ETag answers 304 while it is unchanged.
    expect(script.headers.etag).toEqual(expect.any(String));
    const unchanged = await request(app)
      .get('/console/app.js')
      .set('If-None-Match', script.headers.etag);
    expect(unchanged.status).toBe(304);
    expect(script.headers['content-security-policy']).toBe(CONSOLE_CSP);
    // Outside the console's files: the service's own 404, untouched.
    const missing = await request(app).get('/console/nope.js');
    expect(missing.status).toBe(404);
    expect(
      (await request(app).get('/api/v1/anything')).headers['content-security-policy'],
    ).toBeUndefined();
  });

  it('answers 503 with what to run when the console is not built', async () => {
    const res = await request(appWith(join(dir, 'absent'))).get('/console/');
    expect(res.status).toBe(503);
    expect(res.text).toMatch(/npm run build/);
  });
});
