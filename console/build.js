// Builds the operator console into dist/console/ (served by the service at /console):
// 1. tsc compiles console/src (TypeScript + JSX for Preact) and the typed client it uses into ES modules;
// 2. the browser copies of Preact and openapi-fetch are vendored from node_modules into dist/console/vendor;
// 3. bare imports ("preact", "openapi-fetch", ...) are rewritten to those files' URLs.
// No bundler (and so no native binaries), no CDN: every asset is served by the service itself.
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync, statSync } from 'node:fs';
import { join, relative, dirname, posix } from 'node:path';

const root = join(import.meta.dirname, '..');
const out = join(root, 'dist', 'console');
const modules = join(root, 'node_modules');

/** Bare specifier -> [file in node_modules, name in vendor/]. */
const VENDOR = {
  preact: ['preact/dist/preact.mjs', 'preact.mjs'],
  'preact/hooks': ['preact/hooks/dist/hooks.mjs', 'preact-hooks.mjs'],
  'preact/jsx-runtime': ['preact/jsx-runtime/dist/jsxRuntime.mjs', 'preact-jsx-runtime.mjs'],
  'openapi-fetch': ['openapi-fetch/dist/index.mjs', 'openapi-fetch.mjs'],
};

function files(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? files(join(dir, e.name)) : [join(dir, e.name)],
  );
}

/** Rewrites `from "x"` / `import "x"` of the vendored packages to relative URLs from `file`. */
function rewriteImports(file) {
  const source = readFileSync(file, 'utf8');
  const names = Object.keys(VENDOR)
    .map((n) => n.replace(/[/-]/g, '\\$&'))
    .join('|');
  const specifier = new RegExp(`(\\b(?:from|import)\\s*\\(?\\s*)(["'])(${names})\\2`, 'g');
  const rewritten = source.replace(specifier, (_match, lead, quote, spec) => {
    let url = posix.normalize(
      relative(dirname(file), join(out, 'vendor', VENDOR[spec][1])).split('\\').join('/'),
    );
    if (!url.startsWith('.')) url = `./${url}`;
    return `${lead}${quote}${url}${quote}`;
  });
  // Any other bare specifier in an import or export statement would fail in the browser.
  const unresolved = [
    ...rewritten.matchAll(/\b(?:import|export)\b[^'";]*?\bfrom\s*["']([^"'./][^"']*)["']/g),
  ].map((m) => m[1]);
  if (unresolved.length) throw new Error(`${file}: bare imports left: ${unresolved.join(', ')}`);
  if (rewritten !== source) writeFileSync(file, rewritten);
}

rmSync(out, { recursive: true, force: true });
mkdirSync(join(out, 'vendor'), { recursive: true });
execFileSync(process.execPath, [join(modules, 'typescript', 'bin', 'tsc'), '-p', join(import.meta.dirname, 'tsconfig.json')], {
  stdio: 'inherit',
});
for (const [from, name] of Object.values(VENDOR)) cpSync(join(modules, from), join(out, 'vendor', name));
cpSync(join(import.meta.dirname, 'static'), out, { recursive: true });
for (const file of files(out)) if (/\.m?js$/.test(file)) rewriteImports(file);
writeFileSync(join(out, 'build-info.json'), JSON.stringify({ builtAt: new Date().toISOString() }) + '\n');
const size = files(out).reduce((n, f) => n + statSync(f).size, 0);
console.log(`console built into ${relative(root, out)} (${Math.round(size / 1024)} KiB)`);
