// Run by docker/Dockerfile before `npm prune --omit=dev`. The image is the app, not the package: what
// the package leaves to its host as peer dependencies (Nest, TypeORM, class-validator, ...) and the
// optional provider SDKs are the app's own dependencies, at the exact versions the lock file installed
// (the devDependencies that `npm ci` put in node_modules). npm counts a name that is both a peer and a
// dev dependency of the root as dev only, so without this the prune would remove them.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const path = join(import.meta.dirname, '..', 'package.json');
const manifest = JSON.parse(readFileSync(path, 'utf8'));
for (const name of Object.keys(manifest.peerDependencies ?? {})) {
  const locked = manifest.devDependencies?.[name];
  if (!locked) throw new Error(`peer dependency ${name} has no devDependency version to install`);
  manifest.dependencies[name] = locked;
  delete manifest.devDependencies[name];
}
delete manifest.peerDependencies;
delete manifest.peerDependenciesMeta;
writeFileSync(path, `${JSON.stringify(manifest, null, 2)}\n`);
console.log(`image dependencies: ${Object.keys(manifest.dependencies).length} packages`);
