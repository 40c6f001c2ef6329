/**
 * Four projects, all run by `npm test` (CI reads its JSON report):
 * - unit: `src/**\/*.spec.ts` and `test/unit`: fakes only; no database and no child process. Jest's
 *   default 5 s per test.
 * - contract: `test/contracts`: each repository suite against its in-memory fake and against its SQL
 *   adapter on a test database (PGlite, or DATABASE_URL's PostgreSQL).
 * - e2e: `test/e2e`: the real app on a real database, worker and CLI child processes.
 * - browser: `test/browser`: the operator console in headless Chromium (playwright-core) against the
 *   real app; one skipped test saying why when no Chromium is installed.
 * `npm run test:unit` runs the first alone, in seconds.
 */
// ts-jest transpiles each file alone (no type-checking: `npm run typecheck` does that), keeping the
// decorator metadata Nest and class-validator read. (@swc/jest was faster, but the npm registry this
// project installs from serves @swc/core's Linux binaries only, so its lock file could not list the
// other platforms' optional packages and `npm ci` refused it.)
const tsJest = {}; // tsconfig.json sets isolatedModules, which makes ts-jest transpile each file alone
const common = {
  moduleFileExtensions: ['js', 'json', 'ts'],
  rootDir: '.',
  transform: { '^.+\\.ts$': ['ts-jest', tsJest] },
  testEnvironment: 'node',
};
const database = { setupFilesAfterEnv: ['<rootDir>/test/support/database-test-timeout.ts'] };

module.exports = {
  projects: [
    {
      ...common,
      displayName: 'unit',
      testMatch: ['<rootDir>/src/**/*.spec.ts', '<rootDir>/test/unit/**/*.spec.ts'],
    },
    {
      ...common,
      ...database,
      displayName: 'contract',
      testMatch: ['<rootDir>/test/contracts/**/*.spec.ts'],
    },
    {
      ...common,
      ...database,
      displayName: 'e2e',
      testMatch: ['<rootDir>/test/e2e/**/*.e2e-spec.ts'],
    },
    {
      ...common,
      ...database,
      displayName: 'browser',
      testMatch: ['<rootDir>/test/browser/**/*.browser-spec.ts'],
    },
  ],
};
