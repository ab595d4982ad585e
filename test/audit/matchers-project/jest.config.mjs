// A user's project with the delivery matchers registered from
// setupFilesAfterEnv, run by test/audit/matchers-project.test.ts in a nested
// jest: the package as built into dist/ (npm test builds first).
export default {
  rootDir: '.',
  testEnvironment: 'node',
  transform: {},
  testMatch: ['<rootDir>/*.fixture.mjs'],
  globalSetup: '<rootDir>/../../../dist/jest/global-setup.js',
  globalTeardown: '<rootDir>/../../../dist/jest/global-teardown.js',
  setupFilesAfterEnv: ['<rootDir>/../../../dist/jest/matchers.js'],
  globals: { kafkaesque: { brokers: 1, topics: [{ name: 'orders', partitions: 1 }], seed: 8 } },
  testTimeout: 20000,
};
