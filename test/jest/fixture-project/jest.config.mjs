// A project of a kafkaesque user, run by test/jest/fixture.test.ts in a
// nested jest: the fixture as the package exports it (dist/, built by npm test).
export default {
  rootDir: '.',
  testEnvironment: 'node',
  transform: {},
  testMatch: ['<rootDir>/*.fixture.mjs'],
  globalSetup: '<rootDir>/../../../dist/jest/global-setup.js',
  globalTeardown: '<rootDir>/../../../dist/jest/global-teardown.js',
  globals: { kafkaesque: { brokers: 2, topics: [{ name: 'fixture-orders', partitions: 2 }], presets: ['lost-ack'], seed: 5 } },
  testTimeout: 20000,
};
