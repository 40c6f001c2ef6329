// Checks what a packed tarball holds (`node scripts/check-package.js campaign-calling-service-x.y.z.tgz`):
// the build, its types, the README, the licence and docs/extending.md, every file package.json's
// `main`, `types` and `exports` point to; and nothing that is not the package: tests, benchmarks,
// source maps, TypeScript sources, the console's sources, scripts, examples. Prints the entries it
// objects to and exits 1; prints a one-line summary and exits 0 when the tarball is the package.
import { execFileSync } from 'node:child_process';

const tarball = process.argv[2];
if (!tarball) {
  console.error('usage: node scripts/check-package.js <tarball.tgz>');
  process.exit(2);
}

const entries = execFileSync('tar', ['-tzf', tarball], { encoding: 'utf8', maxBuffer: 64 << 20 })
  .split('\n')
  .filter((line) => line && !line.endsWith('/'))
  // npm packs everything under `package/`.
  .map((line) => line.replace(/^package\//, ''));
const present = new Set(entries);
const manifest = JSON.parse(
  execFileSync('tar', ['-xzOf', tarball, 'package/package.json'], { encoding: 'utf8' }),
);

/** Every file an `exports` entry (or `main`, `types`) names, as a path inside the package. */
function exportTargets(value) {
  if (typeof value === 'string') return [value];
  if (value && typeof value === 'object') return Object.values(value).flatMap(exportTargets);
  return [];
}
const required = new Set([
  'package.json',
  'README.md',
  'LICENSE',
  'docs/extending.md',
  // The service itself (`startService`, the CLI) and the library's two entries with their types.
  'dist/main.js',
  'dist/service-main.js',
  'dist/cli.js',
  'dist/console/index.html',
  ...[manifest.main, manifest.types, ...exportTargets(manifest.exports)]
    .filter(Boolean)
    .map((p) => p.replace(/^\.\//, '')),
]);

const forbidden = [
  [/(^|\/)[^/]*\.(spec|e2e-spec|browser-spec|test)\.[cm]?[jt]sx?$/, 'a test'],
  [/(^|\/)(test|tests|__tests__|bench)\//, 'tests or benchmarks'],
  [/\.map$/, 'a source map'],
  [/(?<!\.d)\.[cm]?tsx?$/, 'a TypeScript source'],
  [/\.tsbuildinfo$/, 'a compiler cache'],
  [/^(src|console|scripts|examples|clients|docker|\.ci|\.github)\//, 'not part of the package'],
  [/(^|\/)\.env/, 'an environment file'],
  [/(^|\/)node_modules\//, 'an installed dependency'],
];

const problems = new Set();
for (const path of required) {
  if (!present.has(path)) problems.add(`missing: ${path}`);
}
// Each compiled module of the library has its declarations beside it.
for (const path of entries) {
  if (!path.startsWith('dist/') || !path.endsWith('.js')) continue;
  if (path.startsWith('dist/console/') || path === 'dist/service-main.js') continue; // browser code; a bundle
  const types = path.replace(/\.js$/, '.d.ts');
  if (!present.has(types) && !/\.(spec|e2e-spec|test)\.js$/.test(path))
    problems.add(`missing: ${types} (the types of ${path})`);
}
for (const path of entries) {
  for (const [pattern, what] of forbidden) {
    if (pattern.test(path)) {
      problems.add(`forbidden (${what}): ${path}`);
      break;
    }
  }
}

if (problems.size > 0) {
  console.error(`${tarball} is not the package (${entries.length} files):`);
  for (const p of problems) console.error(`  ${p}`);
  process.exit(1);
}
const js = entries.filter((p) => p.endsWith('.js')).length;
const dts = entries.filter((p) => p.endsWith('.d.ts')).length;
console.log(
  `${tarball}: ${entries.length} files (${js} .js, ${dts} .d.ts, README.md, LICENSE, docs/extending.md); ` +
    'no tests, benchmarks, source maps or sources',
);
