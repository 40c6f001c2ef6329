// Runs this repository's TypeScript (src/, bench/, scripts/) on Node without a build, as the tests' child
// processes and the benchmarks do: `node --import ./scripts/register-ts.js src/main.ts`.
//
// Neither Node's own type stripping nor an esbuild-based runner (tsx) can run it: Nest's dependency
// injection needs the decorator metadata (`emitDecoratorMetadata`) that neither emits (the tests
// themselves run on Vite's transform, which does). So each .ts file is transpiled alone with
// TypeScript's `transpileModule` and the project's compiler options, and a relative `./x.js` import from a .ts file
// resolves to `./x.ts` when no .js file is there (the specifiers `nodenext` asks us to write).
// Child processes start often in the tests (a worker, the CLI, a PGlite server per test database), each
// importing hundreds of the same files: so each file's output is cached on disk under
// node_modules/.cache/register-ts, keyed by its path and source, tsconfig.json, this file and the
// TypeScript version. A cache hit does not load TypeScript at all.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire, registerHooks } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const cacheDir = join(root, 'node_modules', '.cache', 'register-ts');
const cacheSalt = [
  readFileSync(fileURLToPath(import.meta.url), 'utf8'),
  readFileSync(join(root, 'tsconfig.json'), 'utf8'),
  readFileSync(require.resolve('typescript/package.json'), 'utf8'),
].join('\0');

let transpiler;
/** TypeScript and the project's compiler options, loaded on the first cache miss. */
function transpile(source, fileName) {
  if (!transpiler) {
    const ts = require('typescript');
    const { config } = ts.readConfigFile(join(root, 'tsconfig.json'), ts.sys.readFile);
    const { options } = ts.convertCompilerOptionsFromJson(config.compilerOptions, root);
    const compilerOptions = {
      ...options,
      // Every file here is an ES module (package.json "type": "module").
      module: ts.ModuleKind.ESNext,
      sourceMap: false,
      inlineSourceMap: true,
      inlineSources: true,
      declaration: false,
    };
    transpiler = (text, file) => ts.transpileModule(text, { compilerOptions, fileName: file }).outputText;
  }
  return transpiler(source, fileName);
}

function cachedTranspile(fileName) {
  const source = readFileSync(fileName, 'utf8');
  const key = createHash('sha256').update(cacheSalt).update('\0').update(fileName).update('\0').update(source);
  const cached = join(cacheDir, `${key.digest('hex')}.js`);
  try {
    return readFileSync(cached, 'utf8');
  } catch {
    // not cached yet
  }
  const output = transpile(source, fileName);
  try {
    // Written aside, then renamed: a process reading the cache sees the whole file or none.
    mkdirSync(cacheDir, { recursive: true });
    const partial = `${cached}.${process.pid}.tmp`;
    writeFileSync(partial, output);
    renameSync(partial, cached);
  } catch {
    // A cache that cannot be written (read-only checkout) only costs the next process the transpile.
  }
  return output;
}

registerHooks({
  resolve(specifier, context, nextResolve) {
    const fromTs = context.parentURL?.startsWith('file:') && context.parentURL.endsWith('.ts');
    if (fromTs && /^\.{1,2}\/.*\.js$/.test(specifier)) {
      const js = new URL(specifier, context.parentURL);
      if (!existsSync(js)) return nextResolve(specifier.replace(/\.js$/, '.ts'), context);
    }
    return nextResolve(specifier, context);
  },
  load(url, context, nextLoad) {
    if (!url.startsWith('file:') || !url.endsWith('.ts') || url.includes('/node_modules/')) {
      return nextLoad(url, context);
    }
    const source = cachedTranspile(fileURLToPath(url));
    return { format: 'module', source, shortCircuit: true };
  },
});
