// ES modules, as the package is: Jest's native ESM mode (`npm test` passes --experimental-vm-modules),
// ts-jest transpiling each file alone and keeping the decorator metadata Nest reads.
export default {
  moduleFileExtensions: ['js', 'json', 'ts'],
  extensionsToTreatAsEsm: ['.ts'],
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  transform: { '^.+\\.ts$': ['ts-jest', { useESM: true }] },
  testEnvironment: 'node',
  testMatch: ['<rootDir>/test/**/*.test.ts'],
  // @nestjs/throttler (CommonJS) require()s @nestjs/core; loaded first, Jest sees it complete.
  setupFiles: ['<rootDir>/test/load-nest-first.ts'],
};
