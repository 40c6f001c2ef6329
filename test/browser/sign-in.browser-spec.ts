/**
 * Signing in to the console in a real browser, beyond email and password: the code field a person
 * with a second factor is asked for (their organization requires one; the code comes from `otpauth`,
 * as their authenticator app computes it), and the single sign-on button, followed through a real
 * OpenID Connect provider on loopback (its log-in and consent pages) back to the console.
 */
import { randomBytes } from 'crypto';
import { existsSync } from 'fs';
import type { Server } from 'http';
import { Secret, TOTP } from 'otpauth';
import type { Browser, Page } from 'playwright-core';
import { createPerson } from '../support/console-people.js';
import { oidcEnv, startOidcProvider } from '../support/oidc-provider.js';
import { ensureBuilt, freePort } from '../support/run-process.js';
import { createTestApp, TestApp } from '../support/test-app.js';

const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

/** The code an authenticator app shows at `at` for that secret (SHA-1, 6 digits, 30 s). */
function authenticatorCode(secret: string, at: number): string {
  return new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30 }).generate({
    timestamp: at,
  });
}

if (!existsSync(CHROMIUM)) {
  describe('signing in to the console', () => {
    // eslint-disable-next-line vitest/no-disabled-tests -- one skipped test saying why
    it.skip(`SKIPPED: needs Chromium at ${CHROMIUM}`, () => undefined);
  });
} else {
  // eslint-disable-next-line vitest/no-identical-title -- the other branch of the if: one of the two is defined
  describe('signing in to the console', () => {
    let service: TestApp;
    let provider: { issuer: string; server: Server };
    let browser: Browser;
    let baseUrl: string;

    beforeAll(async () => {
      ensureBuilt();
      // The provider must know where to send people back before the app starts: the app's port first.
      const port = await freePort();
      baseUrl = `http://127.0.0.1:${port}`;
      provider = await startOidcProvider(
        { dana: { email: 'dana@sso.example', name: 'Dana Reyes', groups: ['nurses'] } },
        `${baseUrl}/api/v1/sso/callback`,
      );
      service = await createTestApp({
        env: {
          ...oidcEnv(provider.issuer, `SSO in a browser ${process.pid}-${Date.now()}`),
          PUBLIC_BASE_URL: baseUrl,
          // TOTP secrets are sealed with it (PostgreSQL has no generated key).
          SECRETS_KEY: randomBytes(32).toString('base64'),
        },
      });
      await service.app.listen(port, '127.0.0.1');
      const { chromium } = await import('playwright-core');
      browser = await chromium.launch({
        executablePath: CHROMIUM,
        headless: true,
        args: ['--no-sandbox', '--disable-gpu', '--no-first-run'],
      });
    }, 300_000);

    afterAll(async () => {
      await browser?.close();
      await service?.close();
      provider?.server.close();
    });

    /** A page of a browser context of its own: no cookie left over from another test. */
    async function freshPage(): Promise<Page> {
      const page = await (await browser.newContext()).newPage();
      page.setDefaultTimeout(15_000);
      await page.goto(`${baseUrl}/console/`);
      await page.getByLabel('Email').waitFor();
      return page;
    }

    it('asks a person with a second factor for the code, and signs them in with it', async () => {
      const { apiKey } = await service.createOrganization('Requires a second factor');
      await service
        .http()
        .put('/api/v1/sign-in-policy')
        .set('X-API-Key', apiKey)
        .send({ require_totp: true })
        .expect(200);
      const person = await createPerson(service, apiKey, 'operator', 'Tess Code');
      // The person sets up their authenticator app (through the API, as the console's set-up does).
      const signed = await service
        .http()
        .post('/api/v1/sessions')
        .send({ email: person.email, password: person.password })
        .expect(201);
      const cookie = ([] as string[])
        .concat(signed.headers['set-cookie'])
        .find((c) => c.startsWith('ccs_session='))!
        .split(';')[0];
      const as = <R extends { set(k: string, v: string): R }>(r: R) =>
        r.set('Cookie', cookie).set('X-CSRF-Token', signed.body.session.csrf_token);
      const started = await as(service.http().post('/api/v1/me/totp')).expect(201);
      const secret = started.body.secret as string;
      await as(service.http().post('/api/v1/me/totp/confirm'))
        .send({ code: authenticatorCode(secret, Date.now()) })
        .expect(200);

      const page = await freshPage();
      await page.getByLabel('Email').fill(person.email);
      await page.getByLabel('Password').fill(person.password);
      await page.getByRole('button', { name: 'Sign in', exact: true }).click();
      const codeField = page.getByLabel('Code from your authenticator app');
      await codeField.waitFor();
      await expect(page.locator('#sign-in-error').textContent()).resolves.toBe(
        'Enter the 6-digit code your authenticator app shows.',
      );
      // The code of the next 30-second step: the one that confirmed the set-up works only once,
      // and the service accepts one step either side of its clock.
      await codeField.fill(authenticatorCode(secret, Date.now() + 30_000));
      await page.getByRole('button', { name: 'Sign in', exact: true }).click();
      await page.getByTestId('who').filter({ hasText: 'Tess Code' }).waitFor();
      await expect(page.getByTestId('who').textContent()).resolves.toBe('Tess Code · Operator');
      await page.context().close();
    });

    it('offers single sign-on, and follows the provider back to the console signed in', async () => {
      const page = await freshPage();
      const button = page.getByRole('link', { name: 'Sign in with single sign-on' });
      await button.waitFor();
      await expect(button.getAttribute('href')).resolves.toBe('/api/v1/sso/login');
      await button.click();
      // The provider's own pages: log in (any password), then consent.
      await page.waitForURL((url) => url.href.startsWith(provider.issuer));
      await page.locator('input[name="login"]').fill('dana');
      await page.locator('input[name="password"]').fill('any password');
      await page.getByRole('button', { name: 'Sign-in' }).click();
      await page.getByRole('button', { name: 'Continue' }).click();
      await page.getByTestId('who').filter({ hasText: 'Dana Reyes' }).waitFor();
      expect(page.url()).toBe(`${baseUrl}/console/`);
      await expect(page.getByTestId('who').textContent()).resolves.toBe('Dana Reyes · Operator');
      // The session is the browser's cookie, unreadable by the page's scripts.
      await expect(page.evaluate('document.cookie')).resolves.toBe('');
      await page.context().close();
    });
  });
}
