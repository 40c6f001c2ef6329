/**
 * Keeps the TypeScript examples of the docs true (`npm run typecheck` runs it).
 *
 * docs/extending.md: every ```ts block is a file of a consumer project (examples/nest-esm-vitest), or a
 * `// #region <name>` of one, named by the comment line before the block:
 * `<!-- example: examples/nest-esm-vitest/src/app.module.ts -->` (the whole file) or
 * `<!-- example: examples/nest-esm-vitest/src/acme/acme-carrier.ts#voice-provider -->` (a region). The
 * block must be that text, exactly (`--write` copies the files into the doc); the project compiles and
 * runs it (its typecheck and tests, in .ci/run). The CommonJS project (examples/nest-cjs-jest) holds the
 * same sources, its relative imports without `.js`: checked here too.
 *
 * README.md: every ```ts block is compiled as a module of its own against the package's sources, the
 * way a reader would paste it into a project that installed the package.
 *
 * - `campaign-calling-service` and `campaign-calling-service/testing` resolve to `src/index.ts` and
 *   `src/testing/index.ts`, so an example can only use what the package exports.
 * - A block that uses an exported name without importing it (a fragment such as
 *   `class X extends PreDialCheck`) gets it imported, as the text around it says where it comes from.
 * - Names a block takes from another block of the same document, and the reader's own code the docs
 *   leave out (READER_NAMES), are declared as `any`. Any other unknown name fails: a renamed or
 *   removed export, a wrong constructor or method signature, all fail here.
 *
 *   node --import ./scripts/register-ts.js scripts/check-doc-examples.ts
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';

const ROOT = join(import.meta.dirname, '..');
const DOCS = ['README.md'];
const CONSUMER_DOC = 'docs/extending.md';
const ESM_PROJECT = 'examples/nest-esm-vitest';
const CJS_PROJECT = 'examples/nest-cjs-jest';
const ENTRIES = {
  'campaign-calling-service': join(ROOT, 'src/index.ts'),
  'campaign-calling-service/testing': join(ROOT, 'src/testing/index.ts'),
};
/** What the examples stand for but do not show: the reader's own classes and clients. */
const READER_NAMES = [
  'MyWebhookSender',
  'SignedOutboundSender',
  'OfficeClock',
  'BellCallProvider',
  'AcmeCallProvider',
  'acme',
  'ConsentClient',
  'EhrClient',
  'AuditTrail',
];

interface Example {
  doc: string;
  line: number;
  code: string;
}

function examples(doc: string): Example[] {
  const lines = readFileSync(join(ROOT, doc), 'utf8').split('\n');
  const found: Example[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (lines[i].trim() !== '```ts') continue;
    const end = lines.findIndex((l, j) => j > i && l.trim() === '```');
    found.push({ doc, line: i + 1, code: lines.slice(i + 1, end).join('\n') });
    i = end;
  }
  return found;
}

/** The names a block declares or imports at its top level. */
function topLevelNames(code: string): Set<string> {
  const file = ts.createSourceFile('x.ts', code, ts.ScriptTarget.Latest);
  const names = new Set<string>();
  const bind = (name: ts.BindingName) => {
    if (ts.isIdentifier(name)) names.add(name.text);
    else for (const e of name.elements) if (!ts.isOmittedExpression(e)) bind(e.name);
  };
  for (const s of file.statements) {
    if ((ts.isClassDeclaration(s) || ts.isFunctionDeclaration(s)) && s.name) names.add(s.name.text);
    if (ts.isInterfaceDeclaration(s) || ts.isTypeAliasDeclaration(s)) names.add(s.name.text);
    if (ts.isVariableStatement(s)) for (const d of s.declarationList.declarations) bind(d.name);
    if (ts.isImportDeclaration(s) && s.importClause) {
      const c = s.importClause;
      if (c.name) names.add(c.name.text);
      if (c.namedBindings && ts.isNamespaceImport(c.namedBindings)) names.add(c.namedBindings.name.text);
      if (c.namedBindings && ts.isNamedImports(c.namedBindings))
        for (const e of c.namedBindings.elements) names.add(e.name.text);
    }
  }
  return names;
}

