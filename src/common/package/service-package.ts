import { readFileSync } from 'fs';
import { dirname, join } from 'path';

const NAME = 'campaign-calling-service';

/**
 * The service's own package: the directory holding its package.json (the repository root, or /app in
 * the image) and its version. Found by walking up from this file, whose depth differs between src/ (run
 * through the TypeScript loader), dist/ as tsc emits it, and dist/service-main.js, the bundle that
 * `npm start` runs (scripts/bundle-service.js).
 */
function findServicePackage(): { root: string; version: string } {
  for (let dir = import.meta.dirname; ; dir = dirname(dir)) {
    try {
      const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
      if (pkg.name === NAME) return { root: dir, version: String(pkg.version) };
    } catch {
      // no package.json here: keep looking upwards
    }
    if (dirname(dir) === dir) break;
  }
  return { root: process.cwd(), version: process.env.npm_package_version ?? '0.0.0' };
}

export const SERVICE_PACKAGE = findServicePackage();
