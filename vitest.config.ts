import { defineConfig } from 'vitest/config';
import { LongestFirstSequencer } from './test/support/longest-first.sequencer.js';

/**
 * Four projects, all run by `npm test` (CI reads its JSON report):
 * - unit: `src/**\/*.spec.ts` and `test/unit`: fakes only; no database, no child process, no network
 *   emulator, no input of thousands of rows (those go to e2e). 5 s per test and per hook.
 * - contract: `test/contracts`: each repository suite against its in-memory fake and against its SQL
 *   adapter on a test database (PGlite, or DATABASE_URL's PostgreSQL).
 * - e2e: `test/e2e`: the real app on a real database, worker and CLI child processes.
 * - browser: `test/browser`: the operator console in headless Chromium (playwright-core) against the
 *   real app; one skipped test saying why when no Chromium is installed.
 * The last three give each test app a database of its own, copied from one migrated once per run and
 * set of migrations: test/support/test-databases.global-setup.ts makes it before any test file starts
 * (test/support/test-database.ts). Their apps boot in hooks and some start child processes, which
 * takes seconds, and the heaviest (tens of thousands of rows) take a minute or two on a quiet machine
 * while another file has the other core: 240 s per test and per hook.
 *
 * TypeScript is transpiled by Vite's own transform (Oxc), which reads tsconfig.json's
 * `experimentalDecorators` and `emitDecoratorMetadata`: Nest's injection by type and class-validator
 * need that metadata (test/unit/decorator-metadata.spec.ts checks it). Packages in node_modules are
 * loaded by Node itself, as in production.
 *
 * Files run in child processes (pool `forks`), two at a time (the development machines and CI have
 * two cores). The e2e and browser files each get a process of their own (`isolate`): they start apps,
 * PGlite servers and child processes and read process.env, and a fresh process keeps them from seeing
 * each other. The unit and contract files share their worker's modules (`isolate: false`): a fresh
 * module graph per file was most of the unit project's time (22 s against 8.5 s at load 5) and a third
 * of the contract project's CPU (82-93 s against 51-58 s, alternated at load 4-10), since every
 * contract file imports the whole app to boot one on its own database. A file of either that changes
 * something global (Nest's logger) puts it back in `afterAll`; the contract files change none.
 * docs/benchmarks.md has the times and what else was measured (the `threads` pool was no faster).
 *
 * The run cannot end before its longest file, so files start longest first across all four projects
 * (test/support/longest-first.sequencer.ts), from Vitest's timings of the last run or, on a fresh
 * clone, from the measured seconds of the longest files.
 */
const database = {
  testTimeout: 240_000,
  hookTimeout: 240_000,
  globalSetup: ['test/support/test-databases.global-setup.ts'],
};

export default defineConfig({
  test: {
    globals: true,
    pool: 'forks',
    isolate: true,
    maxWorkers: 2,
    sequence: { sequencer: LongestFirstSequencer },
    // examples/ holds projects of their own, with the packed package in their node_modules.
    exclude: ['**/node_modules/**', 'dist/**', 'examples/**'],
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['src/**/*.spec.ts', 'test/unit/**/*.spec.ts'],
          testTimeout: 5_000,
          hookTimeout: 5_000,
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          name: 'contract',
          include: ['test/contracts/**/*.spec.ts'],
          ...database,
          isolate: false,
        },
      },
      { extends: true, test: { name: 'e2e', include: ['test/e2e/**/*.e2e-spec.ts'], ...database } },
      {
        extends: true,
        test: { name: 'browser', include: ['test/browser/**/*.browser-spec.ts'], ...database },
      },
    ],
  },
});
