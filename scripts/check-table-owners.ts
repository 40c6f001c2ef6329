/**
 * One module owns each table: only its own files write it. dependency-cruiser sees imports, not SQL,
 * so `npm run depcruise` runs this too. It reads the owners from the "Tables and their owners" table of
 * docs/architecture.md and fails on any statement in `src/**\/*.ts` that inserts into, updates,
 * deletes from, merges into, truncates or copies into a table from a file outside its owner's
 * `src/modules/<owner>/` folder. Migrations (the schema's history) and spec files (tests seed rows
 * directly) are not service code and are not scanned.
 *
 *   node --import ./scripts/register-ts.js scripts/check-table-owners.ts
 */
import { Dirent, readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface TableWrite {
  file: string;
  line: number;
  table: string;
  statement: string;
}

/** `table -> owning module`, from the rows `| \`table\` | \`module\` | ...` under the heading. */
export function tableOwners(architectureDoc: string): Map<string, string> {
  const section = architectureDoc.split(/^## Tables and their owners$/m)[1];
  if (section === undefined)
    throw new Error('docs/architecture.md has no "## Tables and their owners"');
  const owners = new Map<string, string>();
  for (const line of section.split(/^## /m)[0].split('\n')) {
    const row = /^\|\s*`([a-z_][a-z0-9_]*)`\s*\|\s*`([a-z-]+)`\s*\|/.exec(line);
    if (row) owners.set(row[1], row[2]);
  }
  if (owners.size === 0) throw new Error('the "Tables and their owners" table lists no table');
  return owners;
}

/**
 * Every write statement in `source` to one of the listed tables. Keywords in any case, an optional
 * `public.` schema and a quoted name are all caught; a table name is a whole word (`targets` is not
 * `targets_x`).
 */
export function tableWrites(file: string, source: string, tables: Set<string>): TableWrite[] {
  const writes: TableWrite[] = [];
  const statement =
    /\b(INSERT\s+INTO|UPDATE|DELETE\s+FROM|MERGE\s+INTO|TRUNCATE(?:\s+TABLE)?|COPY)\s+(?:ONLY\s+)?(?:"?public"?\.)?"?([a-z_][a-z0-9_]*)"?(?![a-z0-9_])/gi;
  for (const m of source.matchAll(statement)) {
    const table = m[2].toLowerCase();
    if (!tables.has(table)) continue;
    const line = source.slice(0, m.index).split('\n').length;
    writes.push({ file, line, table, statement: m[1].replace(/\s+/g, ' ').toUpperCase() });
  }
  return writes;
}

/** The module a source file belongs to (`src/modules/<name>/...`), or null for shared code. */
export function moduleOf(file: string): string | null {
  return /^src\/modules\/([^/]+)\//.exec(file)?.[1] ?? null;
}

/** The writes of `files` (path relative to the root -> source) to tables their module does not own. */
export function ownershipViolations(
  files: Iterable<[string, string]>,
  owners: Map<string, string>,
): TableWrite[] {
  const tables = new Set(owners.keys());
  const violations: TableWrite[] = [];
  for (const [file, source] of files) {
    for (const write of tableWrites(file, source, tables)) {
      if (moduleOf(file) !== owners.get(write.table)) violations.push(write);
    }
  }
  return violations;
}

/** The service's source files: `src/**\/*.ts` but migrations and specs. */
export function serviceSources(root: string): [string, string][] {
  return (readdirSync(join(root, 'src'), { recursive: true, withFileTypes: true }) as Dirent[])
    .filter((e) => e.isFile() && e.name.endsWith('.ts') && !e.name.endsWith('.spec.ts'))
    .map((e) => relative(root, join(e.parentPath, e.name)).split(sep).join('/'))
    .filter((f) => !f.startsWith('src/database/migrations/'))
    .map((f): [string, string] => [f, readFileSync(join(root, f), 'utf8')]);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const root = join(fileURLToPath(import.meta.url), '..', '..');
  const owners = tableOwners(readFileSync(join(root, 'docs', 'architecture.md'), 'utf8'));
  const violations = ownershipViolations(serviceSources(root), owners);
  for (const v of violations) {
    console.error(
      `${v.file}:${v.line}: ${v.statement} ${v.table}: \`${v.table}\` is owned by the ` +
        `${owners.get(v.table)} module (docs/architecture.md, "Tables and their owners"); ` +
        `write it through a port of that module`,
    );
  }
  if (violations.length > 0) process.exit(1);
  console.log(`table owners: ${owners.size} tables, no write from outside its owning module`);
}
