// Bundles the compiled service (dist/service-main.js, which `dist/main.js` imports once V8's compile cache
// is on) into that one file, in place. Run by `npm run build` after `nest build`.
//
// Why: as ES modules the service loads about 3,000 files at start, and Node's ES module loader
// (resolving, `stat`s, package.json reads, one module record each) costs more than compiling them.
// Our ~280 files and @nestjs/swagger with the whole of `es-toolkit/compat` (about 530 files) become one.
//
// What stays a separate package, imported from node_modules as before (everything not listed in
// INLINE): a package that another package also imports, or that a library loads by a computed name
// (@nestjs/terminus imports `typeorm` and `@nestjs/typeorm` so; TypeORM requires `pg` so), must be one
// copy for everyone; and some find files next to their own (PGlite's wasm and data, pino's transports,
// swagger-ui-dist's assets). The packages inlined are imported by nothing else and read no file of
// their own (@nestjs/swagger finds swagger-ui-dist, and @nestjs/mapped-types class-validator, through
// `createRequire(import.meta.url)`, which resolves from dist/ to the same node_modules).
//
// tsc has already emitted the decorator metadata (`design:paramtypes`), so bundling keeps dependency
// injection as it is; keepNames keeps class names, which Nest logs and the OpenAPI schemas are named by.
// dist/cli.js and the other compiled files stay as they are (the CLI imports them).
import { build } from 'esbuild';
import { join } from 'node:path';

const INLINE = new Set(['@nestjs/swagger', 'es-toolkit']);

const root = join(import.meta.dirname, '..');
const entry = join(root, 'dist', 'service-main.js');
/** `@scope/name/sub/path` -> `@scope/name`; `name/sub` -> `name`. */
const packageOf = (specifier) =>
  specifier.split('/').slice(0, specifier.startsWith('@') ? 2 : 1).join('/');

await build({
  entryPoints: [entry],
  outfile: entry,
  allowOverwrite: true,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node24',
  keepNames: true,
  // Maps to src/ through the source maps tsc wrote (for `node --enable-source-maps`).
  sourcemap: 'linked',
  logLevel: 'warning',
  plugins: [
    {
      name: 'external-packages',
      setup(b) {
        b.onResolve({ filter: /^[^./]/ }, ({ path }) =>
          INLINE.has(packageOf(path)) ? undefined : { path, external: true },
        );
      },
    },
  ],
});
