import { plainToInstance, Transform } from 'class-transformer';
import proxyaddr from 'proxy-addr';
import {
  IsBoolean,
  IsIn,
  IsInt,
  IsNumber,
  IsOptional,
  IsString,
  Matches,
  Max,
  Min,
  validateSync,
} from 'class-validator';
import { BootstrapKey, parseBootstrapKeys } from './bootstrap-keys.js';
import { bool, duration, httpUrl, int, num, readWith, size } from './env-decorators.js';

/** Every environment variable the service reads; `.env.example` lists the same, with their defaults. */
export class EnvVars {
  @IsOptional() @int() @IsInt() @Min(0) @Max(65535) PORT = 3000;
  /**
   * The address the API (and a worker's HEALTH_PORT) listens on: all interfaces on PostgreSQL; only
   * loopback (127.0.0.1) on embedded PGlite, the local demo, whose webhooks and provider connections
   * may reach private addresses.
   */
  @IsOptional() @IsString() HOST?: string;
  /** `postgres://...` for PostgreSQL; unset, `pglite://<dir>` or `pglite://memory` for embedded PGlite. */
  @IsOptional()
  @readWith(
    'postgres://..., pglite://<dir> or pglite://memory',
    (raw) => parseDatabaseUrl(raw) && raw,
  )
  DATABASE_URL?: string;
  @IsOptional() @bool() @IsBoolean() MIGRATIONS_RUN = true;
  @IsOptional() @int() @IsInt() @Min(1) DB_POOL_SIZE = 10;
  @IsOptional() @IsIn(['all', 'api', 'worker']) ROLE: 'all' | 'api' | 'worker' = 'all';
  /** How many jobs of each queue one worker process runs at once. */
  @IsOptional() @int() @IsInt() @Min(1) WORKER_CONCURRENCY = 8;
  @IsOptional() @num() @IsNumber() @Min(0.5) JOB_POLL_INTERVAL_SECONDS = 1;
  /** How often crashed (expired) jobs are detected and retried. */
  @IsOptional() @int() @IsInt() @Min(1) JOB_MAINTENANCE_INTERVAL_SECONDS = 30;
  /** `acme=key1,globex=key2`: organizations and API keys made sure of at start (idempotent). */
  @IsOptional()
  @readWith('name=key pairs separated by commas', parseBootstrapKeys)
  BOOTSTRAP_API_KEYS: BootstrapKey[] = [];
  /** Creates a demo organization, key and campaign on first start; on by default on embedded PGlite. */
  @IsOptional() @bool() @IsBoolean() DEMO_SEED?: boolean;
  @IsOptional() @httpUrl() PUBLIC_BASE_URL?: string;
  @IsOptional() @IsIn(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']) LOG_LEVEL =
    'info';
  /** Largest JSON body accepted (bytes, or with a unit: 20mb). 10,000 targets fit in the default. */
  @IsOptional() @size() BODY_LIMIT = '25mb';
  /**
   * The calling policy of organizations that have not set one (docs/compliance.md): `standard` (the
   * TCPA's 08:00-21:00 in the recipient's zones, state rules on) or `unrestricted` (quiet hours and
   * state rules off: for test suites and demos on simulated telephony only; logged loudly at boot).
   */
  @IsOptional() @IsIn(['standard', 'unrestricted']) DEFAULT_CALLING_POLICY:
    'standard' | 'unrestricted' = 'standard';
  // --- Calls (docs/calling.md) ---
  /** Which provider places calls: `simulated` (no telephony) or `http` (your voice agent, AGENT_URL). */
  @IsOptional() @IsIn(['simulated', 'http']) CALL_PROVIDER: 'simulated' | 'http' = 'simulated';
  @IsOptional() @num() @Min(0) SIMULATED_CALL_SECONDS = 3;
  /** CALL_PROVIDER=http: where call requests are POSTed (docs/voice-agent-protocol.md). */
  @IsOptional() @IsString() AGENT_URL?: string;
  /** CALL_PROVIDER=http: the `whsec_...` secret signing requests both ways. */
  @IsOptional() @IsString() AGENT_SECRET?: string;
  /** An accepted call with no final event after this long is asked of its provider, else To review. */
  @IsOptional() @int() @IsInt() @Min(1) MAX_CALL_MINUTES = 30;
  /** A claimed call the provider has not accepted after this long (its worker died) is recovered. */
  @IsOptional() @int() @IsInt() @Min(1) CALL_PLACING_DEADLINE_SECONDS = 120;
  /** Calls placed per second per provider, shared by all workers; 0 = no limit. */
  @IsOptional() @int() @IsInt() @Min(0) CALLS_PER_SECOND = 50;
  /** Provider requests one worker process runs at once to place calls. */
  @IsOptional() @int() @IsInt() @Min(1) CALL_PLACEMENT_CONCURRENCY = 50;
  /** Longest sleep of an idle dispatcher when no NOTIFY wakes it (the only wake-up on PGlite). */
  @IsOptional() @num() @IsNumber() @Min(0.05) CALLING_POLL_INTERVAL_SECONDS = 2;
  /** How often each worker looks for calls past their deadline. */
  @IsOptional() @num() @IsNumber() @Min(0.1) CALL_SWEEP_INTERVAL_SECONDS = 10;
  // --- end of calls ---
  @IsOptional()
  @readWith('delays separated by commas, such as 5s,5m,30m,2h', (raw) =>
    /^\s*\d+(\.\d+)?\s*(ms|s|m|h|d)?\s*(,\s*\d+(\.\d+)?\s*(ms|s|m|h|d)?\s*)*$/i.test(raw)
      ? raw
      : undefined,
  )
  WEBHOOK_RETRY_SCHEDULE = '5s,5m,30m,2h,5h,10h,10h';
  /** Allow webhook deliveries to private addresses; on by default on embedded PGlite (the local demo). */
  @IsOptional() @bool() @IsBoolean() WEBHOOK_ALLOW_PRIVATE?: boolean;
  @IsOptional() @int() @IsInt() @Min(100) WEBHOOK_TIMEOUT_MS = 10000;
  /**
   * Allow provider connections' `api_base_url` (where their stored credentials are sent) to reach
   * private addresses; on by default on embedded PGlite (the local demo), like WEBHOOK_ALLOW_PRIVATE.
   */
  @IsOptional() @bool() @IsBoolean() PROVIDER_ALLOW_PRIVATE?: boolean;
  /** A webhook delivery overdue by this long is assumed to have lost its job and is queued again. */
  @IsOptional() @int() @IsInt() @Min(1) WEBHOOK_RECOVERY_SECONDS = 300;
  /** A queued or running CSV import with no progress for this long lost its job and is queued again. */
  @IsOptional() @int() @IsInt() @Min(1) IMPORT_RECOVERY_SECONDS = 60;
  /**
   * How often the folding job looks for count rows due a fold (src/common/persistence/count-folding.ts),
   * in every process role, one process at a time; 0: never (reads stay exact, only slower).
   */
  @IsOptional() @num() @IsNumber() @Min(0) COUNT_FOLD_INTERVAL_SECONDS = 2;
  /**
   * The share of its time the retention purge spends in its batches: after a batch that took t it
   * waits t * (1 - d) / d, leaving the database and the CPU to the API and the dialler (1: no wait).
   */
  @IsOptional() @num() @IsNumber() @Min(0.05) @Max(1) RETENTION_PURGE_DUTY_CYCLE = 0.25;
  /** A CSV upload still receiving with no row for this long died with its process: it ends failed. */
  @IsOptional() @int() @IsInt() @Min(1) IMPORT_UPLOAD_STALL_SECONDS = 300;
  /** On SIGTERM, how long running work may take to finish before it is handed back (Kubernetes waits 30 s). */
  @IsOptional() @duration() @Min(1000) SHUTDOWN_TIMEOUT = 25_000;
  /**
   * How long one request may take to arrive whole (Node's `requestTimeout`, 5 minutes by default):
   * a 1,000,000-row CSV upload, read as fast as it is staged, takes longer than that on a busy host.
   */
  @IsOptional() @duration() @Min(1000) HTTP_REQUEST_TIMEOUT = 3_600_000;
  /** A worker (ROLE=worker) serves health and /metrics on this port; it has no API. Unset: none. */
  @IsOptional() @int() @IsInt() @Min(1) @Max(65535) HEALTH_PORT?: number;
  /** Requests one API key may make per RATE_LIMIT_WINDOW in one process; 0 turns the limit off. */
  @IsOptional() @int() @IsInt() @Min(0) RATE_LIMIT_REQUESTS = 600;
  @IsOptional() @duration() @Min(1000) RATE_LIMIT_WINDOW = 60_000;
  /**
   * Express's `trust proxy`, so the client address (failed-authentication limit, logs) is the caller's
   * and not the load balancer's: the number of proxies in front, or their addresses (comma-separated
   * addresses, CIDRs, `loopback`, `linklocal`, `uniquelocal`). Never `true`: trusting every hop lets
   * a client choose its own address with X-Forwarded-For.
   */
  @IsOptional()
  @readWith('false, a number of proxies or a list of proxy addresses', parseTrustProxy)
  TRUST_PROXY: false | number | string = false;
  /** Failed authentications one client address, or one key prefix, may make per RATE_LIMIT_WINDOW; 0: no limit. */
  @IsOptional() @int() @IsInt() @Min(0) AUTH_FAILURE_LIMIT = 20;
  // --- People who sign in (docs/access.md) ---
  /** A session ends after this long without a request. */
  @IsOptional() @duration() @Min(60_000) SESSION_IDLE_TIMEOUT = 15 * 60_000;
  /** A session ends this long after sign-in, however busy. */
  @IsOptional() @duration() @Min(60_000) SESSION_MAX_AGE = 12 * 3_600_000;
  /** How long an invitation link (to set a password) stays usable. */
  @IsOptional() @duration() @Min(60_000) INVITATION_TTL = 72 * 3_600_000;
  /** Failed sign-ins one account may have within SIGN_IN_LOCKOUT before it is locked for as long. */
  @IsOptional() @int() @IsInt() @Min(1) SIGN_IN_FAILURES_PER_ACCOUNT = 5;
  /** Failed sign-ins one client address may have within SIGN_IN_LOCKOUT before it is locked. */
  @IsOptional() @int() @IsInt() @Min(1) SIGN_IN_FAILURES_PER_ADDRESS = 50;
  @IsOptional() @duration() @Min(1000) SIGN_IN_LOCKOUT = 15 * 60_000;
  /** Single sign-on over OpenID Connect: the identity provider's issuer; unset, no SSO. */
  @IsOptional() @httpUrl() OIDC_ISSUER_URL?: string;
  @IsOptional() @IsString() OIDC_CLIENT_ID?: string;
  @IsOptional() @IsString() OIDC_CLIENT_SECRET?: string;
  @IsOptional() @IsString() OIDC_SCOPES = 'openid email profile';
  /** The claim (of the ID token or userinfo) holding the person's groups or roles at the provider. */
  @IsOptional() @IsString() OIDC_ROLE_CLAIM = 'groups';
  /** `provider-group=role,...`: which of their groups gives which role here (the highest wins). */
  @IsOptional() @IsString() OIDC_ROLE_MAP = '';
  /** The organization people who sign in through the provider belong to (its name). */
  @IsOptional() @IsString() OIDC_ORGANIZATION?: string;
  /**
   * Encrypts provider credentials at rest (AES-256-GCM): 32 bytes as 64 hex characters or base64.
   * Unset: credentials cannot be stored, except on embedded PGlite, which generates one.
   */
  @IsOptional()
  @Transform(({ value }) => (value === '' ? undefined : value))
  @Matches(/^\s*([0-9a-fA-F]{64}|[A-Za-z0-9+/_-]{43}=?)\s*$/, {
    message: 'SECRETS_KEY must be 32 bytes: 64 hex characters or base64',
  })
  SECRETS_KEY?: string;
}

function parseTrustProxy(raw: string): false | number | string {
  if (/^true$/i.test(raw)) {
    throw new Error(
      'true would trust every address, so any client could choose its own with X-Forwarded-For; ' +
        'give the number of proxies in front (1 behind one load balancer) or their addresses ' +
        '(10.0.0.0/8, uniquelocal)',
    );
  }
  if (/^false$/i.test(raw)) return false;
  if (/^\d+$/.test(raw)) return Number(raw) === 0 ? false : Number(raw);
  const addresses = raw.split(',').map((a) => a.trim());
  try {
    // What Express does with the value: refused here, at start, rather than on the first request.
    proxyaddr.compile(addresses);
  } catch (err) {
    throw new Error(`"${raw}" is not a list of proxy addresses: ${(err as Error).message}`, {
      cause: err,
    });
  }
  return addresses.join(',');
}

export type DatabaseTarget =
  { kind: 'postgres'; url: string } | { kind: 'pglite'; dataDir: string | null };

/** Settings that `loadConfig` fills in when the environment leaves them unset. */
type DefaultedAtLoad =
  'HOST' | 'DEMO_SEED' | 'PUBLIC_BASE_URL' | 'WEBHOOK_ALLOW_PRIVATE' | 'PROVIDER_ALLOW_PRIVATE';

export interface AppConfigValues
  extends
    Omit<EnvVars, 'DATABASE_URL' | DefaultedAtLoad>,
    Required<Pick<EnvVars, DefaultedAtLoad>> {
  database: DatabaseTarget;
}

/** The validated configuration, injectable by its class. */
export class AppConfig {
  constructor(readonly values: AppConfigValues) {}
  get<K extends keyof AppConfigValues>(key: K): AppConfigValues[K] {
    return this.values[key];
  }
}

export function parseDatabaseUrl(url: string | undefined): DatabaseTarget {
  if (!url) return { kind: 'pglite', dataDir: './.data/pglite' };
  if (url.startsWith('pglite://')) {
    const rest = url.slice('pglite://'.length);
    return { kind: 'pglite', dataDir: rest === 'memory' || rest === '' ? null : rest };
  }
  if (/^postgres(ql)?:\/\//.test(url)) return { kind: 'postgres', url };
  throw new Error(
    `DATABASE_URL must be postgres://..., pglite://<dir> or pglite://memory, got "${withoutPassword(url)}"`,
  );
}

/** A connection URL as it may be shown: its password replaced by `***`. */
export function withoutPassword(url: string): string {
  return url.replace(/^([a-z][a-z0-9+.-]*:\/\/[^/:@]*:)[^@/]*@/i, '$1***@');
}

/** Settings whose values are secrets: an error names their length, never their text. */
const SECRET_SETTINGS = new Set(['SECRETS_KEY', 'AGENT_SECRET', 'BOOTSTRAP_API_KEYS']);

/** How an error shows the value a setting was given. */
function shownValue(name: string, raw: string): string {
  if (SECRET_SETTINGS.has(name)) return `${raw.length} characters (not shown: a secret)`;
  return JSON.stringify(name === 'DATABASE_URL' ? withoutPassword(raw) : raw);
}

/**
 * One line per setting: what it must be and what it was given (`ROLE: must be one of ..., got
 * "boss"`), whatever check refused it; a secret's text never appears, only its length.
 */
function problemLine(
  name: string,
  messages: string[],
  raw: string | undefined,
  /** A reader's own message (env-decorators), which names or explains the value already. */
  fromReader: boolean,
): string {
  let text = messages.join('; ');
  if (raw === undefined) return `${name}: ${text}`;
  if (SECRET_SETTINGS.has(name) && raw.trim() !== '') text = text.split(raw.trim()).join('***');
  if (!fromReader) text += `, got ${shownValue(name, raw)}`;
  return `${name}: ${text}`;
}

/** Every problem of the environment, one line each, reported together. */
export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  ${p}`).join('\n')}`);
  }
}

