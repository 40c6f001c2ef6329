import 'reflect-metadata';
import { providedToken } from './common/adapters/adapter-binding.js';
import { existsSync } from 'fs';
import { parseArgs } from 'util';
import { type Role, ROLES } from './common/auth/access.js';
import { DynamicModule, Global, INestApplicationContext, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { AppConfig, loadConfig } from './config/app-config.js';
import { dataSourceOptions } from './database/data-source.options.js';
import { EmbeddedDatabase, EmbeddedPostgres } from './database/embedded-postgres.js';
import { runMigrationsLocked } from './database/migrations-runner.js';
import { SECRET_BOX_ADAPTER } from './database/database.module.js';
import { SecretBox } from './common/secrets/secret-box.js';
import { CampaignCallingModule } from './campaign-calling.module.js';
import { Clock, SystemClock } from './common/clock/clock.js';
import {
  ORGANIZATION_ADAPTERS,
  OrganizationModule,
} from './modules/organization/organization.module.js';
import { OrganizationService } from './modules/organization/application/organization.service.js';
import { presentCampaign } from './modules/campaign/api/campaign.presenter.js';
import { CampaignControl } from './modules/calling/application/campaign-control.js';
import { CampaignStatsService } from './modules/calling/application/campaign-stats.service.js';
import { presentStats } from './modules/calling/api/campaign-control.controller.js';
import { importTargetsFile } from './cli-import.js';
import { AUDIT_ADAPTERS } from './modules/audit/audit.module.js';
import { AuditTrailService } from './modules/audit/application/audit-trail.service.js';
import { presentVerification } from './modules/audit/api/audit-event.presenter.js';

const USAGE = `Usage: npm run cli -- <command> [options]   (every command prints JSON)
  org:create --name <name>                 create an organization
  org:list                                 list organizations
  apikey:create --org <organization id> [--name <label>] [--role admin|operator|viewer|integration]
                                           issue an API key (the key is shown once)
  apikey:list --org <organization id>      list an organization's keys (never the keys themselves)
  apikey:revoke <api key id>               revoke a key
  migration:run                            apply pending database migrations
  audit:verify [--org <organization id>]   check the audit hash chain (every organization's by
                                           default); exits 1 naming the first event that does not match
  campaign:pause <campaign id> --org <organization id>
                                           pause a campaign (no new call starts)
  campaign:resume <campaign id> --org <organization id>
                                           resume a paused campaign (due targets are called at once)
  campaign:cancel <campaign id> --org <organization id>
                                           cancel a campaign for good (its uncalled targets end)
  campaign:stats <campaign id> --org <organization id>
                                           a campaign's progress (as GET /campaigns/{id}/stats)
  targets:import --campaign <campaign id> [--url <service url>] [--key <api key>]
                 [--dry-run] [--launch] [--no-duplicates] [--columns <Header:field,...>] <file.csv>
                                           import a CSV file of targets through the service's API,
                                           showing progress; prints the import report
The database is DATABASE_URL's, as for the service (default: embedded PGlite in ./.data/pglite;
while the service runs on it, the CLI uses it through the service).
targets:import talks to a running service instead: --url (default $SERVICE_URL or
http://localhost:$PORT, 3000) and --key (default $API_KEY).`;

/** Migrations are applied when the CLI connects; `migration:run` reports which ones that was. */
let appliedAtConnect: string[] = [];

@Global()
@Module({})
class CliModule {
  static forRoot(config: AppConfig, url: string): DynamicModule {
    return {
      module: CliModule,
      imports: [
        TypeOrmModule.forRootAsync({
          useFactory: () => dataSourceOptions(url, 2),
          dataSourceFactory: async (options) => {
            const dataSource = await new DataSource(options!).initialize();
            appliedAtConnect = await runMigrationsLocked(dataSource);
            return dataSource;
          },
        }),
        OrganizationModule,
      ],
      // The organization module's needs: its adapters (and the audit trail's, which it records
      // refusals in), the clock its records are stamped with, and the box its TOTP secrets are
      // sealed in.
      providers: [
        { provide: AppConfig, useValue: config },
        { provide: Clock, useClass: SystemClock },
        SECRET_BOX_ADAPTER,
        ...ORGANIZATION_ADAPTERS,
        ...AUDIT_ADAPTERS,
      ],
      exports: [
        AppConfig,
        Clock,
        SecretBox,
        ...[...ORGANIZATION_ADAPTERS, ...AUDIT_ADAPTERS].map(providedToken),
      ],
    };
  }
}

/** The options any command may take; `CliOptions` is what `parseArgs` reads of them. */
const OPTIONS = {
  name: { type: 'string' },
  role: { type: 'string' },
  org: { type: 'string' },
  campaign: { type: 'string' },
  url: { type: 'string' },
  key: { type: 'string' },
  columns: { type: 'string' },
  'dry-run': { type: 'boolean' },
  launch: { type: 'boolean' },
  'no-duplicates': { type: 'boolean' },
} as const;

type CliOptions = ReturnType<
  typeof parseArgs<{ options: typeof OPTIONS; allowPositionals: true; strict: true }>
>['values'];

/** `--name x`, `--org x`, the import's flags and positionals; anything else is a usage error. */
function parseCommandLine(argv: string[]): {
  command?: string;
  args: string[];
  options: CliOptions;
} {
  try {
    const { values, positionals } = parseArgs({
      args: argv,
      options: OPTIONS,
      allowPositionals: true,
      strict: true,
    });
    const [command, ...args] = positionals;
    return { command, args, options: values };
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
}

function required(options: CliOptions, name: 'name' | 'org' | 'campaign'): string {
  const value = options[name];
  if (!value) throw new UsageError(`--${name} is required`);
  return value;
}

class UsageError extends Error {}

/** A broken audit chain: the report goes to stdout as for a valid one, and the exit code is 1. */
class ChainBroken extends Error {
  constructor(readonly report: unknown) {
    super('the audit chain does not verify');
  }
}

/** `<campaign id> --org <organization id>`: the organization is named, as an API key would. */
function campaignArgs(command: string, args: string[], options: CliOptions): [string, string] {
  const campaignId = args[0];
  if (!campaignId || args.length > 1) throw new UsageError(`${command} takes one campaign id`);
  return [required(options, 'org'), campaignId];
}

/** Every command `run` knows (and `targets:import`): checked before any database is opened. */
const COMMANDS = new Set([
  'org:create',
  'org:list',
  'apikey:create',
  'apikey:list',
  'apikey:revoke',
  'migration:run',
  'audit:verify',
  'campaign:pause',
  'campaign:resume',
  'campaign:cancel',
  'campaign:stats',
  'targets:import',
]);

/**
 * Campaign commands act as the API does (same services, outbox and notifications), so they boot the
 * service's module in the API role: no dispatcher or job workers run in the CLI process.
 */
const usesService = (command: string) => command.startsWith('campaign:');

async function run(
  command: string,
  args: string[],
  options: CliOptions,
  ctx: INestApplicationContext,
): Promise<unknown> {
  const organizations = ctx.get(OrganizationService);
  switch (command) {
    case 'org:create': {
      const o = await organizations.createOrganization(required(options, 'name'));
      return { id: o.id, name: o.name, created_at: o.createdAt.toISOString() };
    }
    case 'org:list':
      return (await organizations.listOrganizations()).map((o) => ({
        id: o.id,
        name: o.name,
        created_at: o.createdAt.toISOString(),
      }));
    case 'apikey:create': {
      const role = options.role ?? 'admin';
      if (!isRole(role)) throw new UsageError(`--role must be one of ${ROLES.join(', ')}`);
      const k = await organizations.createApiKey(required(options, 'org'), {
        name: options.name ?? 'cli',
        role,
      });
      return {
        id: k.id,
        organization_id: k.organizationId,
        name: k.name,
        role: k.role,
        key: k.key,
        created_at: k.createdAt.toISOString(),
      };
    }
    case 'apikey:list':
      return (await organizations.listApiKeys(required(options, 'org'))).map((k) => ({
        id: k.id,
        name: k.name,
        role: k.role,
        campaign_ids: k.campaignIds,
        key_prefix: k.keyPrefix,
        created_at: k.createdAt.toISOString(),
        expires_at: k.expiresAt?.toISOString() ?? null,
        revoked_at: k.revokedAt?.toISOString() ?? null,
      }));
    case 'apikey:revoke': {
      const id = args[0];
      if (!id) throw new UsageError('apikey:revoke takes the API key id');
      await organizations.revokeApiKey(id);
      return { id, revoked: true };
    }
    case 'campaign:pause':
    case 'campaign:resume':
    case 'campaign:cancel': {
      const [organizationId, campaignId] = campaignArgs(command, args, options);
      const control = ctx.get(CampaignControl);
      const action = command.slice('campaign:'.length) as 'pause' | 'resume' | 'cancel';
      return presentCampaign(await control[action](organizationId, campaignId));
    }
    case 'campaign:stats': {
      const [organizationId, campaignId] = campaignArgs(command, args, options);
      return presentStats(await ctx.get(CampaignStatsService).stats(organizationId, campaignId));
    }
    case 'migration:run': {
      const rows = await ctx
        .get(DataSource)
        .query<{ name: string }[]>('SELECT name FROM schema_migrations ORDER BY id');
      return { applied: appliedAtConnect, schema: rows.map((r) => r.name) };
    }
    case 'audit:verify': {
      const trail = ctx.get(AuditTrailService);
      const results = options.org
        ? [{ organizationId: options.org, verification: await trail.verify(options.org) }]
        : await trail.verifyAll();
      const report = results.map((r) => ({
        organization_id: r.organizationId,
        ...presentVerification(r.verification),
      }));
      if (report.some((r) => !r.valid)) throw new ChainBroken(report);
      return report;
    }
    default:
      throw new UsageError(`unknown command "${command}"`);
  }
}

/** `targets:import`: no database here, the running service does the work (see cli-import.ts). */
async function importTargets(args: string[], options: CliOptions): Promise<number> {
  const campaignId = required(options, 'campaign');
  const file = args[0];
  if (!file || args.length > 1) throw new UsageError('targets:import takes one CSV file');
  const apiKey = options.key ?? process.env.API_KEY;
  if (!apiKey) throw new UsageError('--key (or API_KEY) is required');
  const url =
    options.url ?? process.env.SERVICE_URL ?? `http://localhost:${process.env.PORT ?? '3000'}`;
  const tty = process.stderr.isTTY;
  const { status, body } = await importTargetsFile({
    url,
    apiKey,
    campaignId,
    file,
    query: {
      ...(options['dry-run'] ? { dry_run: 'true' } : {}),
      ...(options.launch ? { launch: 'true' } : {}),
      ...(options['no-duplicates'] ? { allow_duplicates: 'false' } : {}),
      ...(options.columns ? { columns: options.columns } : {}),
    },
    progress: (line) => process.stderr.write(tty ? `\r\x1b[2K${line}` : `${line}\n`),
  });
  if (tty) process.stderr.write('\n');
  process.stdout.write(JSON.stringify(body, null, 2) + '\n');
  return status === 200 && (body as { status?: string }).status === 'succeeded' ? 0 : 1;
}

async function main(): Promise<number> {
  if (existsSync('.env')) process.loadEnvFile('.env');
  const argv = process.argv.slice(2);
  if (argv.length === 0 || argv[0] === '--help' || argv[0] === 'help') {
    process.stdout.write(USAGE + '\n');
    return argv.length === 0 ? 2 : 0;
  }
  let embedded: EmbeddedDatabase | null = null;
  let ctx: INestApplicationContext | undefined;
  try {
    const { command, args, options } = parseCommandLine(argv);
    if (!command) throw new UsageError('no command given');
    // A typo is told at once, without starting (or waiting for) a database.
    if (!COMMANDS.has(command)) throw new UsageError(`unknown command "${command}"`);
    if (command === 'targets:import') return await importTargets(args, options);
    const env = { ...process.env, DEMO_SEED: 'false' };
    const config = loadConfig(env);
    const database = config.get('database');
    // While the service runs on the embedded database, the CLI uses it through the service's port.
    embedded =
      database.kind === 'pglite' ? await EmbeddedPostgres.startOrJoin(database.dataDir) : null;
    const url = embedded?.url ?? (database as { url: string }).url;
    const module = usesService(command)
      ? CampaignCallingModule.forRoot({
          config: loadConfig({ ...env, ROLE: 'api', LOG_LEVEL: 'error' }),
          database: { url },
        })
      : CliModule.forRoot(config, url);
    ctx = await NestFactory.createApplicationContext(module, { logger: ['error'] });
    const result = await run(command, args, options, ctx);
    process.stdout.write(JSON.stringify(result, null, 2) + '\n');
    return 0;
  } catch (err) {
    // One line an operator can act on; no stack trace (configuration, a held database, a bad id).
    if (err instanceof ChainBroken) {
      process.stdout.write(JSON.stringify(err.report, null, 2) + '\n');
    }
    const message = err instanceof Error ? err.message : String(err);
    process.stderr.write(JSON.stringify({ error: message }) + '\n');
    if (err instanceof UsageError) process.stderr.write(USAGE + '\n');
    return err instanceof UsageError ? 2 : 1;
  } finally {
    await ctx?.close().catch(() => undefined);
    await embedded?.stop().catch(() => undefined);
  }
}

main().then((code) => process.exit(code));

function isRole(value: string): value is Role {
  return (ROLES as readonly string[]).includes(value);
}
