import { spawn, spawnSync } from 'child_process';
import { randomBytes } from 'crypto';
import { mkdtempSync, readdirSync, rmSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';
import {
  jsonValues,
  resolvePlaceholders,
  shellBlocks,
  ShellBlock,
  variableNames,
} from '../support/doc-examples.js';
import { ensureBuilt, exited, freePort, ROOT, startBuiltService } from '../support/run-process.js';
import { TEST_ENV, waitFor, waitForHealth } from '../support/test-app.js';
import { createTestDatabase } from '../support/test-database.js';

/**
 * The shell examples of the README and docs/*.md give what the docs show. Each document's run blocks
 * (the convention: test/support/doc-examples.ts) run in order in one bash against a service started
 * for that document alone, as a reader's fresh `npm start`: the built dist/main.js on a new database
 * (createTestDatabase's: PGlite in a server process of its own, already migrated, which saves the
 * 5-20 s an in-process first start spends migrating; or DATABASE_URL's PostgreSQL), with what the
 * embedded start turns on set explicitly (demo seed, local webhooks, SECRETS_KEY); the demo's printed
 * key and campaign in KEY and
 * CAMPAIGN and its address in BASE, the variables the README tells readers to set. The demo
 * organization's calling rules are off (the demo seed sets them so), and the examples' campaigns have no
 * calling window, so no answer depends on the hour. What a block prints is compared with the ```json
 * block after it as whole JSON values, `<...>` placeholders standing for what varies.
 */
const DOCS = [
  'README.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .sort()
    .map((f) => `docs/${f}`),
];
/** What the README's variables block names, set from the service each document runs against. */
const VARIABLES = ['BASE', 'KEY', 'CAMPAIGN'];
/** A document's blocks, with their waits for calls, end well within this (a few seconds at rest). */
const DOCUMENT_TIMEOUT_MS = 90_000;
const SEPARATOR = '\n@@doc-example-block-end@@\n';

const blocks = DOCS.flatMap((doc) => shellBlocks(ROOT, doc));
const documentsToRun = DOCS.filter((doc) => blocks.some((b) => b.doc === doc && b.mode === 'run'));

describe('the shell examples of the README and docs', () => {
  beforeAll(() => {
    for (const tool of ['curl', 'jq']) {
      if (spawnSync(tool, ['--version']).status !== 0) {
        throw new Error(`the doc examples need ${tool} (apt-get install ${tool}; .ci/run does)`);
      }
    }
    ensureBuilt();
  }, 300_000);

  it('are each run or marked, and the README names the variables the others use', () => {
    const where = (b: ShellBlock) => `${b.doc}:${b.line}`;
    const variables = blocks.filter((b) => b.mode === 'variables');
    expect(variables.map((b) => [where(b), variableNames(b)])).toEqual([
      [expect.stringMatching(/^README\.md:/), VARIABLES],
    ]);
    // Every block that is not run says why (shellBlocks refuses a bare marker).
    expect(blocks.filter((b) => b.mode === 'not run').length).toBeGreaterThan(0);
    expect(documentsToRun).toEqual(
      expect.arrayContaining(['README.md', 'docs/steps.md', 'docs/targets.md']),
    );
  });

  it.each(documentsToRun)(
    'in %s give what the document shows',
    async (doc) => {
      const run = blocks.filter((b) => b.doc === doc && b.mode === 'run');
      const { outputs, failure } = await runDocument(run);
      // One comparison for the page: every block's output beside what the page shows after it (a
      // block that prints must show it, one that prints nothing shows nothing), and the failure of
      // the block bash stopped at.
      const printed = run.map((block, i) => ({
        block: `${doc}:${block.line}`,
        printed: i < outputs.length ? parse(`${doc}:${block.line}`, outputs[i]) : failure,
      }));
      const shown = run.map((block, i) => {
        const values =
          block.shown === null ? [] : parse(`${doc}:${block.shownLine} (shown)`, block.shown);
        return {
          block: `${doc}:${block.line}`,
          printed: resolvePlaceholders(values, printed[i].printed),
        };
      });
      expect(printed).toEqual(shown);
    },
    DOCUMENT_TIMEOUT_MS + 150_000,
  );
});

function parse(label: string, text: string): unknown[] {
  try {
    return jsonValues(text);
  } catch (err) {
    throw new Error(`${label}: ${(err as Error).message}`, { cause: err });
  }
}

/**
 * Starts the service on a new database, runs the blocks in one bash (stopping at the first failing
 * command), and answers each finished block's output, and what went wrong when one failed.
 */
async function runDocument(
  run: ShellBlock[],
): Promise<{ outputs: string[]; failure: string | null }> {
  const database = await createTestDatabase();
  const port = await freePort();
  const service = startBuiltService({
    ...TEST_ENV,
    DATABASE_URL: database.url,
    PORT: String(port),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    // What `npm start` on its embedded database has: the demo (its organization's calling rules
    // off), notifications to local receivers, and a key for provider credentials. TEST_ENV's
    // DEFAULT_CALLING_POLICY=unrestricted keeps any other organization an example makes off the
    // clock too, and its PUBLIC_BASE_URL is npm start's (http://localhost:3000).
    DEMO_SEED: 'true',
    SECRETS_KEY: randomBytes(32).toString('hex'),
  });
  const base = `http://127.0.0.1:${port}`;
  const workDir = mkdtempSync(join(tmpdir(), 'doc-examples-'));
  try {
    await waitForHealth(base, service);
    if (service.exitCode !== null) throw new Error(`the service exited:\n${service.output()}`);
    await waitFor(
      async () => service.output(),
      (o) => o.includes('demo campaign'),
    );
    const key = /demo API key\s+(ccs_\S+)/.exec(service.output())![1];
    const campaign = /demo campaign\s+(\S+)/.exec(service.output())![1];
    const script = [
      'set -euo pipefail',
      ...run.map((b) => `${b.code}\nprintf '${SEPARATOR.replace(/\n/g, '\\n')}'`),
    ].join('\n');
    const bash = spawn('bash', ['-c', script], {
      cwd: workDir,
      env: { PATH: process.env.PATH!, HOME: workDir, BASE: base, KEY: key, CAMPAIGN: campaign },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    let stdout = '';
    let stderr = '';
    bash.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    bash.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => process.kill(-bash.pid!, 'SIGKILL'), DOCUMENT_TIMEOUT_MS);
    const code = await exited(bash);
    clearTimeout(timer);
    const outputs = stdout.split(SEPARATOR);
    const finished = outputs.slice(0, -1);
    const failure =
      code === 0
        ? null
        : `bash exited with ${code ?? `${bash.signalCode} (after ${DOCUMENT_TIMEOUT_MS} ms?)`}; ` +
          `it printed:\n${outputs.at(-1)}\nstderr:\n${stderr}\nservice log:\n${service.output().slice(-3000)}`;
    return { outputs: finished, failure };
  } finally {
    if (service.exitCode === null) service.kill('SIGTERM');
    await exited(service);
    await database.drop();
    rmSync(workDir, { recursive: true, force: true });
  }
}
