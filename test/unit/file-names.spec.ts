import { readdirSync, readFileSync } from 'fs';
import { join, relative } from 'path';

/**
 * A file's name says what it holds: a file that exports one class (errors aside) is named after it,
 * its words in any order (`call-event-ingestion.ts` holds `CallEventIngestion`,
 * `target-repository.sql.ts` holds `SqlTargetRepository`: the technique is a prefix of the class and
 * a suffix of the file). DTO files gather a route's classes and migrations are named for their
 * change, so neither is held to it.
 */
/** Files named for more than their one class, and what they hold. */
const NAMED_FOR_MORE: Record<string, string> = {
  'src/database/trigger-definitions.ts':
    'every table’s trigger definitions, beside the base class of the migrations that install them',
};

const repo = join(import.meta.dirname, '..', '..');
const src = join(repo, 'src');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'migrations' ? [] : sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.spec.ts') ? [path] : [];
  });
}

const wordsOfFile = (name: string) =>
  name
    .replace(/\.ts$/, '')
    .split(/[.-]/)
    .flatMap((word) => (word === 'typeorm' ? ['type', 'orm'] : [word]));
const wordsOfClass = (name: string) =>
  (name.match(/[A-Z]+(?![a-z])|[A-Z]?[a-z]+|\d+/g) ?? []).map((word) => word.toLowerCase());
const sameWords = (a: string[], b: string[]) => [...a].sort().join() === [...b].sort().join();

describe('file names', () => {
  it('name the class a file holds', () => {
    const misnamed = sourceFiles(src)
      .filter((path) => !path.endsWith('.dto.ts') && !(relative(repo, path) in NAMED_FOR_MORE))
      .flatMap((path) => {
        const classes = [
          ...readFileSync(path, 'utf8').matchAll(/^export (?:abstract )?class (\w+)/gm),
        ]
          .map((m) => m[1])
          .filter((name) => !name.endsWith('Error'));
        const file = wordsOfFile(path.split('/').pop()!);
        // A file of several classes gathers them (a module's fakes, a route's DTOs): named for the set.
        if (classes.length !== 1 || sameWords(wordsOfClass(classes[0]), file)) return [];
        return [`${relative(repo, path)}: ${classes.join(', ')}`];
      });
    expect(misnamed).toEqual([]);
  });
});
