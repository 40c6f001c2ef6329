/**
 * The console as people of each role see it: what a role may not do is not offered (the Access page
 * for admins only, no Remove on the do-not-call list for an operator, no change at all for a
 * viewer), and the Access page's own flow (invite a person and follow the link to set a password, create
 * a key and see its secret once, revoke it). People are invited through the API with an admin key and
 * sign in through the console's form.
 */
import { existsSync } from 'fs';
import { AddressInfo } from 'net';
import type { Browser, Page } from 'playwright-core';
import { createPerson, signIn, signOut, type Person } from '../support/console-people.js';
import { ensureBuilt } from '../support/run-process.js';
import { createTestApp, TestApp } from '../support/test-app.js';

const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

if (!existsSync(CHROMIUM)) {
  describe('the console by role', () => {
    // eslint-disable-next-line vitest/no-disabled-tests -- one skipped test saying why
    it.skip(`SKIPPED: needs Chromium at ${CHROMIUM}`, () => undefined);
  });
} else {
  // eslint-disable-next-line vitest/no-identical-title -- the other branch of the if: one of the two is defined
  describe('the console by role', () => {
    let service: TestApp;
    let baseUrl: string;
    let browser: Browser;
    let page: Page;
    let apiKey: string;
    let campaignId: string;
    let targetId: string;
    const people = {} as Record<Person['role'], Person>;

    const navLinks = () =>
      page
        .locator('#main-nav a')
        .evaluateAll((links) => links.map((a) => (a.textContent ?? '').trim()));

    beforeAll(async () => {
      ensureBuilt();
      service = await createTestApp();
      await service.app.listen(0, '127.0.0.1');
      baseUrl = `http://127.0.0.1:${(service.app.getHttpServer().address() as AddressInfo).port}`;
      ({ apiKey } = await service.createOrganization('Roles in a browser'));
      campaignId = (await service.createCampaign(apiKey, { name: 'By role' })).id;
      [targetId] = await service.addTargets(apiKey, campaignId, {
        targets: [{ phone_number: '+14155550911' }],
      });
      await service
        .http()
        .post('/api/v1/compliance/do-not-call')
        .set('X-API-Key', apiKey)
        .send({ phone_numbers: [{ phone_number: '+14155550912', reason: 'Asked by letter' }] })
        .expect(200);
      for (const role of ['admin', 'operator', 'viewer'] as const)
        people[role] = await createPerson(service, apiKey, role, `Pat ${role}`);
      const { chromium } = await import('playwright-core');
      browser = await chromium.launch({
        executablePath: CHROMIUM,
        headless: true,
        args: ['--no-sandbox', '--disable-gpu', '--no-first-run'],
      });
      page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
      page.setDefaultTimeout(15_000);
      await page.goto(`${baseUrl}/console/`);
    }, 300_000);

    afterAll(async () => {
      await browser?.close();
      await service?.close();
    });

    it('offers an admin everything, the Access page included', async () => {
      await signIn(page, people.admin);
      await expect(page.getByTestId('who').textContent()).resolves.toBe('Pat admin · Admin');
      await expect(navLinks()).resolves.toEqual([
        'Campaigns',
        'Review queue',
        'Calling rules',
        'Do not call',
        'Audit',
        'Retention',
        'Patients',
        'Access',
        'API docs',
      ]);
      await page.goto(`${baseUrl}/console/#/do-not-call`);
      await page.getByRole('button', { name: 'Remove +14155550912…' }).waitFor();
      await expect(page.getByRole('button', { name: 'Add to the list' }).count()).resolves.toBe(1);
      await signOut(page);
    });

    it('offers an operator no Access, no Audit and no Remove on the do-not-call list', async () => {
      await signIn(page, people.operator);
      await expect(page.getByTestId('who').textContent()).resolves.toBe('Pat operator · Operator');
      await expect(navLinks()).resolves.toEqual([
        'Campaigns',
        'Review queue',
        'Calling rules',
        'Do not call',
        'Retention',
        'Patients',
        'API docs',
      ]);
      await page.goto(`${baseUrl}/console/#/do-not-call`);
      await page.getByText('Asked by letter').waitFor();
      await expect(page.getByRole('button', { name: /^Remove/ }).count()).resolves.toBe(0);
      await expect(page.getByRole('button', { name: 'Add to the list' }).count()).resolves.toBe(1);
      await page.goto(`${baseUrl}/console/#/compliance`);
      await page.getByText('Only an admin changes the calling rules.').waitFor();
      await expect(page.getByRole('button', { name: 'Save policy' }).count()).resolves.toBe(0);
      // The Access page by its address: the service's refusal, as a sentence.
      await page.goto(`${baseUrl}/console/#/access`);
      await expect(page.getByRole('alert').first().textContent()).resolves.toMatch(
        /^The operator role may not /,
      );
      await signOut(page);
    });

    it('offers a viewer no change: no new campaign, no pause, no trigger, no import, no edit', async () => {
      await page.goto(`${baseUrl}/console/#/campaigns`);
      await signIn(page, people.viewer);
      await expect(page.getByTestId('who').textContent()).resolves.toBe('Pat viewer · Viewer');
      await page.getByRole('link', { name: 'By role' }).waitFor();
      await expect(page.getByRole('link', { name: 'New campaign' }).count()).resolves.toBe(0);
      await page.goto(`${baseUrl}/console/#/campaigns/${campaignId}`);
      await page.getByRole('heading', { name: 'Progress' }).waitFor();
      for (const name of ['Pause', 'Resume', 'Trigger calls', 'Import'])
        await expect(page.getByRole('button', { name, exact: true }).count()).resolves.toBe(0);
      await expect(page.getByRole('link', { name: 'Settings' }).count()).resolves.toBe(0);
      await page.goto(`${baseUrl}/console/#/targets/${targetId}`);
      await page.getByRole('heading', { name: 'Timeline' }).waitFor();
      await expect(page.getByRole('button', { name: 'Edit input data' }).count()).resolves.toBe(0);
      await page.goto(`${baseUrl}/console/#/do-not-call`);
      await page.getByText('Asked by letter').waitFor();
      await expect(page.getByRole('button', { name: 'Add to the list' }).count()).resolves.toBe(0);
      await signOut(page);
    });

    it('lets an admin invite a person (who sets a password by the link) and create and revoke a key', async () => {
      await signIn(page, people.admin);
      await page.getByRole('link', { name: 'Access' }).click();
      await page.getByRole('heading', { name: 'Access', level: 1 }).waitFor();
      await page.getByRole('cell', { name: 'Pat viewer', exact: true }).waitFor();

      await page.getByLabel('Name', { exact: true }).fill('Sam Rivera');
      await page.getByLabel('Email').fill('sam.rivera@clinic.example');
      await page.getByLabel('Role', { exact: true }).selectOption('viewer');
      await page.getByRole('button', { name: 'Invite' }).click();
      const link = (await page.getByTestId('secret').textContent()) ?? '';
      // The link is on PUBLIC_BASE_URL (the test app's), its hash the console's route.
      expect(link).toMatch(/\/console\/#\/invitation\/[\w-]+$/);
      await page.getByRole('cell', { name: 'Sam Rivera', exact: true }).waitFor();
      await page.getByRole('button', { name: 'I have copied it' }).click();

      await page.getByLabel('Key name').fill('EHR link');
      await page.getByLabel('Key role').selectOption('integration');
      await page.getByRole('button', { name: 'Create key' }).click();
      const secret = (await page.getByTestId('secret').textContent()) ?? '';
      const keys = await service
        .http()
        .get('/api/v1/api-keys')
        .set('X-API-Key', apiKey)
        .expect(200);
      const created = (keys.body.api_keys as { id: string; name: string; role: string }[]).find(
        (k) => k.name === 'EHR link',
      );
      expect(created?.role).toBe('integration');
      // The secret shown is the key itself: it works, once, until revoked.
      await service.http().get('/api/v1/me').set('X-API-Key', secret).expect(200);
      await page.getByRole('button', { name: 'Revoke EHR link' }).click();
      await page.getByText('The key “EHR link” is revoked.').waitFor();
      await service.http().get('/api/v1/me').set('X-API-Key', secret).expect(401);
      await signOut(page);

      // The invited person follows the link, sets a password and signs in.
      await page.goto(`${baseUrl}/console/${new URL(link).hash}`);
      await page.getByLabel('Password (at least 12 characters)').fill('sam’s own password');
      await page.getByLabel('The same password again').fill('sam’s own password');
      await page.getByRole('button', { name: 'Set password' }).click();
      await page.getByRole('heading', { name: 'Your password is set' }).waitFor();
      await page.getByRole('link', { name: 'Sign in' }).click();
      await signIn(page, {
        email: 'sam.rivera@clinic.example',
        password: 'sam’s own password',
        name: 'Sam Rivera',
      });
      await expect(page.getByTestId('who').textContent()).resolves.toBe('Sam Rivera · Viewer');
    });

    it('returns to the sign-in form saying the session ended when the service ends it', async () => {
      // Signed in as Sam (the last test); an admin deactivates Sam, which ends Sam's sessions at once.
      const users = await service.http().get('/api/v1/users').set('X-API-Key', apiKey).expect(200);
      const sam = (users.body.users as { id: string; email: string }[]).find(
        (u) => u.email === 'sam.rivera@clinic.example',
      );
      await service.http().delete(`/api/v1/users/${sam!.id}`).set('X-API-Key', apiKey).expect(200);
      await page.goto(`${baseUrl}/console/#/do-not-call`);
      await page.getByText('Your session has ended: sign in again.').waitFor();
      await expect(page.getByLabel('Email').count()).resolves.toBe(1);
    });
  });
}
