import { plainToInstance, Transform } from 'class-transformer';
import {
  IsBoolean,
  IsIn,
  IsInt,
  IsNumber,
  IsOptional,
  IsString,
  Max,
  Min,
  validateSync,
} from 'class-validator';

const bool = () =>
  Transform(({ value }) =>
    value === undefined || value === '' ? undefined : /^(1|true|yes|on)$/i.test(String(value)),
  );
const num = () =>
  Transform(({ value }) => (value === undefined || value === '' ? undefined : Number(value)));
const int = () =>
  Transform(({ value }) => (value === undefined || value === '' ? undefined : Number(value)));

/** Every environment variable the service reads; `.env.example` lists the same, with their defaults. */
export class EnvVars {
  @IsOptional() @int() @IsInt() @Min(0) @Max(65535) PORT = 3000;
  @IsOptional() @IsString() HOST = '0.0.0.0';
  /** `postgres://...` for PostgreSQL; unset, `pglite://<dir>` or `pglite://memory` for embedded PGlite. */
  @IsOptional() @IsString() DATABASE_URL?: string;
  @IsOptional() @bool() @IsBoolean() MIGRATIONS_RUN = true;
  @IsOptional() @int() @IsInt() @Min(1) DB_POOL_SIZE = 10;
  @IsOptional() @IsIn(['all', 'api', 'worker']) ROLE: 'all' | 'api' | 'worker' = 'all';
  /** How many jobs of each queue one worker process runs at once. */
  @IsOptional() @int() @IsInt() @Min(1) WORKER_CONCURRENCY = 8;
  @IsOptional() @num() @IsNumber() @Min(0.5) JOB_POLL_INTERVAL_SECONDS = 1;
  /** How often crashed (expired) jobs are detected and retried. */
  @IsOptional() @int() @IsInt() @Min(1) JOB_MAINTENANCE_INTERVAL_SECONDS = 30;
  /** `acme=key1,globex=key2`: organizations and API keys made sure of at start (idempotent). */
  @IsOptional() @IsString() BOOTSTRAP_API_KEYS?: string;
  /** Creates a demo organization, key and campaign on first start; on by default on embedded PGlite. */
  @IsOptional() @bool() @IsBoolean() DEMO_SEED?: boolean;
  @IsOptional() @IsString() PUBLIC_BASE_URL?: string;
  @IsOptional() @IsIn(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']) LOG_LEVEL =
    'info';
  /** Largest JSON body accepted (bytes, or with a unit: 20mb). 10,000 targets fit in the default. */
  @IsOptional() @IsString() BODY_LIMIT = '25mb';
  @IsOptional() @IsIn(['simulated']) CALL_PROVIDER = 'simulated' as const;
  @IsOptional() @int() @Min(0) SIMULATED_CALL_SECONDS = 3;
  /** Minutes after which an `In Progress` call with no outcome is recovered. */
  @IsOptional() @int() @IsInt() @Min(1) STALE_CALL_MINUTES = 15;
  /** A call whose worker stopped renewing its lease (died) for this many seconds is recovered. */
  @IsOptional() @int() @IsInt() @Min(1) CALL_LEASE_SECONDS = 30;
  @IsOptional() @IsString() WEBHOOK_RETRY_SCHEDULE = '5s,5m,30m,2h,5h,10h,10h';
  /** Allow webhook deliveries to private addresses; on by default on embedded PGlite (the local demo). */
  @IsOptional() @bool() @IsBoolean() WEBHOOK_ALLOW_PRIVATE?: boolean;
  @IsOptional() @int() @IsInt() @Min(100) WEBHOOK_TIMEOUT_MS = 10000;
  /** A webhook delivery overdue by this long is assumed to have lost its job and is queued again. */
  @IsOptional() @int() @IsInt() @Min(1) WEBHOOK_RECOVERY_SECONDS = 300;
}

export type DatabaseTarget =
  { kind: 'postgres'; url: string } | { kind: 'pglite'; dataDir: string | null };

export interface AppConfigValues extends Omit<
  EnvVars,
  'DATABASE_URL' | 'DEMO_SEED' | 'PUBLIC_BASE_URL' | 'WEBHOOK_ALLOW_PRIVATE'
> {
  database: DatabaseTarget;
  DEMO_SEED: boolean;
  WEBHOOK_ALLOW_PRIVATE: boolean;
  PUBLIC_BASE_URL: string;
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
    `DATABASE_URL must be postgres://..., pglite://<dir> or pglite://memory, got "${url}"`,
  );
}

export function loadConfig(env: Record<string, string | undefined> = process.env): AppConfig {
  const vars = plainToInstance(EnvVars, env, { exposeDefaultValues: true });
  const errors = validateSync(vars, { skipMissingProperties: false, whitelist: false });
  if (errors.length > 0) {
    const lines = errors.map(
      (e) => `${e.property}: ${Object.values(e.constraints ?? {}).join(', ')}`,
    );
    throw new Error(`Invalid configuration:\n  ${lines.join('\n  ')}`);
  }
  const database = parseDatabaseUrl(vars.DATABASE_URL);
  const { DATABASE_URL: _url, ...rest } = vars;
  return new AppConfig({
    ...rest,
    database,
    DEMO_SEED: vars.DEMO_SEED ?? database.kind === 'pglite',
    WEBHOOK_ALLOW_PRIVATE: vars.WEBHOOK_ALLOW_PRIVATE ?? database.kind === 'pglite',
    PUBLIC_BASE_URL: (vars.PUBLIC_BASE_URL ?? `http://localhost:${vars.PORT}`).replace(/\/$/, ''),
  });
}
