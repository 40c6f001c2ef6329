// `npm start` on a fresh clone must work without a separate build step: build once if dist/ is missing
// or older than the sources (the service from src/, the operator console from console/ and the typed
// client it uses).
import { execSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..');
function newest(dir) {
  let t = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    t = Math.max(t, e.isDirectory() ? newest(p) : statSync(p).mtimeMs);
  }
  return t;
}
const stale = (file, ...sources) =>
  !existsSync(file) || statSync(file).mtimeMs < Math.max(...sources.map((s) => newest(s)));

const main = join(root, 'dist', 'main.js');
if (stale(main, join(root, 'src'))) {
  console.error('Building (dist/ is missing or older than src/) ...');
  // `npm run build`: the service, bundled, then the console (nest build empties dist/ first).
  execSync('npx nest build && node scripts/bundle-service.js && node console/build.js', {
    cwd: root,
    stdio: 'inherit',
  });
}
const consoleIndex = join(root, 'dist', 'console', 'index.html');
if (
  stale(consoleIndex, join(root, 'console', 'src'), join(root, 'console', 'static'), join(root, 'clients', 'typescript', 'src'))
) {
  console.error('Building the operator console (dist/console is missing or older than console/) ...');
  execSync('node console/build.js', { cwd: root, stdio: 'inherit' });
}