function identifiers(code: string): Set<string> {
  const names = new Set<string>();
  const visit = (node: ts.Node): void => {
    if (ts.isIdentifier(node)) names.add(node.text);
    ts.forEachChild(node, visit);
  };
  visit(ts.createSourceFile('x.ts', code, ts.ScriptTarget.Latest));
  return names;
}

/** A region's lines (`// #region name` to `// #endregion name`), dedented; the whole file without one. */
function exampleText(source: string): string {
  const [file, region] = source.split('#');
  const text = readFileSync(join(ROOT, file), 'utf8');
  if (!region) return text.trimEnd();
  const lines = text.split('\n');
  const start = lines.findIndex((l) => l.trim() === `// #region ${region}`);
  const end = lines.findIndex((l, i) => i > start && l.trim() === `// #endregion ${region}`);
  if (start < 0 || end < 0) throw new Error(`${file}: no region ${region}`);
  const body = lines.slice(start + 1, end);
  const indent = Math.min(...body.filter((l) => l.trim()).map((l) => /^ */.exec(l)![0].length));
  return body.map((l) => l.slice(indent)).join('\n').trimEnd();
}

/** docs/extending.md's blocks against the consumer project's files; with `write`, copied into it. */
function checkConsumerDoc(write: boolean): number {
  const lines = readFileSync(join(ROOT, CONSUMER_DOC), 'utf8').split('\n');
  let failures = 0;
  let blocks = 0;
  for (let i = 0; i < lines.length; i++) {
    if (lines[i].trim() !== '```ts') continue;
    const end = lines.findIndex((l, j) => j > i && l.trim() === '```');
    blocks++;
    const marker = /^<!-- example: (\S+) -->$/.exec(lines[i - 1]?.trim() ?? '');
    if (!marker) {
      failures++;
      console.error(
        `${CONSUMER_DOC}:${i + 1}: a ts block must be a file of ${ESM_PROJECT}: put <!-- example: ${ESM_PROJECT}/<file>[#region] --> before it`,
      );
    } else {
      const expected = exampleText(marker[1]);
      if (lines.slice(i + 1, end).join('\n').trimEnd() !== expected) {
        if (write) {
          lines.splice(i + 1, end - i - 1, ...expected.split('\n'));
          i += expected.split('\n').length;
          continue;
        }
        failures++;
        console.error(
          `${CONSUMER_DOC}:${i + 1}: the block is not ${marker[1]} as it is (npm run typecheck:docs -- --write copies it)`,
        );
      }
    }
    i = end;
  }
  if (write) writeFileSync(join(ROOT, CONSUMER_DOC), lines.join('\n'));
  console.log(
    `${blocks} TypeScript examples in ${CONSUMER_DOC}: ${failures ? `${failures} not from ${ESM_PROJECT}` : `all files of ${ESM_PROJECT}`}`,
  );
  return failures;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && e.name.endsWith('.ts'))
    .map((e) => relative(join(ROOT, dir), join(e.parentPath, e.name)))
    .sort();
}

/** The CommonJS project's sources are the ES module project's, relative imports without `.js`. */
function checkProjectsAgree(): number {
  let failures = 0;
  for (const dir of ['src', 'test']) {
    const esm = sourceFiles(join(ESM_PROJECT, dir));
    const cjs = sourceFiles(join(CJS_PROJECT, dir));
    for (const file of new Set([...esm, ...cjs])) {
      if (!esm.includes(file) || !cjs.includes(file)) {
        failures++;
        console.error(`${dir}/${file}: in one of ${ESM_PROJECT} and ${CJS_PROJECT} only`);
        continue;
      }
      const expected = readFileSync(join(ROOT, ESM_PROJECT, dir, file), 'utf8')
        .replace(/(from '\.{1,2}\/[^']*)\.js'/g, "$1'")
        // CommonJS has no top-level await (src/main.ts).
        .replace(/^await bootstrap\(\);$/m, 'void bootstrap();');
      if (readFileSync(join(ROOT, CJS_PROJECT, dir, file), 'utf8') !== expected) {
        failures++;
        console.error(
          `${CJS_PROJECT}/${dir}/${file}: not ${ESM_PROJECT}'s with its relative imports without .js`,
        );
      }
    }
  }
  return failures;
}

