import { ConfigError, loadConfig, parseDatabaseUrl } from './app-config.js';

describe('configuration', () => {
  it('defaults to embedded PGlite with the local demo conveniences on', () => {
    const config = loadConfig({});
    expect(config.get('database')).toEqual({ kind: 'pglite', dataDir: './.data/pglite' });
    expect(config.get('PORT')).toBe(3000);
    expect(config.get('ROLE')).toBe('all');
    expect(config.get('DEMO_SEED')).toBe(true);
    expect(config.get('WEBHOOK_ALLOW_PRIVATE')).toBe(true);
    expect(config.get('PROVIDER_ALLOW_PRIVATE')).toBe(true);
    expect(config.get('PUBLIC_BASE_URL')).toBe('http://localhost:3000');
    // The demo allows private webhook targets: it listens on this machine only unless told.
    expect(config.get('HOST')).toBe('127.0.0.1');
    expect(loadConfig({ HOST: '0.0.0.0' }).get('HOST')).toBe('0.0.0.0');
  });

  it('turns the demo and private webhook targets off on PostgreSQL unless asked', () => {
    const pg = loadConfig({ DATABASE_URL: 'postgres://u@db:5432/app', PORT: '8080' });
    expect(pg.get('database')).toEqual({ kind: 'postgres', url: 'postgres://u@db:5432/app' });
    expect(pg.get('DEMO_SEED')).toBe(false);
    expect(pg.get('WEBHOOK_ALLOW_PRIVATE')).toBe(false);
    expect(pg.get('PROVIDER_ALLOW_PRIVATE')).toBe(false);
    expect(pg.get('PUBLIC_BASE_URL')).toBe('http://localhost:8080');
    expect(pg.get('HOST')).toBe('0.0.0.0');
    const asked = loadConfig({
      DATABASE_URL: 'postgres://u@db/app',
      WEBHOOK_ALLOW_PRIVATE: 'true',
      PROVIDER_ALLOW_PRIVATE: 'true',
    });
    expect(asked.get('WEBHOOK_ALLOW_PRIVATE')).toBe(true);
    expect(asked.get('PROVIDER_ALLOW_PRIVATE')).toBe(true);
  });

  it('reads pglite:// URLs', () => {
    expect(parseDatabaseUrl('pglite://memory')).toEqual({ kind: 'pglite', dataDir: null });
    expect(parseDatabaseUrl('pglite:///var/lib/ccs')).toEqual({
      kind: 'pglite',
      dataDir: '/var/lib/ccs',
    });
  });

  it('refuses bad values with a message naming them', () => {
    expect(() => loadConfig({ ROLE: 'boss' })).toThrow(/ROLE/);
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(/PORT/);
    expect(() => loadConfig({ DATABASE_URL: 'mysql://x' })).toThrow(
      /DATABASE_URL: must be postgres/,
    );
  });
});

