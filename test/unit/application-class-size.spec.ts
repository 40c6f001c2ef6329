import { readdirSync, readFileSync } from 'fs';
import { join, relative } from 'path';

/**
 * docs/architecture.md, "Rules we keep": an application class (a module's use cases, in
 * `src/modules/<name>/application/`, ports aside) stays under 400 lines and takes at most 8
 * collaborators; past either it holds more than one job, and is split where its jobs part.
 */
const MAX_LINES = 400;
const MAX_CONSTRUCTOR_PARAMETERS = 8;

const repo = join(import.meta.dirname, '..', '..');
const modules = join(repo, 'src', 'modules');

const applicationFiles = readdirSync(modules).flatMap((module) => {
  const dir = join(modules, module, 'application');
  let entries: string[];
  try {
    entries = readdirSync(dir);
  } catch {
    return [];
  }
  return entries
    .filter((name) => name.endsWith('.ts') && !name.endsWith('.spec.ts'))
    .map((name) => join(dir, name));
});

/** The text between the `(` at `open` and its matching `)`. */
function parenthesised(source: string, open: number): string {
  let depth = 0;
  for (let i = open; i < source.length; i++) {
    if ('([{<'.includes(source[i])) depth++;
    else if (')]}>'.includes(source[i]) && !(source[i] === '>' && source[i - 1] === '=')) depth--;
    if (depth === 0) return source.slice(open + 1, i);
  }
  throw new Error('unbalanced constructor');
}

/** The parameters of each constructor in `source`: its top-level commas, comments left out. */
function constructorParameterCounts(source: string): number[] {
  const code = source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/\/\/.*$/gm, '');
  return [...code.matchAll(/\bconstructor\s*\(/g)].map((m) => {
    const params = parenthesised(code, m.index + m[0].length - 1);
    let depth = 0;
    let count = params.trim() === '' ? 0 : 1;
    for (let i = 0; i < params.length; i++) {
      const c = params[i];
      if ('([{<'.includes(c)) depth++;
      else if (')]}'.includes(c) || (c === '>' && params[i - 1] !== '=')) depth--;
      else if (c === ',' && depth === 0 && params.slice(i + 1).trim() !== '') count++;
    }
    return count;
  });
}

describe('application classes', () => {
  it('finds the application files, and counts parameters as written', () => {
    expect(applicationFiles.length).toBeGreaterThan(40);
    expect(
      constructorParameterCounts(`class A {
        constructor(
          private readonly a: Map<string, number>, // one
          @Optional() private readonly b?: (x: number, y: number) => void,
          private readonly c: { d: number; e: string } = { d: 1, e: 'f' },
        ) {}
      }`),
    ).toEqual([3]);
  });

  it(`are at most ${MAX_LINES} lines and take at most ${MAX_CONSTRUCTOR_PARAMETERS} collaborators`, () => {
    const over = applicationFiles.flatMap((path) => {
      const source = readFileSync(path, 'utf8');
      const lines = source.split('\n').length - (source.endsWith('\n') ? 1 : 0);
      const widest = Math.max(0, ...constructorParameterCounts(source));
      return lines > MAX_LINES || widest > MAX_CONSTRUCTOR_PARAMETERS
        ? [`${relative(repo, path)}: ${lines} lines, ${widest} constructor parameters`]
        : [];
    });
    expect(over).toEqual([]);
  });
});
