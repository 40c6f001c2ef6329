/**
 * Type-checks the TypeScript examples of the docs (`npm run typecheck` runs it): every ```ts block of
 * the files below is compiled as a module of its own against the package's sources, the way a reader
 * would paste it into a project that installed the package.
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
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';

const ROOT = join(import.meta.dirname, '..');
const DOCS = ['README.md', 'docs/extending.md'];
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

function main(): void {
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
