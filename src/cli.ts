import 'reflect-metadata';
import { DynamicModule, Global, INestApplicationContext, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { AppConfig, loadConfig } from './config/app-config';
import { dataSourceOptions } from './database/data-source.options';
import { EmbeddedPostgres } from './database/embedded-postgres';
import { runMigrationsLocked } from './database/migrations-runner';
import { OrganizationModule } from './modules/organization/organization.module';
import { OrganizationService } from './modules/organization/application/organization.service';

const USAGE = `Usage: npm run cli -- <command> [options]   (every command prints JSON)
  org:create --name <name>                 create an organization
  org:list                                 list organizations
  apikey:create --org <organization id> [--name <label>]
                                           issue an API key (the key is shown once)
  apikey:list --org <organization id>      list an organization's keys (never the keys themselves)
  apikey:revoke <api key id>               revoke a key
  migration:run                            apply pending database migrations
The database is DATABASE_URL's, as for the service (default: embedded PGlite in ./.data/pglite).`;

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
      providers: [{ provide: AppConfig, useValue: config }],
      exports: [AppConfig],
    };
  }
}

function option(args: string[], name: string): string | undefined {
  const at = args.indexOf(`--${name}`);
  return at >= 0 ? args[at + 1] : undefined;
}

function required(args: string[], name: string): string {
  const value = option(args, name);
  if (!value) throw new UsageError(`--${name} is required`);
  return value;
}

class UsageError extends Error {}

async function run(
  command: string,
  args: string[],
  ctx: INestApplicationContext,
): Promise<unknown> {
  const organizations = ctx.get(OrganizationService);
  switch (command) {
    case 'org:create': {
      const o = await organizations.createOrganization(required(args, 'name'));
      return { id: o.id, name: o.name, created_at: o.createdAt.toISOString() };
    }
    case 'org:list':
      return (await organizations.listOrganizations()).map((o) => ({
        id: o.id,
        name: o.name,
        created_at: o.createdAt.toISOString(),
      }));
    case 'apikey:create': {
      const k = await organizations.createApiKey(
        required(args, 'org'),
        option(args, 'name') ?? 'cli',
      );
      return {
        id: k.id,
        organization_id: k.organizationId,
        name: k.name,
        key: k.key,
        created_at: k.createdAt.toISOString(),
      };
    }
    case 'apikey:list':
      return (await organizations.listApiKeys(required(args, 'org'))).map((k) => ({
        id: k.id,
        name: k.name,
        key_prefix: k.keyPrefix,
        created_at: k.createdAt.toISOString(),
        revoked_at: k.revokedAt?.toISOString() ?? null,
      }));
    case 'apikey:revoke': {
      const id = args[0];
      if (!id) throw new UsageError('apikey:revoke takes the API key id');
      await organizations.revokeApiKey(id);
      return { id, revoked: true };
    }
    case 'migration:run': {
      const rows = await ctx
        .get(DataSource)
        .query('SELECT name FROM schema_migrations ORDER BY id');
      return { applied: appliedAtConnect, schema: rows.map((r: { name: string }) => r.name) };
    }
    default:
      throw new UsageError(command ? `unknown command "${command}"` : 'no command given');
  }
}

async function main(): Promise<number> {
  const [command, ...args] = process.argv.slice(2);
  if (!command || command === '--help' || command === 'help') {
    process.stdout.write(USAGE + '\n');
    return command ? 0 : 2;
  }
  const config = loadConfig({ ...process.env, DEMO_SEED: 'false' });
  const database = config.get('database');
  const embedded =
    database.kind === 'pglite' ? await EmbeddedPostgres.start(database.dataDir) : null;
  const url = embedded?.url ?? (database as { url: string }).url;
  let ctx: INestApplicationContext | undefined;
  try {
    ctx = await NestFactory.createApplicationContext(CliModule.forRoot(config, url), {
      logger: ['error'],
    });
    const result = await run(command, args, ctx);
    process.stdout.write(JSON.stringify(result, null, 2) + '\n');
    return 0;
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    process.stderr.write(JSON.stringify({ error: message }) + '\n');
    if (err instanceof UsageError) process.stderr.write(USAGE + '\n');
    return err instanceof UsageError ? 2 : 1;
  } finally {
    await ctx?.close();
    await embedded?.stop();
  }
}

main().then((code) => process.exit(code));
