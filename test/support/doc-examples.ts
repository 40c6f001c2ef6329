import { readFileSync } from 'fs';
import { join } from 'path';

/**
 * The shell examples of the README and docs/*.md, read by the convention test/e2e/doc-examples.e2e-spec.ts
 * runs them by (the README's "Tests" tells writers):
 *
 * - Every ```bash (or ```sh) block is run, in the order of its document, in one bash per document.
 * - A ```json block right after it (only blank lines between) is what it prints: the JSON values its
 *   commands print, in order. A run block that prints something must be followed by one, and one that
 *   prints nothing must not.
 * - `<!-- doc-example: not run: <why> -->` on the line before a block: not run (a deploy, `npm ci`, a
 *   second service, a command needing a state the page cannot make).
 * - `<!-- doc-example: variables -->` before a block of `export NAME=<value>` lines: the variables the
 *   reader sets from what `npm start` prints. The test sets them from the service it starts.
 * - In shown output, `<...>` stands for what varies from run to run (PLACEHOLDERS).
 */
export interface ShellBlock {
  doc: string;
  /** The line of the opening fence, 1-based. */
  line: number;
  code: string;
  mode: 'run' | 'not run' | 'variables';
  /** The text of the ```json block that follows a run block, if any. */
  shown: string | null;
  shownLine: number | null;
}

const SHELL_LANGUAGES = new Set(['bash', 'sh', 'shell', 'console', 'zsh']);
const MARKER = /^<!--\s*doc-example:\s*(not run|variables)\b(.*?)-->\s*$/;
/** An unlabelled block that starts like a command line: it must say its language. */
const LOOKS_LIKE_SHELL = /^\s*(\$ |curl |npm |node |npx |export |docker |cat |[A-Z_]+=)/;

export function shellBlocks(root: string, doc: string): ShellBlock[] {
  const lines = readFileSync(join(root, doc), 'utf8').split('\n');
  const fences: { line: number; indent: string; lang: string; code: string; end: number }[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^(\s*)```(\S*)\s*$/.exec(lines[i]);
    if (!open) continue;
    const [, indent, lang] = open;
    const end = lines.findIndex((l, j) => j > i && l.trim() === '```');
    if (end < 0) throw new Error(`${doc}:${i + 1}: unclosed code fence`);
    fences.push({ line: i, indent, lang, code: lines.slice(i + 1, end).join('\n'), end });
    i = end;
  }
  const blocks: ShellBlock[] = [];
  fences.forEach((fence, n) => {
    const shell = SHELL_LANGUAGES.has(fence.lang);
    if (!shell) {
      const first = fence.code.split('\n').find((l) => l.trim() && !l.trim().startsWith('#'));
      if (fence.lang === '' && first && LOOKS_LIKE_SHELL.test(first)) {
        throw new Error(
          `${doc}:${fence.line + 1}: a block of commands without a language: label it bash`,
        );
      }
      return;
    }
    if (fence.lang !== 'bash' && fence.lang !== 'sh') {
      throw new Error(`${doc}:${fence.line + 1}: label shell examples bash (not ${fence.lang})`);
    }
    let above = fence.line - 1;
    while (above >= 0 && lines[above].trim() === '') above--;
    const comment = above >= 0 && lines[above].trim().startsWith('<!-- doc-example');
    const marker = comment ? MARKER.exec(lines[above].trim()) : null;
    if (comment && !marker) {
      throw new Error(`${doc}:${above + 1}: not a doc-example marker: ${lines[above].trim()}`);
    }
    if (marker?.[1] === 'not run' && !/^:\s*\S/.test(marker[2].trim() ? marker[2] : '')) {
      throw new Error(`${doc}:${above + 1}: say why: <!-- doc-example: not run: <why> -->`);
    }
    const next = fences[n + 1];
    const between = next ? lines.slice(fence.end + 1, next.line) : [];
    const shown =
      next && next.lang === 'json' && between.every((l) => l.trim() === '') ? next : null;
    blocks.push({
      doc,
      line: fence.line + 1,
      code: fence.code,
      mode: (marker?.[1] as ShellBlock['mode'] | undefined) ?? 'run',
      shown: shown ? shown.code : null,
      shownLine: shown ? shown.line + 1 : null,
    });
  });
  return blocks;
}

