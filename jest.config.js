/** Unit tests (fakes only) and e2e tests (real database) run as two projects of one `npm test`. */
const common = {
  moduleFileExtensions: ['js', 'json', 'ts'],
  rootDir: '.',
  transform: { '^.+\\.ts$': ['ts-jest', {}] },
  testEnvironment: 'node',
};
module.exports = {
  testTimeout: 120000,
  // Child processes (PGlite servers, workers, the CLI) can leave a Node-internal timer behind for a
  // while after every test has finished and cleaned up; CI must never wait on that.
  forceExit: true,
  projects: [
    {
      ...common,
      displayName: 'unit',
      testMatch: [
        '<rootDir>/src/**/*.spec.ts',
        '<rootDir>/test/contracts/**/*.spec.ts',
        '<rootDir>/test/unit/**/*.spec.ts',
      ],
    },
    { ...common, displayName: 'e2e', testMatch: ['<rootDir>/test/e2e/**/*.e2e-spec.ts'] },
  ],
};