export function loadConfig(env: Record<string, string | undefined> = process.env): AppConfig {
  const vars = plainToInstance(EnvVars, env, { exposeDefaultValues: true });
  const errors = validateSync(vars);
  if (errors.length > 0) {
    throw new ConfigError(
      errors.map((e) => {
        // Text that could not be read fails the type and range checks too; saying so is enough.
        const { readable, ...checks } = e.constraints ?? {};
        // class-validator's own messages start with the property name; ours do not.
        const messages = (readable ? [readable] : Object.values(checks)).map((m) =>
          m.startsWith(`${e.property} `) ? m.slice(e.property.length + 1) : m,
        );
        return problemLine(e.property, messages, env[e.property], readable !== undefined);
      }),
    );
  }
  if (
    vars.CALL_PROVIDER === 'http' &&
    (!vars.AGENT_URL || !vars.AGENT_SECRET?.startsWith('whsec_'))
  ) {
    throw new ConfigError(['CALL_PROVIDER: http needs AGENT_URL and AGENT_SECRET (whsec_...)']);
  }
  const database = parseDatabaseUrl(vars.DATABASE_URL);
  const { DATABASE_URL: _url, ...rest } = vars;
  return new AppConfig({
    ...rest,
    database,
    HOST: vars.HOST ?? (database.kind === 'pglite' ? '127.0.0.1' : '0.0.0.0'),
    DEMO_SEED: vars.DEMO_SEED ?? database.kind === 'pglite',
    WEBHOOK_ALLOW_PRIVATE: vars.WEBHOOK_ALLOW_PRIVATE ?? database.kind === 'pglite',
    PROVIDER_ALLOW_PRIVATE: vars.PROVIDER_ALLOW_PRIVATE ?? database.kind === 'pglite',
    PUBLIC_BASE_URL: vars.PUBLIC_BASE_URL ?? `http://localhost:${vars.PORT}`,
  });
}
