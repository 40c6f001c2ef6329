// `npm start` on a fresh clone must work without a separate build step: build once if dist/ is missing
// or older than the sources (the service from src/, the operator console from console/ and the typed
// client it uses).
import { execSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

const root = join(import.meta.dirname, '..');

// Test files running at once on parallel workers (the built service's, the browser's) may both find
// dist/ stale: one builds while the others wait for it, then find dist/ fresh. Two builds at once would
// each empty dist/ under the other (`nest build` deletes its output directory first).
const lock = join(root, 'node_modules', '.cache', 'ensure-built.lock');
function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return err.code === 'EPERM';
  }
}
function acquireLock() {
  mkdirSync(dirname(lock), { recursive: true });
  for (;;) {
    try {
      writeFileSync(lock, String(process.pid), { flag: 'wx' });
      return;
    } catch (err) {
      if (err.code !== 'EEXIST') throw err;
    }
    // A holder killed mid-build leaves its file behind. (An empty file is one being written.)
    let holder = 0;
    try {
      holder = Number(readFileSync(lock, 'utf8'));
    } catch (err) {
      if (err.code === 'ENOENT') continue;
      throw err;
    }
    if (holder > 0 && !alive(holder)) rmSync(lock, { force: true });
    else Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 250);
  }
}
acquireLock();
process.on('exit', () => rmSync(lock, { force: true }));

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
