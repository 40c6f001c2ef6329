/**
 * The operator console in a real browser: headless Chromium (Debian's `/usr/bin/chromium`, or
 * CHROMIUM_PATH) driven by playwright-core, against the real app on a test database with the simulated
 * provider placing the calls. Screenshots of each main page go to test-results/console/.
 *
 * Without Chromium the suite reports one skipped test saying why (`.ci/run` installs it, so CI never
 * skips).
 */
import { existsSync, mkdirSync } from 'fs';
import { AddressInfo } from 'net';
import { join } from 'path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { CONSOLE_CSP } from '../../src/modules/console/console-static.js';
import { DemoSeeder } from '../../src/modules/demo/demo-seeder.js';
import { seriousA11yViolations } from '../support/axe.js';
import { ensureBuilt, freePort } from '../support/run-process.js';
import { signIn } from '../support/console-people.js';
import { createTestApp, TestApp, waitFor } from '../support/test-app.js';

const ROOT = join(import.meta.dirname, '..', '..');
const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const SHOTS = join(ROOT, 'test-results', 'console');
const hasChromium = existsSync(CHROMIUM);

if (!hasChromium) {
  const why = `no Chromium at ${CHROMIUM} (apt-get install -y chromium, or set CHROMIUM_PATH)`;
  // Said when the file is collected: a skipped test's hooks never run.
  process.stderr.write(`\nBrowser tests SKIPPED: ${why}\n`);
  describe('operator console in a browser', () => {
    // eslint-disable-next-line vitest/no-disabled-tests -- one skipped test saying why
    it.skip(`SKIPPED: the browser tests need Chromium: ${why}`, () => undefined);
  });
} else {
  // eslint-disable-next-line vitest/no-identical-title -- the other branch of the if: one of the two is defined
  describe('operator console in a browser', () => {
    let service: TestApp;
    let baseUrl: string;
    let browser: Browser;
    let context: BrowserContext;
    let page: Page;
    let demo: {
      apiKey: string;
      campaignId: string;
      organizationId: string;
      admin: { email: string; password: string };
    };
    const foreignRequests: string[] = [];
    const cspViolations: string[] = [];
    const apiRequests: string[] = [];
    let targetIds: string[] = [];
    /** Second review-0: re-queued from the review queue, called again, then marked done. */
    let reviewedId = '';

    const api = (method: 'get' | 'post' | 'put' | 'patch', path: string, body?: unknown) => {
      const req = service.http()[method](path).set('X-API-Key', demo.apiKey);
      return body === undefined ? req : req.send(body as object);
    };
    const shot = (name: string) =>
      page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });
    /** The page at 390 px (a phone) too: its screenshot, and nothing wider than the screen. */
    const shotPhone = async (name: string) => {
      await page.setViewportSize({ width: 390, height: 844 });
      await expect(
        page.evaluate<number>(
          'document.documentElement.scrollWidth - document.documentElement.clientWidth',
        ),
      ).resolves.toBeLessThanOrEqual(0);
      await shot(`${name}-phone`);
      await page.setViewportSize({ width: 1280, height: 900 });
    };
    /** True when an element's text is cut (wider or taller than its box shows). */
    const clipped = (selector: string) =>
      page.evaluate<boolean>(`(() => {
        const el = document.querySelector(${JSON.stringify(selector)});
        const box = el.getBoundingClientRect();
        const parent = el.parentElement.getBoundingClientRect();
        return el.scrollWidth > el.clientWidth + 1 || box.right > parent.right + 1 || box.left < parent.left - 1;
      })()`);

    beforeAll(async () => {
      ensureBuilt();
      mkdirSync(SHOTS, { recursive: true });
      // Calls take a moment, so the page can show them in progress.
      service = await createTestApp({ env: { SIMULATED_CALL_SECONDS: '1' } });
      await service.app.listen(0, '127.0.0.1');
      baseUrl = `http://127.0.0.1:${(service.app.getHttpServer().address() as AddressInfo).port}`;
      demo = await service.app.get(DemoSeeder).seed();
      const { chromium } = await import('playwright-core');
      browser = await chromium.launch({
        executablePath: CHROMIUM,
        headless: true,
        args: [
          '--no-sandbox',
          '--disable-gpu',
          '--disable-background-networking',
          '--disable-component-update',
          '--disable-sync',
          '--no-first-run',
        ],
      });
      context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
      page = await context.newPage();
      page.setDefaultTimeout(15_000);
      page.on('request', (r) => {
        if (!r.url().startsWith(baseUrl) && !r.url().startsWith('data:'))
          foreignRequests.push(r.url());
        else if (r.url().startsWith(`${baseUrl}/api/`)) apiRequests.push(r.url());
      });
      page.on('console', (m) => {
        if (/Content Security Policy/i.test(m.text())) cspViolations.push(m.text());
      });
    }, 300_000); // a build of dist/ when it is stale

    afterAll(async () => {
      await browser?.close();
      await service?.close();
    });

    it('serves the console with a strict CSP, and / redirects there', async () => {
      const root = await service.http().get('/');
      expect(root.status).toBe(302);
      expect(root.headers.location).toBe('/console/');
      const res = await page.goto(`${baseUrl}/`);
      expect(page.url()).toBe(`${baseUrl}/console/`);
      const csp = res!.headers()['content-security-policy'];
      expect(csp).toBe(CONSOLE_CSP);
      expect(csp).toContain("script-src 'self'");
      expect(csp).not.toContain('unsafe-inline');
    });

    it('says so when the password is wrong (signing in by keyboard alone)', async () => {
      // The form is drawn once the console knows nobody is signed in (its first /me answers 401).
      await page.locator('#email').waitFor();
      await page.keyboard.press('Tab');
      await expect(page.evaluate('document.activeElement.id')).resolves.toBe('email');
      await page.keyboard.type(demo.admin.email);
      await page.keyboard.press('Tab');
      await page.keyboard.type('not the password at all');
      await page.keyboard.press('Enter');
      await expect(page.getByRole('alert').textContent()).resolves.toBe('Wrong email or password');
      await shot('sign-in-wrong-password');
    });

    it('signs in as a person with an HttpOnly session cookie (nothing in storage), and lists the demo campaign with its progress', async () => {
      await signIn(page, { ...demo.admin, name: 'Demo admin' });
      await page.getByRole('heading', { name: 'Campaigns', level: 1 }).waitFor();
      await expect(page.getByTestId('who').textContent()).resolves.toBe('Demo admin · Admin');
      await page.getByRole('link', { name: 'Demo campaign' }).waitFor();
      const storage = await page.evaluate<{ session: number; local: number; cookie: string }>(
        '({ session: sessionStorage.length, local: localStorage.length, cookie: document.cookie })',
      );
      expect(storage).toEqual({ session: 0, local: 0, cookie: '' });
      const cookies = await context.cookies();
      expect(cookies.map((c) => [c.name, c.httpOnly, c.sameSite])).toEqual([
        ['ccs_session', true, 'Strict'],
      ]);
      expect(page.url()).not.toContain(demo.admin.password);
      await page.locator('.card .bar-text').first().waitFor();
      await shot('campaigns');
    });

    it('creates a campaign: the API 422 at its fields, then the new campaign’s page', async () => {
      await page.getByRole('link', { name: 'New campaign' }).click();
      await page.getByRole('heading', { name: 'New campaign', level: 1 }).waitFor();
      expect(page.url()).toBe(`${baseUrl}/console/#/campaigns/new`);
      // The API's defaults are shown; an empty name and too many attempts are the API's to refuse.
      await expect(page.getByLabel('Max concurrent calls').inputValue()).resolves.toBe('10');
      await page.getByLabel('Max attempts').fill('99');
      await page.getByRole('button', { name: 'Create campaign' }).click();
      const nameError = page.locator('[data-field="name"] .field-error');
      await nameError.waitFor();
      await expect(nameError.textContent()).resolves.toMatch(/at least 1 character/);
      await expect(
        page.locator('[data-field="max_attempts"] .field-error').textContent(),
      ).resolves.toMatch(/less than or equal to 20/);
      await expect(page.getByLabel('Name').getAttribute('aria-invalid')).resolves.toBe('true');
      await expect(page.evaluate('document.activeElement.id')).resolves.toBe('n-name');
      await expect(page.locator('[data-field="type"] .field-error').count()).resolves.toBe(0);
      await shot('campaign-new-422');

      await page.getByLabel('Name').fill('Made in the console');
      await page.getByLabel('Who is called').selectOption('payor');
      await page.getByLabel('Max attempts').fill('4');
      await page.getByLabel('Retry delay (minutes)').fill('30');
      await page.getByLabel('Max concurrent calls').fill('2');
      await page.getByLabel('Webhook URL').fill('https://example.com/hooks/calls');
      // The calling window as days and hours: office hours Monday to Friday to start from, then
      // Monday only, until 17:30, Eastern time (chosen from the list of zones).
      const callingWindow = page.getByRole('group', { name: 'Calling window' });
      await expect(
        callingWindow.getByLabel('Any time (no calling window)').isChecked(),
      ).resolves.toBe(true);
      await callingWindow.getByLabel('Any time (no calling window)').uncheck();
      await expect(callingWindow.getByLabel('Friday from').inputValue()).resolves.toBe('09:00');
      for (const day of ['Tuesday', 'Wednesday', 'Thursday', 'Friday'])
        await callingWindow.getByRole('button', { name: `Remove ${day} 09:00–17:00` }).click();
      await expect(callingWindow.locator('li[data-day="friday"] .range').count()).resolves.toBe(0);
      await callingWindow.getByLabel('Monday until').fill('17:30');
      await callingWindow
        .getByLabel('Time zone of these hours')
        .selectOption({ label: 'Eastern (New York)' });
      await expect(page.locator('[data-field="calling_window"] textarea').count()).resolves.toBe(0);
      // Steps as a list: one added, its type and what a received step does chosen from words.
      await page.getByRole('button', { name: 'Add step' }).click();
      await page.getByLabel('Step 1 id').fill('intake-form');
      await page.getByLabel('Step 1 type').selectOption('ehr_event');
      await page.getByLabel('Step 1 on receipt').selectOption('merge_and_schedule');
      await expect(page.locator('[data-field="steps"] textarea').count()).resolves.toBe(0);
      await shot('campaign-new-window');
      await shotPhone('campaign-new-window');
      await page.getByRole('button', { name: 'Create campaign' }).click();
      await page.getByRole('heading', { name: 'Made in the console', level: 1 }).waitFor();
      const id = /#\/campaigns\/([0-9a-f-]{36})$/.exec(page.url())?.[1];
      expect(id).toBeDefined();
      const secret = await page.locator('[data-webhook-secret]').textContent();
      expect(secret).toMatch(/^whsec_/);
      await shot('campaign-new-created');
      const created = (await api('get', `/api/v1/campaigns/${id}`)).body;
      expect(created).toMatchObject({
        name: 'Made in the console',
        type: 'payor',
        max_attempts: 4,
        retry_delay_minutes: 30,
        max_concurrent_calls: 2,
        webhook_url: 'https://example.com/hooks/calls',
        calling_window: { monday: [{ start: '09:00', end: '17:30' }], tz: 'America/New_York' },
        steps: [
          { friendly_id: 'intake-form', type: 'ehr_event', on_receive: 'merge_and_schedule' },
        ],
        state: 'active',
      });
      // The secret is said once: the page shown again no longer has it.
      await page.getByRole('link', { name: 'Settings' }).click();
      await page.getByRole('link', { name: 'Made in the console' }).click();
      await page.getByRole('heading', { name: 'Made in the console', level: 1 }).waitFor();
      await expect(page.locator('[data-webhook-secret]').count()).resolves.toBe(0);
      await page.getByRole('link', { name: 'Campaigns', exact: true }).first().click();
      await page.getByRole('link', { name: 'Demo campaign' }).waitFor();
    });

    it('triggers calls from the campaign page and shows progress moving without a reload', async () => {
      // Every call's notification goes to a closed port, so the webhooks page has failed deliveries.
      const hook = `http://127.0.0.1:${await freePort()}/hook`;
      const patched = await api('patch', `/api/v1/campaigns/${demo.campaignId}`, {
        webhook_url: hook,
      });
      expect(patched.body.webhook_url).toBe(hook);
      const phones = [
        '+15550101201',
        '+15550101202',
        '+15550101203',
        '+15550100004',
        '+15550101205',
      ];
      const added = await api('post', `/api/v1/campaigns/${demo.campaignId}/targets`, {
        targets: phones.map((phone_number, i) => ({
          phone_number,
          external_id: `PAT-B${i + 1}`,
          input_data: { appointment: `day ${i + 1}` },
        })),
      });
      expect(added.status).toBe(200);
      targetIds = added.body.target_ids;

      await page.getByRole('link', { name: 'Demo campaign' }).click();
      await page.getByRole('heading', { name: 'Demo campaign', level: 1 }).waitFor();
      const count = (status: string) =>
        page.locator(`dd[data-status="${status}"]`).textContent().then(Number);
      await waitFor(
        () => count('Pending'),
        (n) => n === phones.length,
      );
      await page.evaluate('window.__sameDocument = true');

      await page.getByLabel('Targets to call').fill(String(phones.length));
      await page.getByRole('button', { name: 'Trigger calls' }).click();
      await expect(page.getByRole('status').first().textContent()).resolves.toMatch(
        `${phones.length} calls scheduled`,
      );
      // The bar's "done" figure moves from 0 to all of them as the simulator finishes the calls.
      const bar = page.locator('section[aria-labelledby="progress-h"] .bar');
      const seen = new Set<number>();
      await waitFor(
        async () => {
          const done = Number(await bar.getAttribute('data-done'));
          seen.add(done);
          return done;
        },
        (done) => done === phones.length,
        60_000,
        200,
      );
      expect(Math.min(...seen)).toBeLessThan(phones.length);
      // The counts come from one stats request per refresh, no longer from one target list per status.
      expect(apiRequests.filter((u) => /\/targets\?.*limit=1(&|$)/.test(u))).toEqual([]);
      expect(apiRequests.some((u) => u.includes(`/campaigns/${demo.campaignId}/stats`))).toBe(true);
      const stat = (key: string) => page.locator(`dd[data-stat="${key}"]`).textContent();
      await waitFor(
        () => stat('calls_in_flight'),
        (n) => n === '0',
      );
      await expect(stat('attempts').then(Number)).resolves.toBeGreaterThanOrEqual(phones.length);
      await expect(stat('connect_rate')).resolves.toMatch(/^\d+(\.\d)?%$/);
      await expect(stat('average_call_seconds')).resolves.toMatch(/\d+ s$/);
      await expect(stat('estimated_completion_at')).resolves.toBe('—');
      // By category: the 0004 number needed a person, the others were good calls.
      await expect(page.locator('dd[data-category="HUMAN_ONLY"]').textContent()).resolves.toBe('1');
      await expect(page.locator('dd[data-category="GOOD"]').textContent()).resolves.toBe('4');
      // Told in words, the API's code on hover, nothing cut off.
      const humanOnly = page.locator('.by-category dt .code-words[data-code="HUMAN_ONLY"]');
      await expect(humanOnly.textContent()).resolves.toBe('Needs a person');
      await expect(humanOnly.getAttribute('title')).resolves.toBe('HUMAN_ONLY');
      await expect(
        page.locator('.by-category dt .code-words[data-code="GOOD"]').textContent(),
      ).resolves.toBe('Good call');
      await expect(clipped('.by-category dt .code-words[data-code="HUMAN_ONLY"]')).resolves.toBe(
        false,
      );
      // A status in words, what it means on hover with the status itself.
      const finished = page.locator('tr[data-target-id] .badge.st-finished').first();
      await expect(finished.textContent()).resolves.toBe('Finished');
      await expect(finished.getAttribute('title')).resolves.toBe('Done: no more calls. (Finished)');
      expect(await count('Pending')).toBe(0);
      expect((await count('Finished')) + (await count('To review'))).toBe(phones.length);
      await expect(page.evaluate('window.__sameDocument')).resolves.toBe(true);
      await page.locator('tr[data-target-id] .badge', { hasText: 'Finished' }).first().waitFor();
      await shot('campaign');
    });

    it('filters the targets table by status and by external id', async () => {
      await page.getByLabel('Status', { exact: true }).selectOption('To review');
      await page.getByRole('button', { name: 'Apply filters' }).click();
      await waitFor(
        () => page.locator('tr[data-target-id]').count(),
        (n) => n === 1,
      );
      await expect(page.locator('tr[data-target-id] td').first().textContent()).resolves.toBe(
        'PAT-B4',
      );
      await page.getByRole('button', { name: 'Clear' }).click();
      await waitFor(
        () => page.locator('tr[data-target-id]').count(),
        (n) => n >= 5,
      );
      await page.getByRole('searchbox', { name: 'Find a patient' }).fill('PAT-B2');
      await page.getByRole('button', { name: 'Apply filters' }).click();
      await waitFor(
        () => page.locator('tr[data-target-id] td:first-child').allTextContents(),
        (cells) => cells.length === 1 && cells[0] === 'PAT-B2',
      );
      await page.getByRole('button', { name: 'Clear' }).click();
      await waitFor(
        () => page.locator('tr[data-target-id]').count(),
        (n) => n >= 5,
      );
    });

    it('opens a target and reads its transcript as a conversation, without a dead recording link', async () => {
      await page.getByRole('link', { name: 'PAT-B1', exact: true }).click();
      await page.getByRole('heading', { name: 'PAT-B1', exact: true }).waitFor();
      expect(page.url()).toBe(`${baseUrl}/console/#/targets/${targetIds[0]}`);
      const transcript = page.locator('ol.transcript').first();
      await transcript.waitFor();
      await expect(transcript.locator('li.turn.agent .who').first().textContent()).resolves.toBe(
        'Agent',
      );
      await expect(transcript.locator('li.turn.callee').first().textContent()).resolves.toContain(
        'Yes, that works for me.',
      );
      // The simulator's recording is at a host that never resolves (.invalid): no dead link, and no
      // placeholder shown as the caller's number.
      const call = page.locator('article.call').first();
      await expect(call.getByRole('link', { name: /Recording/ }).count()).resolves.toBe(0);
      await expect(call.getByText('No recording.').count()).resolves.toBe(1);
      await expect(call.locator('p.muted').first().textContent()).resolves.toMatch(
        /^from the test line \(no caller id set\) to \+15550101201 · /,
      );
      // The campaign by its name in the breadcrumbs; the category in words, its code on hover.
      await expect(page.locator('[data-crumb-campaign]').textContent()).resolves.toBe(
        'Demo campaign',
      );
      const fact = (name: string) =>
        page.locator('dl.facts > div', { has: page.getByText(name, { exact: true }) });
      await expect(fact('Category').locator('dd').textContent()).resolves.toBe('Good call');
      await expect(fact('Category').locator('.code-words').getAttribute('title')).resolves.toBe(
        'GOOD',
      );
      await expect(fact('Resolution').locator('dd').textContent()).resolves.toBe('Successful');
      await expect(fact('Resolution').locator('.code-words').getAttribute('title')).resolves.toBe(
        'successful',
      );
      await shot('target');
      await shotPhone('target');
    });

    it('links only http(s) recording URLs: a stored javascript: or data: URL is not a link', async () => {
      // Ingestion stores only http(s) URLs now; a row written before that check is what the console
      // may still be given by the API (which returns what is stored): written here as such a row.
      const logs = await service.sql<{ id: number }>(
        `SELECT id FROM call_logs WHERE target_id = $1 ORDER BY id`,
        [targetIds[0]],
      );
      expect(logs.length).toBeGreaterThan(0);
      const stored = [
        'javascript:alert(document.domain)',
        'data:text/html,<script>alert(1)</script>',
        'JaVaScRiPt:alert(2)',
        'https://recordings.example.com/kept.mp3',
      ];
      await service.sql(`UPDATE call_logs SET recording_urls = $2 WHERE target_id = $1`, [
        targetIds[0],
        stored,
      ]);
      // The API gives the console every stored URL.
      const read = await api('get', `/api/v1/call-logs/${logs[0].id}?include_recordings=true`);
      expect(read.body.recording_urls).toEqual(stored);

      await page.reload();
      await page.getByRole('heading', { name: 'PAT-B1', exact: true }).waitFor();
      const calls = page.locator('article.call');
      await calls.first().waitFor();
      await expect(calls.count()).resolves.toBe(logs.length);
      for (let i = 0; i < logs.length; i++) {
        const call = page.locator(`article.call[data-call-log-id="${logs[i].id}"]`);
        await call.getByRole('link', { name: 'Recording 1' }).waitFor();
        const hrefs = await call
          .locator('a')
          .evaluateAll((links) => links.map((a) => a.getAttribute('href')));
        expect(hrefs).toEqual(['https://recordings.example.com/kept.mp3']);
      }
      await expect(
        page.locator('a[href^="javascript:" i], a[href^="data:" i]').count(),
      ).resolves.toBe(0);
    });

    it('explains the 409 when the input data of a started target is edited, and can save anyway', async () => {
      await page.getByRole('button', { name: 'Edit input data' }).click();
      await page.getByLabel('Input data to merge (JSON object)').fill('{"note": "call back"}');
      await page.getByRole('button', { name: 'Save input data' }).click();
      const conflict = page.locator('[data-conflict="true"]');
      await conflict.waitFor();
      await expect(conflict.textContent()).resolves.toMatch(/call has already started/);
      await expect(conflict.textContent()).resolves.toMatch(/only_if_not_started/);
      await shot('target-409');
      await page.getByRole('button', { name: /Save anyway/ }).click();
      await page.getByText('Input data saved.').waitFor();
      const target = await api('get', `/api/v1/targets/${targetIds[0]}`);
      expect(target.body.input_data).toEqual({ appointment: 'day 1', note: 'call back' });
    });

    it('shows the API 422 at its field in the campaign settings, and saves a valid change', async () => {
      await page.goto(`${baseUrl}/console/#/campaigns/${demo.campaignId}/settings`);
      await page.getByRole('heading', { name: 'Settings' }).waitFor();
      await page.getByLabel('Max attempts').fill('99');
      await page.getByRole('button', { name: 'Save changes' }).click();
      const error = page.locator('[data-field="max_attempts"] .field-error');
      await error.waitFor();
      await expect(error.textContent()).resolves.toMatch(/less than or equal to 20/);
      await expect(page.getByLabel('Max attempts').getAttribute('aria-invalid')).resolves.toBe(
        'true',
      );
      await expect(page.locator('[data-field="name"] .field-error').count()).resolves.toBe(0);
      await shot('settings-422');

      await page.getByLabel('Max attempts').fill('5');
      await page.getByRole('button', { name: 'Save changes' }).click();
      await page.getByText('Saved.').waitFor();
      const campaign = await api('get', `/api/v1/campaigns/${demo.campaignId}`);
      expect(campaign.body.max_attempts).toBe(5);

      // Blacklists are chosen by name from the organization's, not pasted as ids.
      const blacklist = await api('post', '/api/v1/blacklists', { name: 'Front desk list' });
      expect(blacklist.status).toBe(201);
      await page.reload();
      const blacklists = page.getByRole('group', { name: 'Blacklists' });
      await blacklists.getByLabel('Front desk list').check();
      await expect(
        blacklists.locator('label', { hasText: 'Front desk list' }).getAttribute('title'),
      ).resolves.toBe(blacklist.body.id);
      await page.getByRole('button', { name: 'Save changes' }).click();
      await page.getByText('Saved.').waitFor();
      await expect(
        api('get', `/api/v1/campaigns/${demo.campaignId}`).then((r) => r.body.blacklist_ids),
      ).resolves.toEqual([blacklist.body.id]);
      await expect(blacklists.getByLabel('Front desk list').isChecked()).resolves.toBe(true);
      await shot('settings-blacklists');
      await shotPhone('settings');
      // Chosen no more: the campaign's list is empty again.
      await blacklists.getByLabel('Front desk list').uncheck();
      await page.getByRole('button', { name: 'Save changes' }).click();
      await waitFor(
        async () => (await api('get', `/api/v1/campaigns/${demo.campaignId}`)).body.blacklist_ids,
        (ids) => Array.isArray(ids) && ids.length === 0,
      );
    });

    it('shows webhook deliveries with their attempts, and re-runs failed ones for a window', async () => {
      await page.goto(`${baseUrl}/console/#/campaigns/${demo.campaignId}/webhooks`);
      await page.getByRole('heading', { name: 'Webhook deliveries' }).waitFor();
      // Deliveries to the closed port fail after WEBHOOK_RETRY_SCHEDULE's retries (1 s, 1 s).
      await waitFor(
        async () =>
          (await api('get', `/api/v1/campaigns/${demo.campaignId}/webhooks/deliveries`)).body,
        (page) => page.deliveries?.filter((d: any) => d.status === 'failed').length === 5,
        30_000,
        250,
      );
      await page.getByLabel('Status').selectOption('failed');
      const failed = page.locator('li[data-delivery-id]');
      await waitFor(
        () => failed.count(),
        (n) => n === 5,
        30_000,
        250,
      );
      await failed.first().locator('summary').click();
      const attempts = failed.first().locator('table tbody tr');
      await attempts.first().waitFor();
      await expect(attempts.count()).resolves.toBe(3);
      await expect(attempts.first().textContent()).resolves.toContain('failed');
      // Statuses in words (the code on hover), the campaign by its name, a status filter as wide as
      // its words rather than the page.
      const badge = failed.first().locator('summary .badge');
      await expect(badge.textContent()).resolves.toBe('Failed');
      await expect(badge.getAttribute('title')).resolves.toBe('failed');
      await expect(page.locator('[data-crumb-campaign]').textContent()).resolves.toBe(
        'Demo campaign',
      );
      await expect(page.locator('#d-status option[value="pending"]').textContent()).resolves.toBe(
        'Waiting to send',
      );
      const filterWidth = (await page.getByLabel('Status').boundingBox())!.width;
      expect(filterWidth).toBeLessThan(250);
      expect(filterWidth).toBeGreaterThan(
        await page.evaluate<number>(
          `(() => { const c = document.createElement('canvas').getContext('2d'); c.font = getComputedStyle(document.getElementById('d-status')).font; return c.measureText('Waiting to send').width; })()`,
        ),
      );
      await shot('webhooks');

      // Without dates: each empty field says what it needs, and nothing is sent.
      const before = apiRequests.length;
      await page.getByRole('button', { name: 'Re-run failed' }).click();
      await expect(page.locator('#r-from_date-error').textContent()).resolves.toBe(
        'Choose the date and time the window starts.',
      );
      await expect(page.locator('#r-to_date-error').textContent()).resolves.toBe(
        'Choose the date and time the window ends.',
      );
      await expect(page.evaluate('document.activeElement.id')).resolves.toBe('r-from_date');
      expect(apiRequests.slice(before).filter((u) => u.includes('rerun-failed'))).toEqual([]);
      await shot('webhooks-rerun-empty');
      await shotPhone('webhooks');

      await page.getByLabel('From').fill('2020-01-01T00:00');
      await page.getByLabel('To').fill('2099-01-01T00:00');
      await page.getByRole('button', { name: 'Re-run failed' }).click();
      await expect(page.getByRole('status').first().textContent()).resolves.toBe(
        '5 failed deliveries queued again.',
      );
    });

    /** A campaign of the demo organization with `phones.length` Pending targets. */
    const campaignWith = async (name: string, phones: string[], body: object = {}) => {
      const created = await api('post', '/api/v1/campaigns', { name, type: 'patient', ...body });
      expect(created.status).toBe(201);
      if (phones.length) {
        const added = await api('post', `/api/v1/campaigns/${created.body.id}/targets`, {
          targets: phones.map((phone_number, i) => ({ phone_number, external_id: `${name}-${i}` })),
        });
        expect(added.status).toBe(200);
      }
      return created.body.id as string;
    };
    const stateBadge = () => page.locator('h1 .badge[data-state]');
    const statusCount = (status: string) =>
      page.locator(`dd[data-status="${status}"]`).textContent().then(Number);

    it('pauses and resumes a running campaign, the state changing on the page', async () => {
      const phones = Array.from({ length: 6 }, (_, i) => `+1555010230${i + 1}`);
      const id = await campaignWith('Control', phones, { max_concurrent_calls: 1 });
      await page.goto(`${baseUrl}/console/#/campaigns`);
      const card = page.locator(`li[data-campaign-id="${id}"]`);
      await expect(card.locator('.badge[data-state]').textContent()).resolves.toBe('Active');
      await expect(card.locator('.badge[data-state]').getAttribute('title')).resolves.toBe(
        'active',
      );
      await card.getByRole('link', { name: 'Control' }).click();
      await waitFor(stateBadge().textContent.bind(stateBadge()), (s) => s === 'Active');
      await expect(page.getByRole('button', { name: 'Resume' }).isDisabled()).resolves.toBe(true);
      await page.getByLabel('Targets to call').fill(String(phones.length));
      await page.getByRole('button', { name: 'Trigger calls' }).click();
      await waitFor(
        () => statusCount('Finished'),
        (n) => n >= 1,
        30_000,
        100,
      );
      const paused = page.waitForResponse((r) => r.url().endsWith(`/campaigns/${id}/pause`));
      await page.getByRole('button', { name: 'Pause' }).click();
      expect((await paused).status()).toBe(200);
      // Once the pause is answered, no call may start: any call log of the campaign created after
      // this instant would be one (the service's clock is this machine's).
      const pausedAt = new Date().toISOString();
      await page.getByText('Campaign paused.').waitFor();
      await waitFor(stateBadge().textContent.bind(stateBadge()), (s) => s === 'Paused');
      expect((await api('get', `/api/v1/campaigns/${id}`)).body.state).toBe('paused');
      await expect(page.getByRole('button', { name: 'Pause' }).isDisabled()).resolves.toBe(true);
      await expect(page.getByRole('button', { name: 'Resume' }).isDisabled()).resolves.toBe(false);
      // Paused: the call in flight ends (the API says none is left), then no call was started.
      await waitFor(
        async () => (await api('get', `/api/v1/campaigns/${id}/stats`)).body.calls_in_flight,
        (n) => n === 0,
        30_000,
        100,
      );
      const since = await api(
        'get',
        `/api/v1/call-logs?campaign_id=${id}&from_date=${encodeURIComponent(pausedAt)}`,
      );
      expect(since.status).toBe(200);
      expect(since.body.call_logs).toEqual([]);
      // The page agrees once its next refresh shows no call in flight.
      await waitFor(
        () => page.locator('dd[data-stat="calls_in_flight"]').textContent(),
        (n) => n === '0',
        30_000,
        100,
      );
      const finished = await statusCount('Finished');
      expect(finished).toBeLessThan(phones.length);
      await expect(statusCount('Scheduled')).resolves.toBe(phones.length - finished);
      await shot('campaign-paused');

      await page.getByRole('button', { name: 'Resume' }).click();
      await page.getByText('Campaign resumed.').waitFor();
      await waitFor(stateBadge().textContent.bind(stateBadge()), (s) => s === 'Active');
      await waitFor(
        () => statusCount('Finished'),
        (n) => n === phones.length,
        60_000,
        200,
      );
    });

    it('explains a 409: resuming a campaign cancelled meanwhile (by someone else)', async () => {
      const id = await campaignWith('Raced', ['+15550102401']);
      await page.goto(`${baseUrl}/console/#/campaigns/${id}`);
      await waitFor(stateBadge().textContent.bind(stateBadge()), (s) => s === 'Active');
      await page.getByRole('button', { name: 'Pause' }).click();
      await waitFor(stateBadge().textContent.bind(stateBadge()), (s) => s === 'Paused');
      // The page does not learn of the cancel before the click (its stats refreshes are held back).
      await page.route(`**/api/v1/campaigns/${id}/stats`, (route) => route.abort());
      expect((await api('post', `/api/v1/campaigns/${id}/cancel`)).status).toBe(200);
      await page.getByRole('button', { name: 'Resume' }).click();
      const alert = page.locator('section[aria-labelledby="state-h"] [role="alert"]');
      await alert.waitFor();
      await expect(alert.textContent()).resolves.toMatch(/cancelled, so it cannot be resumed/);
      await waitFor(stateBadge().textContent.bind(stateBadge()), (s) => s === 'Cancelled');
      await page.unroute(`**/api/v1/campaigns/${id}/stats`);
      await shot('campaign-409');
    });

    it('says under the estimated end which rule holds targets past it, and until when', async () => {
      const id = await campaignWith('Held', []);
      const called = await api('post', `/api/v1/campaigns/${id}/targets`, {
        launch: true,
        targets: ['+15550102501', '+15550102502', '+15550102503'].map((phone_number) => ({
          phone_number,
        })),
      });
      expect(called.status).toBe(200);
      await waitFor(
        () => api('get', `/api/v1/campaigns/${id}/stats`),
        (r) => r.body.targets.by_status.Finished === 3,
        30_000,
      );
      // One more target, held by quiet hours for three hours, as the dispatcher defers one.
      const [heldId] = (
        await api('post', `/api/v1/campaigns/${id}/targets`, {
          targets: [{ phone_number: '+15550102504' }],
        })
      ).body.target_ids;
      const until = new Date(Math.ceil((Date.now() + 3 * 3600_000) / 60_000) * 60_000);
      await service.sql(
        `UPDATE targets SET status = 'Scheduled', scheduled_time = $2, hold_rule = 'quiet_hours',
                hold_reason = 'quiet hours: 03:00 in Etc/GMT+5, calls from 08:00'
          WHERE id = $1`,
        [heldId, until],
      );
      await page.goto(`${baseUrl}/console/#/campaigns/${id}`);
      const held = page.locator('dd[data-stat="estimate_held_until"]');
      await held.waitFor();
      const local = await page.evaluate<string>(`new Date(${until.getTime()}).toLocaleString()`);
      await expect(held.textContent()).resolves.toBe(`held by quiet hours (1) until ${local}`);
      // The estimate itself is after the hold: 3 calls in 15 minutes, one more call from then.
      const end = await page.locator('dd[data-stat="estimated_completion_at"]').textContent();
      const stats = (await api('get', `/api/v1/campaigns/${id}/stats`)).body;
      expect(Date.parse(stats.estimated_completion_at)).toBe(until.getTime() + 5 * 60_000);
      await expect(
        page.evaluate<string>(`new Date('${stats.estimated_completion_at}').toLocaleString()`),
      ).resolves.toBe(end);
      await shot('campaign-held');
    });

    it('cancels a campaign after a confirmation in a dialog', async () => {
      const id = await campaignWith('Cancelled', ['+15550102501', '+15550102502']);
      await page.goto(`${baseUrl}/console/#/campaigns/${id}`);
      await waitFor(
        () => statusCount('Pending'),
        (n) => n === 2,
      );
      // A fresh page: nothing said on the last campaign's page (its 409) stays.
      await expect(
        page.locator('section[aria-labelledby="state-h"] .notice').count(),
      ).resolves.toBe(0);
      await page.getByRole('button', { name: 'Cancel campaign…' }).click();
      const dialog = page.getByRole('dialog', { name: 'Cancel this campaign?' });
      await dialog.waitFor();
      await shot('campaign-cancel-dialog');
      // Esc closes it and nothing changes.
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'hidden' });
      expect((await api('get', `/api/v1/campaigns/${id}`)).body.state).toBe('active');
      await page.getByRole('button', { name: 'Cancel campaign…' }).click();
      await dialog.getByRole('button', { name: 'Yes, cancel the campaign' }).click();
      await page.getByText('Campaign cancelled.').waitFor();
      await waitFor(stateBadge().textContent.bind(stateBadge()), (s) => s === 'Cancelled');
      await waitFor(
        () => statusCount('Finished'),
        (n) => n === 2,
      );
      expect((await api('get', `/api/v1/campaigns/${id}`)).body.state).toBe('cancelled');
      for (const name of ['Pause', 'Resume', 'Cancel campaign…', 'Trigger calls'])
        await expect(page.getByRole('button', { name }).isDisabled()).resolves.toBe(true);
      await shot('campaign-cancelled');
    });

    it('imports a CSV file: preview, a dry run showing the bad row, then a good file for real', async () => {
      const id = await campaignWith('Imported', []);
      await page.goto(`${baseUrl}/console/#/campaigns/${id}`);
      await page.getByRole('heading', { name: 'Import patients from a CSV file' }).waitFor();
      // An empty campaign says so, without a "Page 0 of 0".
      await waitFor(
        () => page.locator('td[data-empty]').textContent(),
        (text) => text === 'No targets yet: import a CSV file above, or add them through the API.',
      );
      await expect(page.locator('.bar-text').textContent()).resolves.toBe('No targets yet');
      await expect(page.getByText(/Page \d+ of/).count()).resolves.toBe(0);
      await shot('campaign-empty');
      const bad = [
        'phone_number,external_id,patient.first_name,appointment',
        '+15550103001,IMP-1,"Doe, John",2026-04-01',
        '12ab,IMP-2,Ann,2026-04-02',
        '+15550103003,IMP-3,Bob,2026-04-03',
      ].join('\n');
      await page.getByLabel('CSV file', { exact: true }).setInputFiles({
        name: 'bad.csv',
        mimeType: 'text/csv',
        buffer: Buffer.from(bad),
      });
      // Choosing the file checks it (a dry run): the columns as read, the good rows as stored, the bad.
      const errors = page.getByRole('region', { name: 'Rows with errors' });
      await errors.waitFor();
      const rows = errors.locator('tbody tr');
      await expect(rows.count()).resolves.toBe(1);
      await expect(rows.locator('td').nth(0).textContent()).resolves.toBe('3');
      await expect(rows.locator('td').nth(1).textContent()).resolves.toBe('phone_number');
      await expect(rows.locator('td').nth(2).textContent()).resolves.toBe('12ab');
      await expect(rows.locator('td').nth(3).textContent()).resolves.toMatch(/phone number/);
      await expect(rows.locator('td').nth(3).textContent()).resolves.not.toMatch(/Value error/);
      await expect(page.locator('.import-report [role="alert"]').textContent()).resolves.toMatch(
        /1 of 3 rows have errors, so nothing would be added/,
      );
      const preview = page.getByRole('region', { name: 'Preview of the import' });
      await expect(preview.locator('tbody tr').count()).resolves.toBe(2);
      await expect(preview.locator('tbody tr').first().textContent()).resolves.toContain(
        'Doe, John',
      );
      await expect(page.getByLabel('phone_number', { exact: true }).inputValue()).resolves.toBe(
        'phone_number',
      );
      await expect(page.getByLabel('appointment', { exact: true }).inputValue()).resolves.toBe(
        'input_data.appointment',
      );
      await expect(
        page.getByRole('button', { name: 'Import', exact: true }).isDisabled(),
      ).resolves.toBe(true);
      await page.getByLabel('Import the good rows and skip the 1 row with errors').waitFor();
      await shot('import-dry-run');
      expect((await api('get', `/api/v1/campaigns/${id}/targets`)).body.targets).toEqual([]);

      const good = bad.replace('12ab', '+15550103002');
      await page.getByLabel('CSV file', { exact: true }).setInputFiles({
        name: 'good.csv',
        mimeType: 'text/csv',
        buffer: Buffer.from(good),
      });
      await page.getByText('Check: all 3 rows are valid; 3 patients would be added.').waitFor();
      await page.getByRole('button', { name: 'Import', exact: true }).click();
      await page.getByText('Imported: 3 patients added.').waitFor();
      const bar = page.getByLabel('Import progress');
      await expect(bar.getAttribute('value')).resolves.toBe('3');
      await expect(bar.getAttribute('max')).resolves.toBe('3');
      await waitFor(
        () => page.locator('tr[data-target-id]').count(),
        (n) => n === 3,
      );
      await page.getByRole('link', { name: 'Ann', exact: true }).waitFor();
      await waitFor(
        () => statusCount('Pending'),
        (n) => n === 3,
      );
      const listed = (await api('get', `/api/v1/campaigns/${id}/targets`)).body.targets;
      expect(listed.map((t: any) => t.external_id).sort()).toEqual(['IMP-1', 'IMP-2', 'IMP-3']);
      // The file went as the body: nothing of it is in a URL.
      expect(apiRequests.filter((u) => /5550103|IMP-|Doe/.test(decodeURIComponent(u)))).toEqual([]);
      await shot('import-done');
    });

    it('follows a large import (queued, 202) with a progress bar until it is done', async () => {
      const id = await campaignWith('Large import', []);
      await page.goto(`${baseUrl}/console/#/campaigns/${id}`);
      await page.getByRole('heading', { name: 'Import patients from a CSV file' }).waitFor();
      const n = 10_001;
      const lines = ['phone_number,external_id'];
      for (let i = 0; i < n; i++) lines.push(`+1555${String(2000000 + i)},BIG-${i}`);
      await page.getByLabel('CSV file', { exact: true }).setInputFiles({
        name: 'large.csv',
        mimeType: 'text/csv',
        buffer: Buffer.from(lines.join('\n')),
      });
      // Choosing the file checks it (a queued dry run, followed): its first 5 rows as stored.
      await waitFor(
        () =>
          page.getByRole('region', { name: 'Preview of the import' }).locator('tbody tr').count(),
        (rows) => rows === 5,
        120_000,
      );
      const answer = page.waitForResponse((r) => r.url().includes('/targets/import'));
      await page.getByRole('button', { name: 'Import', exact: true }).click();
      expect((await answer).status()).toBe(202);
      await page.getByLabel('Import progress').waitFor();
      await page.getByText(`Imported: ${n} patients added.`).waitFor({ timeout: 120_000 });
      expect(apiRequests.some((u) => u.includes('/api/v1/imports/'))).toBe(true);
      await waitFor(
        () => statusCount('Pending'),
        (count) => count === n,
      );
      await shot('import-large');
    }, 180_000);

    it('lists the targets to review of every campaign, oldest first', async () => {
      // A second campaign with a target that needs a person (the simulator: a number ending 0004).
      const id = await campaignWith('Second review', ['+15550200004']);
      expect((await api('post', `/api/v1/campaigns/${id}/calls`, { count: 1 })).status).toBe(200);
      await waitFor(
        async () =>
          (await api('get', `/api/v1/campaigns/${id}/targets?status=To%20review`)).body.targets,
        (targets) => targets?.length === 1,
        30_000,
        200,
      );
      await page.goto(`${baseUrl}/console/#/campaigns`);
      // Each campaign's card says how many of its targets wait for a review, as the targets list does.
      for (const campaignId of [demo.campaignId, id]) {
        const listed = await api(
          'get',
          `/api/v1/campaigns/${campaignId}/targets?status=To%20review&limit=100`,
        );
        expect(listed.body.targets.length).toBe(1);
        const card = page.locator(`li[data-campaign-id="${campaignId}"]`);
        await waitFor(
          () => card.locator('[data-to-review]').getAttribute('data-to-review'),
          (n) => n === String(listed.body.targets.length),
        );
        await expect(card.locator('.to-review').textContent()).resolves.toBe('1 to review');
      }
      await shot('campaigns-review-counts');
      await page.getByRole('link', { name: 'Review queue' }).click();
      await page.getByRole('heading', { name: 'Review queue', level: 1 }).waitFor();
      expect(page.url()).toBe(`${baseUrl}/console/#/review`);
      const rows = page.locator('tr[data-target-id]');
      await waitFor(
        () => rows.count(),
        (n) => n === 2,
      );
      // PAT-B4 (the demo campaign) went to review earlier than Second review-0.
      await expect(rows.nth(0).locator('td').nth(1).textContent()).resolves.toBe('PAT-B4');
      // Patient, then MRN: targets added without a patient are named by their external id.
      await expect(rows.nth(0).locator('td').nth(2).textContent()).resolves.toBe('PAT-B4');
      await expect(rows.nth(0).locator('td').nth(3).textContent()).resolves.toBe('Demo campaign');
      await expect(rows.nth(1).locator('td').nth(1).textContent()).resolves.toBe('Second review-0');
      await expect(rows.nth(1).locator('td').nth(3).textContent()).resolves.toBe('Second review');
      // Counted over the campaigns that have one, not every campaign.
      await expect(page.locator('[data-review-count]').textContent()).resolves.toBe(
        '2 targets to review in 2 campaigns.',
      );
      await shot('review-queue');
      await rows.nth(1).getByRole('link', { name: 'Second review-0' }).click();
      await page.getByRole('heading', { name: 'Second review-0', exact: true }).waitFor();
    });

    it('marks a target done and re-queues another from the review queue', async () => {
      await page.goto(`${baseUrl}/console/#/review`);
      const rows = page.locator('tr[data-target-id]');
      await waitFor(
        () => rows.count(),
        (n) => n === 2,
      );
      const second = await rows.nth(1).getAttribute('data-target-id');
      reviewedId = second!;
      await page.getByRole('button', { name: 'Mark PAT-B4 done' }).click();
      await page.getByText('PAT-B4 marked done (Finished).').waitFor();
      await waitFor(
        () => rows.count(),
        (n) => n === 1,
      );
      const done = (await api('get', `/api/v1/targets/${targetIds[3]}`)).body;
      expect(done).toMatchObject({
        status: 'Finished',
        category: 'HUMAN_ONLY',
        statistics: { review: { action: 'done' } },
      });
      await shot('review-queue-actions');

      // Re-queued: the simulator calls it again at once (no trigger), and it needs a person again.
      await page.getByRole('button', { name: 'Re-queue Second review-0' }).click();
      await page.getByText('Second review-0 re-queued: it will be called again').waitFor();
      await waitFor(
        async () => (await api('get', `/api/v1/targets/${second}`)).body,
        (t) => t.status === 'To review' && t.retries === 1,
        30_000,
        200,
      );
      await page.getByRole('button', { name: 'Refresh now' }).click();
      await waitFor(
        () => page.locator('tr[data-target-id] td:nth-child(2)').allTextContents(),
        (cells) => cells.length === 1 && cells[0] === 'Second review-0',
      );
      await expect(rows.first().locator('td').nth(6).textContent()).resolves.toBe('1');
      // Someone else decided first: the second click is the API's 409, explained.
      expect(
        (await api('post', `/api/v1/targets/${second}/review`, { action: 'done' })).status,
      ).toBe(200);
      await page.getByRole('button', { name: 'Re-queue Second review-0' }).click();
      await expect(page.getByRole('alert').textContent()).resolves.toMatch(
        /Second review-0: Target .* is Finished, not To review/,
      );
      await waitFor(
        () => rows.count(),
        (n) => n === 0,
      );
    });

    it('shows a target’s timeline (reasons, actors, older events) and why it is not being called', async () => {
      await page.goto(`${baseUrl}/console/#/targets/${reviewedId}`);
      const events = page.getByRole('list', { name: 'Events, newest first' }).locator('li');
      await events.first().waitFor();
      // Newest first: the done decision (taken through the API in the last test), then the re-queue.
      await expect(events.first().locator('.timeline-reason').textContent()).resolves.toBe(
        'reviewed: marked done',
      );
      await expect(events.first().locator('.badge').textContent()).resolves.toBe('Finished');
      await expect(events.first().locator('.timeline-actor').textContent()).resolves.toMatch(
        /^by the API key “.+”$/,
      );
      const reasons = await page.locator('.timeline-reason').allTextContents();
      expect(reasons).toContain('reviewed: re-queued for one more attempt');
      expect(reasons.indexOf('reviewed: re-queued for one more attempt')).toBeGreaterThan(0);
      await expect(page.locator('[data-waiting-reason]').count()).resolves.toBe(0);
      await shot('target-timeline');

      // A target added without launch says why it waits; 25 edits make more than a page of events.
      const added = await api('post', `/api/v1/campaigns/${demo.campaignId}/targets`, {
        targets: [{ phone_number: '+15550109901', external_id: 'PAT-WAIT' }],
      });
      const [waiting] = added.body.target_ids;
      for (let i = 0; i < 25; i++)
        expect(
          (await api('patch', `/api/v1/targets/${waiting}`, { input_data: { n: i } })).status,
        ).toBe(200);
      await page.goto(`${baseUrl}/console/#/targets/${waiting}`);
      await expect(page.locator('[data-waiting-reason]').textContent()).resolves.toBe(
        'Not being called now: Not started yet: press Trigger calls on the campaign page, or import targets with “Schedule the new targets”.',
      );
      await expect(page.locator('[data-waiting-reason] span').getAttribute('title')).resolves.toBe(
        'not launched: trigger calls or add with launch=true',
      );
      await waitFor(
        () => events.count(),
        (n) => n === 20,
      );
      await expect(events.first().getAttribute('data-kind')).resolves.toBe('input_edited');
      await page.getByRole('button', { name: 'Older events' }).click();
      await waitFor(
        () => events.count(),
        (n) => n === 26,
      );
      await expect(events.last().getAttribute('data-kind')).resolves.toBe('added');
      await expect(events.last().locator('.timeline-reason').textContent()).resolves.toBe(
        'added, not launched: trigger calls or add with launch=true',
      );
      await expect(page.getByRole('button', { name: 'Older events' }).count()).resolves.toBe(0);
      await shot('target-waiting');
    });

    it("shows a target's texts as a conversation: the follow-up text and the reply", async () => {
      const campaign = await api('post', '/api/v1/campaigns', {
        name: 'Texts',
        type: 'patient',
        max_attempts: 1,
        sms_follow_up: {
          on_categories: ['NO_RESPONSE'],
          template: 'Hi {{input_data.first_name}}, please call us back.',
        },
      });
      // 0000: no answer; 93 before it: the simulated recipient answers the text in words.
      const added = await api('post', `/api/v1/campaigns/${campaign.body.id}/targets`, {
        targets: [
          {
            phone_number: '+15555930000',
            external_id: 'PAT-TEXT',
            input_data: { first_name: 'Ada' },
          },
        ],
        launch: true,
      });
      const [id] = added.body.target_ids;
      await waitFor(
        async () => (await api('get', `/api/v1/targets/${id}/messages`)).body.messages.length,
        (n) => n === 2,
      );
      await page.goto(`${baseUrl}/console/#/targets/${id}`);
      const texts = page.getByRole('list', { name: 'Texts' });
      await texts.waitFor();
      await expect(texts.locator('li.turn.agent p').first().textContent()).resolves.toBe(
        'Hi Ada, please call us back.',
      );
      await expect(texts.locator('li.turn.callee p').first().textContent()).resolves.toBe(
        'Thanks, I will call you back tomorrow.',
      );
      await expect(texts.locator('li.turn.callee .who').textContent()).resolves.toBe('Reply');
      await shot('target-texts');
    });

    it("edits the calling rules: warnings, the API 422 at its field, state rules with citations, the recipient's time", async () => {
      await page.goto(`${baseUrl}/console/#/compliance`);
      await page.getByRole('heading', { name: 'Calling rules', level: 1 }).waitFor();
      // The demo organization runs without quiet hours or state rules, and the page says so loudly.
      await expect(page.getByRole('alert').allTextContents()).resolves.toEqual([
        expect.stringMatching(/^QUIET HOURS ARE OFF/),
        expect.stringMatching(/^STATE RULES ARE OFF/),
      ]);
      await expect(page.locator('[data-state-rule]').count()).resolves.toBe(3);
      await expect(
        page.locator('[data-state-rule="FL-501.616"] a').getAttribute('href'),
      ).resolves.toMatch(/^http:\/\/www\.leg\.state\.fl\.us\//);
      await page.getByLabel('Call only between').check();
      await page.getByLabel('Apply the state rules (below)').check();
      await page.getByLabel('In 24 hours').fill('0');
      // The zone is chosen from a list (none typed by hand).
      await page
        .getByLabel('Time zone of numbers whose zone is unknown')
        .selectOption({ label: 'Central (Chicago)' });
      await page.getByRole('button', { name: 'Save policy' }).click();
      await expect(page.locator('#caps-error').textContent()).resolves.toMatch(
        /greater than or equal to 1/,
      );
      await page.getByLabel('In 24 hours').fill('3');
      await page.getByRole('button', { name: 'Save policy' }).click();
      await page.getByText('Saved: the next call of every campaign follows it.').waitFor();
      await expect(page.getByRole('alert').count()).resolves.toBe(0);
      const policy = await api('get', '/api/v1/compliance/policy');
      expect(policy.body).toMatchObject({
        quiet_hours: { start: '08:00', end: '21:00' },
        state_rules: true,
        max_calls_per_number: { per_24h: 3, per_7d: null },
        default_time_zone: 'America/Chicago',
        warnings: [],
      });
      await shot('calling-rules');
      // Put the demo back as it was for the tests after this one.
      expect(
        (
          await api('put', '/api/v1/compliance/policy', {
            ...policy.body,
            quiet_hours: null,
            state_rules: false,
            max_calls_per_number: { per_24h: null, per_7d: null },
          })
        ).status,
      ).toBe(200);

      const added = await api('post', `/api/v1/campaigns/${demo.campaignId}/targets`, {
        targets: [{ phone_number: '+14055550123', external_id: 'PAT-ZONE' }],
      });
      await page.goto(`${baseUrl}/console/#/targets/${added.body.target_ids[0]}`);
      await expect(page.locator('[data-recipient-zones]').textContent()).resolves.toMatch(
        /^\w{3} \d\d:\d\d in America\/Chicago \(from the phone number\)$/,
      );
    });

    it('reaches every target to review of a campaign with more than a page of them (Load more)', async () => {
      const phones = Array.from({ length: 101 }, (_, i) => `+1555030${String(i).padStart(4, '0')}`);
      const id = await campaignWith('Many to review', phones);
      // As the calling engine leaves targets whose call needed a person.
      await service.sql(
        `UPDATE targets SET status = 'To review', category = 'HUMAN_ONLY', outcome = 'Asked for a person'
          WHERE campaign_id = $1`,
        [id],
      );
      await page.goto(`${baseUrl}/console/#/campaigns`);
      await page.getByRole('link', { name: 'Review queue' }).click();
      const count = page.locator('[data-review-count]');
      await waitFor(
        () => count.getAttribute('data-review-count'),
        (n) => n === '100',
      );
      const more = page.locator('[data-more-campaigns]');
      await expect(more.textContent()).resolves.toMatch(/Many to review has more targets/);
      await shot('review-queue-more');
      await more.getByRole('button', { name: 'Load more' }).click();
      await waitFor(
        () => count.getAttribute('data-review-count'),
        (n) => n === '101',
      );
      await expect(more.count()).resolves.toBe(0);
      // 25 a page: the last of 5 pages holds the 101st.
      const pager = page.getByRole('navigation', { name: 'Review queue pages' });
      for (let i = 0; i < 4; i++) await pager.getByRole('button', { name: 'Next →' }).click();
      await expect(pager.textContent()).resolves.toContain('Page 5 of 5');
      await expect(page.locator('tr[data-target-id]').count()).resolves.toBe(1);
      const listed = new Set<string>();
      for (let i = 0; i < 5; i++) {
        for (const cell of await page
          .locator('tr[data-target-id] td:nth-child(2)')
          .allTextContents())
          listed.add(cell);
        if (i < 4) await pager.getByRole('button', { name: '← Previous' }).click();
      }
      expect(listed).toEqual(new Set(phones.map((_, i) => `Many to review-${i}`)));
    });

    it('lists the do-not-call numbers (one listed by a call), searches, adds and removes with a reason', async () => {
      // A patient who asks not to be called again (the simulator: a number ending 0005).
      const id = await campaignWith('Do not call me', ['+15550250005']);
      expect((await api('post', `/api/v1/campaigns/${id}/calls`, { count: 1 })).status).toBe(200);
      await waitFor(
        async () => (await api('get', '/api/v1/compliance/do-not-call')).body.total,
        (total) => total === 1,
        30_000,
        200,
      );
      await page.goto(`${baseUrl}/console/#/campaigns`);
      await page.getByRole('link', { name: 'Do not call', exact: true }).click();
      await page.getByRole('heading', { name: 'Do not call', level: 1 }).waitFor();
      expect(page.url()).toBe(`${baseUrl}/console/#/do-not-call`);
      const row = (n: string) => page.locator(`tr[data-dnc-number="${n}"]`);
      await row('+15550250005').waitFor();
      // Who listed it is named: the patient (its MRN here, no name given), never an id.
      await waitFor(
        () => row('+15550250005').locator('td').nth(2).textContent(),
        (text) => text === 'Do not call me-0, who asked on a call not to be called',
      );

      // The API's 422 at each field, then a good number, normalised.
      await page.getByLabel('Phone number').fill('555-0100');
      await page.getByRole('button', { name: 'Add to the list' }).click();
      await page.locator('#dnc-phone_number-error').waitFor();
      await expect(page.locator('#dnc-phone_number-error').textContent()).resolves.toMatch(
        /phone number must be \+ followed by 7 to 15 digits/,
      );
      await expect(page.locator('#dnc-reason-error').textContent()).resolves.toBe(
        'String should have at least 1 character',
      );
      await page.getByLabel('Phone number').fill('+1 (555) 025-0101');
      await page.getByLabel('Reason (a letter, an email…)').fill('Letter of 2026-11-02');
      await page.getByRole('button', { name: 'Add to the list' }).click();
      await page.getByText('+15550250101 is on the list.').waitFor();
      await row('+15550250101').waitFor();
      await expect(
        page.locator('table[data-dnc-total]').getAttribute('data-dnc-total'),
      ).resolves.toBe('2');

      await page.getByLabel('Number contains').fill('025 0101');
      await page.getByRole('button', { name: 'Search' }).click();
      await waitFor(
        () => page.locator('tr[data-dnc-number]').count(),
        (n) => n === 1,
      );
      await expect(row('+15550250101').locator('td').nth(1).textContent()).resolves.toBe(
        'Letter of 2026-11-02',
      );
      await shot('do-not-call');

      // Removing asks why; the reason is required (the API's 422 in the dialog).
      await page.getByRole('button', { name: 'Remove +15550250101…' }).click();
      const dialog = page.getByRole('dialog');
      await dialog.getByRole('button', { name: 'Remove from the list' }).click();
      await expect(dialog.locator('.field-error').textContent()).resolves.toBe(
        'String should have at least 1 character',
      );
      await dialog.getByLabel('Why may it be called again?').fill('Consent given again by phone');
      await dialog.getByRole('button', { name: 'Remove from the list' }).click();
      await page.locator('[data-dnc-empty]').waitFor();
      expect((await api('get', '/api/v1/compliance/do-not-call')).body.total).toBe(1);

      // The removal is kept: the history shows it with its reason.
      await page.getByLabel('Show removed numbers too (history)').check();
      await row('+15550250101').waitFor();
      await expect(row('+15550250101').getAttribute('data-dnc-removed')).resolves.toBe('true');
      await expect(row('+15550250101').locator('td').nth(4).textContent()).resolves.toMatch(
        /^Removed .+: Consent given again by phone$/,
      );
      await shot('do-not-call-history');
    });

    it('is readable on a phone-sized screen, and made no third-party request nor CSP violation', async () => {
      await page.setViewportSize({ width: 390, height: 844 });
      await page.goto(`${baseUrl}/console/#/campaigns/${demo.campaignId}`);
      await page.locator('tr[data-target-id]').first().waitFor();
      const overflow = () =>
        page.evaluate<number>(
          'document.documentElement.scrollWidth - document.documentElement.clientWidth',
        );
      await expect(overflow()).resolves.toBeLessThanOrEqual(0);
      await expect(seriousA11yViolations(page)).resolves.toEqual([]);
      // The targets table as cards: one block per target, each value under its column's name.
      await expect(
        page.evaluate('getComputedStyle(document.querySelector("tr[data-target-id]")).display'),
      ).resolves.toBe('block');
      await expect(
        page.evaluate(
          `getComputedStyle(document.querySelector('tr[data-target-id] td[data-label="Status"]'), '::before').content`,
        ),
      ).resolves.toBe('"Status"');
      await expect(
        page.evaluate(
          `document.querySelector('section[aria-labelledby="targets-h"] thead').getBoundingClientRect().right`,
        ),
      ).resolves.toBeLessThan(0);
      await shot('campaign-phone');
      await page.goto(`${baseUrl}/console/#/campaigns`);
      await page.locator('.card .bar-text').first().waitFor();
      await expect(overflow()).resolves.toBeLessThanOrEqual(0);
      await expect(seriousA11yViolations(page)).resolves.toEqual([]);
      await shot('campaigns-phone');
      await page.goto(`${baseUrl}/console/#/targets/${targetIds[0]}`);
      await page.locator('ol.transcript').first().waitFor();
      await expect(overflow()).resolves.toBeLessThanOrEqual(0);
      await expect(seriousA11yViolations(page)).resolves.toEqual([]);
      await shot('target-phone');
      await page.goto(`${baseUrl}/console/#/review`);
      await page.locator('tr[data-target-id]').first().waitFor();
      await expect(overflow()).resolves.toBeLessThanOrEqual(0);
      await expect(seriousA11yViolations(page)).resolves.toEqual([]);
      await shot('review-phone');
      await page.goto(`${baseUrl}/console/#/campaigns/new`);
      await page.getByRole('group', { name: 'Calling window' }).waitFor();
      await expect(overflow()).resolves.toBeLessThanOrEqual(0);
      await expect(seriousA11yViolations(page)).resolves.toEqual([]);
      await shot('campaign-new-phone');
      await page.goto(`${baseUrl}/console/#/do-not-call`);
      await page.locator('tr[data-dnc-number]').first().waitFor();
      await expect(overflow()).resolves.toBeLessThanOrEqual(0);
      await expect(seriousA11yViolations(page)).resolves.toEqual([]);
      await shot('do-not-call-phone');
      // The pages that remain, so each page of the console is seen on a phone.
      const phonePages: [string, () => Promise<void>][] = [
        [
          `#/campaigns/${demo.campaignId}/settings`,
          () => page.getByRole('heading', { name: 'Settings' }).waitFor(),
        ],
        [
          `#/campaigns/${demo.campaignId}/webhooks`,
          () => page.getByRole('heading', { name: 'Webhook deliveries' }).waitFor(),
        ],
        [
          '#/compliance',
          () => page.getByRole('heading', { name: 'Calling rules', level: 1 }).waitFor(),
        ],
      ];
      for (const [hash, ready] of phonePages) {
        await page.goto(`${baseUrl}/console/${hash}`);
        await ready();
        await shot(`${hash.split('/').pop()}-phone`);
        await expect(overflow()).resolves.toBeLessThanOrEqual(0);
        await expect(seriousA11yViolations(page)).resolves.toEqual([]);
      }
      expect(foreignRequests).toEqual([]);
      expect(cspViolations).toEqual([]);
    });
  });
}