/** The names a variables block sets (`export NAME=...` lines; nothing else may be in it). */
export function variableNames(block: ShellBlock): string[] {
  return block.code
    .split('\n')
    .filter((l) => l.trim() && !l.trim().startsWith('#'))
    .map((l) => {
      const m = /^export ([A-Z_][A-Z0-9_]*)=/.exec(l.trim());
      if (!m)
        throw new Error(`${block.doc}:${block.line}: a variables block holds export lines only`);
      return m[1];
    });
}

/** The JSON values in `text`, one after another (as jq and several curls print them). */
export function jsonValues(text: string): unknown[] {
  const values: unknown[] = [];
  let i = 0;
  const skipSpace = () => {
    while (i < text.length && /\s/.test(text[i])) i++;
  };
  skipSpace();
  while (i < text.length) {
    const start = i;
    let depth = 0;
    let inString = false;
    for (; i < text.length; i++) {
      const c = text[i];
      if (inString) {
        if (c === '\\') i++;
        else if (c === '"') inString = false;
        if (!inString && depth === 0) {
          i++;
          break;
        }
        continue;
      }
      if (c === '"') inString = true;
      else if (c === '{' || c === '[') depth++;
      else if (c === '}' || c === ']') {
        depth--;
        if (depth === 0) {
          i++;
          break;
        }
      } else if (depth === 0 && /\s/.test(c)) break;
    }
    const piece = text.slice(start, i);
    try {
      values.push(JSON.parse(piece));
    } catch {
      throw new Error(`not JSON: ${piece.slice(0, 300)}`);
    }
    skipSpace();
  }
  return values;
}

/**
 * What a `<...>` in shown output stands for. A string made of placeholders and text matches a string
 * of that form; a string that is one placeholder also matches a number (ids of call logs, deliveries).
 */
const PLACEHOLDERS: Record<string, string> = {
  '<uuid>': '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}',
  '<timestamp>': '\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d(\\.\\d+)?(Z|[+-]\\d\\d:\\d\\d)',
};
const ANY = '.+?';
const PLACEHOLDER = /<[a-z][a-z0-9 _-]*>/g;

function placeholderPattern(shown: string): RegExp | null {
  if (!PLACEHOLDER.test(shown)) return null;
  PLACEHOLDER.lastIndex = 0;
  let pattern = '';
  let last = 0;
  for (const m of shown.matchAll(PLACEHOLDER)) {
    pattern += escape(shown.slice(last, m.index)) + (PLACEHOLDERS[m[0]] ?? ANY);
    last = m.index + m[0].length;
  }
  return new RegExp(`^${pattern}${escape(shown.slice(last))}$`, 's');
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * `shown` with each placeholder that matches `actual` replaced by the actual value, so that
 * `expect(actual).toEqual(resolve(shown, actual))` compares whole bodies and reports every other
 * difference (a placeholder that does not match stays, and shows in the diff).
 */
export function resolvePlaceholders(shown: unknown, actual: unknown): unknown {
  if (typeof shown === 'string') {
    const pattern = placeholderPattern(shown);
    if (!pattern) return shown;
    const whole = shown.match(PLACEHOLDER)?.[0] === shown;
    if (typeof actual === 'string' && pattern.test(actual)) return actual;
    if (whole && typeof actual === 'number' && !(shown in PLACEHOLDERS)) return actual;
    return shown;
  }
  if (Array.isArray(shown)) {
    return shown.map((v, i) =>
      resolvePlaceholders(v, Array.isArray(actual) ? actual[i] : undefined),
    );
  }
  if (shown && typeof shown === 'object') {
    const a = (actual && typeof actual === 'object' ? actual : {}) as Record<string, unknown>;
    return Object.fromEntries(
      Object.entries(shown).map(([k, v]) => [k, resolvePlaceholders(v, a[k])]),
    );
  }
  return shown;
}
