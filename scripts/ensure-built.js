// `npm start` on a fresh clone must work without a separate build step: build once if dist/ is missing
// or older than the sources.
const { existsSync, statSync, readdirSync } = require('fs');
const { join } = require('path');
const { execSync } = require('child_process');

const root = join(__dirname, '..');
function newest(dir) {
  let t = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    t = Math.max(t, e.isDirectory() ? newest(p) : statSync(p).mtimeMs);
  }
  return t;
}
const main = join(root, 'dist', 'main.js');
if (!existsSync(main) || statSync(main).mtimeMs < newest(join(root, 'src'))) {
  console.error('Building (dist/ is missing or older than src/) ...');
  execSync('npx nest build', { cwd: root, stdio: 'inherit' });
}