describe('configuration errors', () => {
  function problems(env: Record<string, string>): string[] {
    try {
      loadConfig(env);
    } catch (err) {
      expect(err).toBeInstanceOf(ConfigError);
      return (err as ConfigError).problems;
    }
    throw new Error('expected a ConfigError');
  }

  it('TRUST_PROXY takes hops or proxy addresses, never true (any client could pick its address)', () => {
    expect(problems({ TRUST_PROXY: 'true' })).toEqual([
      'TRUST_PROXY: true would trust every address, so any client could choose its own with ' +
        'X-Forwarded-For; give the number of proxies in front (1 behind one load balancer) or ' +
        'their addresses (10.0.0.0/8, uniquelocal)',
    ]);
    expect(problems({ TRUST_PROXY: '10.0.0.0/33' })[0]).toMatch(
      /^TRUST_PROXY: "10.0.0.0\/33" is not a list of proxy addresses: /,
    );
    expect(loadConfig({ TRUST_PROXY: '1' }).get('TRUST_PROXY')).toBe(1);
    expect(loadConfig({ TRUST_PROXY: '0' }).get('TRUST_PROXY')).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'false' }).get('TRUST_PROXY')).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'loopback, 10.0.0.0/8,fd00::1' }).get('TRUST_PROXY')).toBe(
      'loopback,10.0.0.0/8,fd00::1',
    );
  });

  it('lists every problem at once, one line each', () => {
    expect(
      problems({
        PORT: '',
        MIGRATIONS_RUN: 'yes',
        PUBLIC_BASE_URL: 'calls.example.com',
        BODY_LIMIT: 'lots',
        SHUTDOWN_TIMEOUT: 'soon',
        WORKER_CONCURRENCY: '2.5',
        WEBHOOK_RETRY_SCHEDULE: '5s,later',
      }),
    ).toEqual([
      'PORT: must not be empty (an integer)',
      'MIGRATIONS_RUN: must be true, false, 1 or 0, got "yes"',
      'WORKER_CONCURRENCY: must be an integer, got "2.5"',
      'PUBLIC_BASE_URL: must be an http(s) URL such as https://calls.example.com, got "calls.example.com"',
      'BODY_LIMIT: must be a size such as 512kb or 25mb, got "lots"',
      'WEBHOOK_RETRY_SCHEDULE: must be delays separated by commas, such as 5s,5m,30m,2h, got "5s,later"',
      'SHUTDOWN_TIMEOUT: must be a duration such as 500ms, 25s or 2m, got "soon"',
    ]);
  });

  it('reads booleans as true/false/1/0, durations with units or as seconds, and sizes', () => {
    const config = loadConfig({
      MIGRATIONS_RUN: '0',
      DEMO_SEED: 'TRUE',
      SHUTDOWN_TIMEOUT: '10',
      RATE_LIMIT_WINDOW: '2m',
      BODY_LIMIT: '2kb',
      PUBLIC_BASE_URL: 'https://calls.example.com/',
    });
    expect(config.get('MIGRATIONS_RUN')).toBe(false);
    expect(config.get('DEMO_SEED')).toBe(true);
    expect(config.get('SHUTDOWN_TIMEOUT')).toBe(10_000);
    expect(config.get('RATE_LIMIT_WINDOW')).toBe(120_000);
    expect(config.get('BODY_LIMIT')).toBe('2kb');
    expect(config.get('PUBLIC_BASE_URL')).toBe('https://calls.example.com');
    expect(loadConfig({}).get('SHUTDOWN_TIMEOUT')).toBe(25_000);
  });

  it('refuses bootstrap keys shorter than 32 characters, naming the organization', () => {
    expect(problems({ BOOTSTRAP_API_KEYS: 'acme=short-key' })).toEqual([
      'BOOTSTRAP_API_KEYS: the key of "acme" has 9 characters; a bootstrap key needs at least 32 (generate one with: openssl rand -base64 32)',
    ]);
    const key = 'k'.repeat(32);
    expect(
      loadConfig({ BOOTSTRAP_API_KEYS: ` acme=${key}, globex = ${key}x ` }).get(
        'BOOTSTRAP_API_KEYS',
      ),
    ).toEqual([
      ['acme', key],
      ['globex', `${key}x`],
    ]);
    expect(problems({ BOOTSTRAP_API_KEYS: `acme=${key},${key}` })).toEqual([
      'BOOTSTRAP_API_KEYS: expected name=key pairs separated by commas, got pair 2 of 2 without a name, "=" or a key',
    ]);
  });

  it('names the value each kind of check refused, and never the text of a secret', () => {
    const secret = 'not-a-32-byte-key-but-secret';
    expect(
      problems({
        ROLE: 'boss',
        PORT: '70000',
        WORKER_CONCURRENCY: '0',
        JOB_POLL_INTERVAL_SECONDS: '0.1',
        SECRETS_KEY: secret,
        DATABASE_URL: 'mysql://app:hunter2@db:3306/calls',
      }),
    ).toEqual([
      'PORT: must not be greater than 65535, got "70000"',
      'DATABASE_URL: must be postgres://..., pglite://<dir> or pglite://memory, got "mysql://app:***@db:3306/calls"',
      'ROLE: must be one of the following values: all, api, worker, got "boss"',
      'WORKER_CONCURRENCY: must not be less than 1, got "0"',
      'JOB_POLL_INTERVAL_SECONDS: must not be less than 0.5, got "0.1"',
      `SECRETS_KEY: must be 32 bytes: 64 hex characters or base64, got ${secret.length} characters (not shown: a secret)`,
    ]);
    const key = 'k'.repeat(32);
    const shortKey = problems({ BOOTSTRAP_API_KEYS: `acme=${key},globex=short` }).join('\n');
    expect(shortKey).toBe(
      'BOOTSTRAP_API_KEYS: the key of "globex" has 5 characters; a bootstrap key needs at least 32 (generate one with: openssl rand -base64 32)',
    );
    expect(shortKey).not.toContain(key);
  });
});
