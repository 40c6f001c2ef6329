import path from 'node:path';

/**
 * Four projects, all run by `npm test` (CI reads its JSON report):
 * - unit: `src/**\/*.spec.ts` and `test/unit`: fakes only; no database, no child process, no network
 *   emulator, no input of thousands of rows (those go to e2e). Jest's default 5 s per test.
 * - contract: `test/contracts`: each repository suite against its in-memory fake and against its SQL
 *   adapter on a test database (PGlite, or DATABASE_URL's PostgreSQL).
 * - e2e: `test/e2e`: the real app on a real database, worker and CLI child processes.
 * - browser: `test/browser`: the operator console in headless Chromium (playwright-core) against the
 *   real app; one skipped test saying why when no Chromium is installed.
 * The last three give each test app a database of its own, copied from one migrated once per set of
 * migrations (test/support/test-database.ts).
 * `npm run test:unit` runs the first alone on two workers: under 10 s on a quiet 2-core machine (at
 * load about 1, 6 s wall with the transform cache, 10 s on a fresh clone), 15 to 23 s at load 3 to 6.
 * Most of it is per file, not the tests: Jest compiles its own jest-circus, expect and jest-snapshot
 * into each file's context (0.1 to 0.2 s a file) and evaluates the file's whole module graph afresh
 * (under load: @nestjs/common about 0.3 s, class-validator 0.4 s, TypeORM's index more). So keep a
 * unit file's imports to the code it tests (a service's graph has no class-validator), and give specs
 * that share a heavy graph one file: the whole app on its fakes (test/unit/app-on-fakes.spec.ts),
 * request validation (test/unit/request-validation.spec.ts).
 */
// The project is ES modules (NestJS 12 and pg-boss 12 are), and Jest loads ES modules only in its
// native ESM mode: `npm test` runs it with `node --experimental-vm-modules`. ts-jest transpiles each
// file alone into an ES module (no type-checking: `npm run typecheck` does that), keeping the decorator
// metadata Nest and class-validator read; the `.js` of a relative import is mapped back to the `.ts`
// source. (@swc/jest was faster, but the npm registry this project installs from serves @swc/core's
// Linux binaries only, so its lock file could not list the other platforms' optional packages and
// `npm ci` refused it.)
const tsJest = { useESM: true }; // tsconfig.json sets isolatedModules: each file is transpiled alone
const common = {
  moduleFileExtensions: ['js', 'json', 'ts'],
  rootDir: '.',
  extensionsToTreatAsEsm: ['.ts'],
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  // ts-jest behind a cache key of its own: loaded only for a file not yet cached (see the file).
  transform: { '^.+\\.ts$': ['<rootDir>/test/support/ts-jest-on-demand.js', tsJest] },
  testEnvironment: 'node',
  // examples/extending is a project of its own, with the packed package in its node_modules.
  modulePathIgnorePatterns: ['<rootDir>/examples/'],
  setupFiles: ['<rootDir>/test/support/load-nest-first.ts'],
  // In the checkout, not the machine's temp directory: a transform cached by another checkout (another
  // branch, or this one before a package.json changed a file's module format) is never reused.
  cacheDirectory: '<rootDir>/node_modules/.cache/jest',
};
const database = { setupFilesAfterEnv: ['<rootDir>/test/support/database-test-timeout.ts'] };


// `--selectProjects` takes any number of names, so in `jest --selectProjects e2e test/e2e/x.e2e-spec.ts`
// the file is read as one more project name and the whole e2e project runs. Files named that way are
// taken as the files to run, in the project whose pattern they match.
const namedFiles = (() => {
  const at = process.argv.indexOf('--selectProjects');
  if (at < 0) return [];
  const names = [];
  for (const arg of process.argv.slice(at + 1)) {
    if (arg.startsWith('-')) break;
    if (/\.ts$/.test(arg))
      names.push(path.relative(import.meta.dirname, path.resolve(arg)).split(path.sep).join('/'));
  }
  return names;
})();
function only(project, belongs) {
  if (namedFiles.length === 0) return project;
  return { ...project, testMatch: namedFiles.filter(belongs).map((f) => `<rootDir>/${f}`) };
}

export default {
  projects: [
    only(
      {
        ...common,
        displayName: 'unit',
        testMatch: ['<rootDir>/src/**/*.spec.ts', '<rootDir>/test/unit/**/*.spec.ts'],
        setupFiles: [],
        setupFilesAfterEnv: ['<rootDir>/test/support/load-nest-first-for-app-tests.ts'],
      },
      (f) => /^(src|test\/unit)\/.*\.spec\.ts$/.test(f),
    ),
    only(
      {
        ...common,
        ...database,
        displayName: 'contract',
        testMatch: ['<rootDir>/test/contracts/**/*.spec.ts'],
      },
      (f) => f.startsWith('test/contracts/'),
    ),
    only(
      {
        ...common,
        ...database,
        displayName: 'e2e',
        testMatch: ['<rootDir>/test/e2e/**/*.e2e-spec.ts'],
      },
      (f) => f.startsWith('test/e2e/'),
    ),
    only(
      {
        ...common,
        ...database,
        displayName: 'browser',
        testMatch: ['<rootDir>/test/browser/**/*.browser-spec.ts'],
      },
      (f) => f.startsWith('test/browser/'),
    ),
  ],
};
