// The order service's own jest project. kafkaesque's globalSetup starts a
// cluster (behind its chaos proxy) per jest worker, kafkaesque/jest/setup
// hands each worker its own as KAFKA_BROKERS and KAFKAESQUE_URL, and
// globalTeardown stops them. (`preset: 'kafkaesque'` is the same in one line.)
//
// Run from the repository root (the tests are ES modules, which jest runs
// behind Node's flag):
//   npm run build
//   VARIANT=fixed NODE_OPTIONS=--experimental-vm-modules npx jest -c docs/examples/order-service/jest.config.js
//   VARIANT=buggy NODE_OPTIONS=--experimental-vm-modules npx jest -c docs/examples/order-service/jest.config.js
export default {
  rootDir: '.',
  testEnvironment: 'node',
  testMatch: ['<rootDir>/test/**/*.test.ts'],
  // TypeScript, kept as ES modules: @swc/jest strips the types.
  extensionsToTreatAsEsm: ['.ts'],
  transform: {
    '^.+\\.ts$': ['@swc/jest', { jsc: { parser: { syntax: 'typescript' }, target: 'es2022' }, module: { type: 'es6' } }],
  },
  // The sources import './x.js' as Node's ESM resolution wants; jest finds the .ts file.
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  globalSetup: 'kafkaesque/jest/global-setup',
  globalTeardown: 'kafkaesque/jest/global-teardown',
  setupFiles: ['kafkaesque/jest/setup'],
  // Three brokers; groups form at once (a real broker waits 3 s for more members).
  globals: { kafkaesque: { brokers: 3, seed: 6, groupInitialRebalanceDelayMs: 0 } },
  testTimeout: 20_000,
};