function main(): void {
  if (checkConsumerDoc(process.argv.includes('--write')) + checkProjectsAgree() > 0) {
    process.exitCode = 1;
  }
  const { config } = ts.readConfigFile(join(ROOT, 'tsconfig.json'), ts.sys.readFile);
  const { options } = ts.convertCompilerOptionsFromJson(config.compilerOptions, ROOT);
  const compilerOptions: ts.CompilerOptions = {
    ...options,
    noEmit: true,
    paths: Object.fromEntries(Object.entries(ENTRIES).map(([name, file]) => [name, [file]])),
  };

  // The package's export names, read from a program of the two entries.
  const host = ts.createCompilerHost(compilerOptions);
  const entries = ts.createProgram(Object.values(ENTRIES), compilerOptions, host);
  const checker = entries.getTypeChecker();
  const exported = new Map<string, string>(); // name -> the entry that exports it (the main one first)
  for (const [name, file] of Object.entries(ENTRIES).reverse()) {
    const symbol = checker.getSymbolAtLocation(entries.getSourceFile(file)!);
    for (const e of checker.getExportsOfModule(symbol!)) exported.set(e.name, name);
  }

  const all = DOCS.flatMap(examples);
  const virtual = new Map<string, string>();
  for (const example of all) {
    const own = topLevelNames(example.code);
    const siblings = all
      .filter((e) => e.doc === example.doc && e !== example)
      .flatMap((e) => [...topLevelNames(e.code)]);
    const used = identifiers(example.code);
    const imports = new Map<string, string[]>();
    const placeholders: string[] = [];
    for (const name of used) {
      if (own.has(name)) continue;
      const from = exported.get(name);
      if (from) imports.set(from, [...(imports.get(from) ?? []), name]);
      else if (READER_NAMES.includes(name) || siblings.includes(name)) placeholders.push(name);
    }
    // The prelude is one line, so the block's own lines are off by one in the messages (fixed below).
    const prelude = [
      ...[...imports].map(([from, names]) => `import { ${names.join(', ')} } from '${from}';`),
      ...placeholders.map((name) => `declare const ${name}: any; type ${name} = any;`),
      'export {};',
    ].join(' ');
    const fileName = join(ROOT, '.doc-examples', `${example.doc.replace(/\W/g, '-')}-${example.line}.ts`);
    virtual.set(fileName, `${prelude}\n${example.code}\n`);
  }

  const examplesHost: ts.CompilerHost = {
    ...host,
    fileExists: (f) => virtual.has(f) || host.fileExists(f),
    readFile: (f) => virtual.get(f) ?? host.readFile(f),
    getSourceFile: (f, language, onError) =>
      virtual.has(f)
        ? ts.createSourceFile(f, virtual.get(f)!, language)
        : host.getSourceFile(f, language, onError),
  };
  const program = ts.createProgram([...virtual.keys()], compilerOptions, examplesHost, entries);
  let failures = 0;
  for (const [fileName] of virtual) {
    const example = all.find(
      (e) => fileName.endsWith(`${e.doc.replace(/\W/g, '-')}-${e.line}.ts`),
    )!;
    const source = program.getSourceFile(fileName)!;
    const diagnostics = [
      ...program.getSyntacticDiagnostics(source),
      ...program.getSemanticDiagnostics(source),
    ];
    for (const d of diagnostics) {
      failures++;
      const { line } = d.start === undefined ? { line: 0 } : source.getLineAndCharacterOfPosition(d.start);
      const at = line === 0 ? `${example.doc}:${example.line} (imports)` : `${example.doc}:${example.line + line}`;
      console.error(`${at}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`);
    }
  }
  console.log(
    `${all.length} TypeScript examples in ${DOCS.join(', ')}: ${failures ? `${failures} errors` : 'all compile'}`,
  );
  if (failures) process.exitCode = 1;
}

main();
