// ESM jest (node --experimental-vm-modules), the fixture wired by hand.
export default {
  transform: {},
  globalSetup: 'kafkaesque/jest/global-setup',
  globalTeardown: 'kafkaesque/jest/global-teardown',
  setupFiles: ['kafkaesque/jest/setup'],
  setupFilesAfterEnv: ['kafkaesque/jest/matchers'],
  globals: { kafkaesque: { brokers: 1, topics: [{ name: 'orders', partitions: 1 }] } },
};
