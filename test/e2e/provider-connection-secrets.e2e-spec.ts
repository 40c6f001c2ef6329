import { mkdtempSync, readFileSync, rmSync, statSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';
import { exited, freePort, startProcess } from '../support/run-process.js';
import { waitFor, waitForHealth } from '../support/test-app.js';

const AUTH_TOKEN = 'twilio-auth-token-never-logged-31f7';
const ROTATED = 'rotated-token-never-logged-8d02';

describe('provider credentials on the embedded demo (a real process)', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'ccs-secrets-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('generates a key beside the data directory, with a warning, and logs no secret', async () => {
    const port = await freePort();
    const service = startProcess('main.ts', {
      PORT: String(port),
      DATABASE_URL: `pglite://${dataDir}/db`,
      LOG_LEVEL: 'trace',
      DEMO_SEED: 'false',
      BOOTSTRAP_API_KEYS: 'acme=acme-secrets-key-0123456789abcdef0123',
      SECRETS_KEY: '',
    });
    try {
      const base = `http://127.0.0.1:${port}`;
      await waitForHealth(base, service);
      expect(service.exitCode === null ? '' : service.output()).toBe('');
      const headers = {
        'X-API-Key': 'acme-secrets-key-0123456789abcdef0123',
        'Content-Type': 'application/json',
      };
      const send = (method: string, path: string, body: unknown) =>
        fetch(`${base}${path}`, { method, headers, body: JSON.stringify(body) });

      const created = await send('POST', '/api/v1/provider-connections', {
        type: 'twilio',
        name: 'Twilio',
        credentials: { account_sid: 'AC0123456789abcdef0123456789abcdef', auth_token: AUTH_TOKEN },
        settings: { twiml_url: 'https://example.com/t.xml' },
      });
      expect(created.status).toBe(201);
      const { id, credentials } = (await created.json()) as { id: string; credentials: object };
      expect(credentials).toEqual({ account_sid: '***cdef', auth_token: '***31f7' });
      const invalid = await send('POST', '/api/v1/provider-connections', {
        type: 'twilio',
        name: 'Twilio',
        credentials: { auth_token: AUTH_TOKEN },
      });
      expect(invalid.status).toBe(422);
      const rotated = await send('PATCH', `/api/v1/provider-connections/${id}`, {
        credentials: { auth_token: ROTATED },
      });
      expect(rotated.status).toBe(200);
      expect(
        ((await rotated.json()) as { credentials: { auth_token: string } }).credentials.auth_token,
      ).toBe('***8d02');

      const keyFile = join(dataDir, 'db.secrets-key');
      expect(statSync(keyFile).mode & 0o777).toBe(0o600);
      expect(readFileSync(keyFile, 'utf8').trim()).toMatch(/^[A-Za-z0-9+/]{43}=$/);
      const output = await waitFor(
        async () => service.output(),
        (o) => o.includes('generated a key for provider credentials'),
      );
      expect(output).toContain(keyFile);
      expect(output).toContain('/api/v1/provider-connections');
      expect(output).not.toContain(AUTH_TOKEN);
      expect(output).not.toContain(ROTATED);
    } finally {
      service.kill('SIGTERM');
      await exited(service);
    }
  }, 120_000);
});
