// Runs this repository's TypeScript (src/, bench/, scripts/) on Node without a build, as the tests' child
// processes and the benchmarks do: `node --import ./scripts/register-ts.js src/main.ts`.
//
// Neither Node's own type stripping nor an esbuild-based runner (tsx) can run it: Nest's dependency
// injection needs the decorator metadata (`emitDecoratorMetadata`) that only the TypeScript compiler
// emits. So each .ts file is transpiled alone with TypeScript's `transpileModule` and the project's
// compiler options (as ts-jest does for the tests), and a relative `./x.js` import from a .ts file
// resolves to `./x.ts` when no .js file is there (the specifiers `nodenext` asks us to write).
import { existsSync, readFileSync } from 'node:fs';
import { registerHooks } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
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
    const fileName = fileURLToPath(url);
    const { outputText } = ts.transpileModule(readFileSync(fileName, 'utf8'), {
      compilerOptions,
      fileName,
    });
    return { format: 'module', source: outputText, shortCircuit: true };
  },
});
