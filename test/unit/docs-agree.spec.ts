import { getMetadataStorage } from 'class-validator';
import { Dirent, existsSync, readdirSync, readFileSync } from 'fs';
import { join, relative } from 'path';
import { EnvVars } from '../../src/config/app-config.js';

/**
 * The docs name settings, routes and files a reader will look for: each must exist. A doc that
 * names a variable nothing reads, a route the service does not serve or a file that moved fails here.
 */
const ROOT = join(import.meta.dirname, '..', '..');
const read = (file: string) => readFileSync(join(ROOT, file), 'utf8');
const DOCS = ['README.md', ...readdirSync(join(ROOT, 'docs')).map((f) => `docs/${f}`)].filter((f) =>
  f.endsWith('.md'),
);

/** Every `code span` of every doc, with the doc it is in. */
const spans = DOCS.flatMap((doc) =>
  [...read(doc).matchAll(/`([^`\n]+)`/g)].map((m) => ({ doc, text: m[1] })),
);

/** The source, test, benchmark, script, Docker and example files, read directly (the unit project starts no child process). */
const FILES = ['src', 'test', 'bench', 'scripts', 'docker', 'examples'].flatMap((dir) =>
  (readdirSync(join(ROOT, dir), { recursive: true, withFileTypes: true }) as Dirent[])
    // An installed example's packages are not ours.
    .filter((e) => e.isFile() && !e.parentPath.includes('node_modules'))
    .map((e) => relative(ROOT, join(e.parentPath, e.name)))
    .filter((f) => /\.(ts|js|sh|yaml)$/.test(f)),
);

/**
 * What the service and its CLI read from the environment: EnvVars' properties (as class-validator
 * knows them), and the few variables `src/` reads directly (npm's own aside).
 */
const SETTINGS = new Set([
  ...getMetadataStorage()
    .getTargetValidationMetadatas(EnvVars, '', true, false)
    .map((m) => m.propertyName),
  ...FILES.filter((f) => f.startsWith('src/') && f.endsWith('.ts')).flatMap((f) =>
    [...read(f).matchAll(/process\.env\.([A-Z][A-Z0-9_]+)/g)].map((m) => m[1]),
  ),
]);

describe('the docs agree with the code', () => {
  it('.env.example lists every setting the service reads, and nothing else', () => {
    const listed = [...read('.env.example').matchAll(/^#?\s?([A-Z][A-Z0-9_]+)=/gm)].map(
      (m) => m[1],
    );
    expect([...new Set(listed)].sort()).toEqual([...SETTINGS].sort());
  });

  it('every setting-like name in the docs is read by the service, a script, a test or a benchmark', () => {
    // Names outside EnvVars: what bench/, test/, scripts/ and docker/ read, and the service's own
    // constants (outcomes, categories) that the docs quote.
    const elsewhere = FILES.map(read).join('\n');
    const unknown = spans
      // `XXX_COLUMNS` stands for any table's name.
      .filter(({ text }) => /^[A-Z][A-Z0-9]*_[A-Z0-9_]+$/.test(text) && !/XXX/.test(text))
      .filter(({ text }) => !SETTINGS.has(text))
      .filter(({ text }) => !new RegExp(`\\b${text}\\b`).test(elsewhere))
      .map(({ doc, text }) => `${doc}: ${text}`);
    expect(unknown).toEqual([]);
  });

  it('every route of the API the docs name is in openapi.json', () => {
    const document = JSON.parse(read('openapi.json')) as { paths: Record<string, object> };
    const served = Object.entries(document.paths).flatMap(([path, item]) =>
      Object.keys(item).map((method) => ({
        method: method.toUpperCase(),
        segments: path.split('/'),
      })),
    );
    // A concrete value (`/step/labs`) matches a parameter (`/step/{friendly_id}`).
    const matches = (method: string, path: string) =>
      served.some(
        (s) =>
          s.method === method &&
          s.segments.length === path.split('/').length &&
          path
            .split('/')
            .every((seg, i) => seg === s.segments[i] || /^\{.+\}$/.test(s.segments[i])),
      );
    const unknown = spans
      .map(({ doc, text }) => ({
        doc,
        m: /^(GET|POST|PUT|PATCH|DELETE) (\/api\/v1\/[^\s?]*)/.exec(text),
      }))
      .filter(({ m }) => m && !matches(m[1], m[2].replace(/[.,;:]$/, '')))
      .map(({ doc, m }) => `${doc}: ${m![1]} ${m![2]}`);
    expect(unknown).toEqual([]);
  });

  it("npm scripts run on the `node` dev dependency's Node, as the quick start's EBADENGINE note says", () => {
    // npm checks engines against the Node that runs npm; the packages run on this one.
    const pkg = JSON.parse(read('package.json')) as { devDependencies: Record<string, string> };
    expect(process.version).toBe(`v${pkg.devDependencies.node}`);
    expect(read('README.md')).toContain('`npm warn EBADENGINE Unsupported engine`');
  });

  it('every file path the docs name exists', () => {
    const missing = spans
      .map(({ doc, text }) => ({ doc, path: text.replace(/^\.\//, '').replace(/[:#].*$/, '') }))
      .filter(({ path }) =>
        /^(src|test|docs|scripts|bench|examples|console|docker|clients|\.ci)\/[\w./-]*$/.test(path),
      )
      .filter(({ path }) => !existsSync(join(ROOT, path)) && !existsSync(join(ROOT, 'docs', path)))
      .filter(({ path }) => !ignoredByGit(path))
      .map(({ doc, path }) => `${doc}: ${path}`);
    expect(missing).toEqual([]);
  });
});

/** What a run writes (listed in .gitignore as a folder) is absent from a fresh clone. */
function ignoredByGit(path: string): boolean {
  return read('.gitignore')
    .split('\n')
    .map((line) => line.trim().replace(/^\//, ''))
    .some((entry) => entry.endsWith('/') && path.startsWith(entry));
}
