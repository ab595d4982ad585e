// The suites that need a real Apache Kafka broker (`npm run test:real-kafka`),
// kept out of `npm test`: one KRaft node (scripts/real-kafka.mjs) is started
// once for the whole run by global-setup.ts and stopped by
// global-teardown.ts; the tests find it through KAFKAESQUE_REAL_KAFKA. Only
// *.real.ts files, one at a time (they share the one broker).
import base from '../../jest.config.js';

export default {
  ...base,
  rootDir: '../..',
  testMatch: ['<rootDir>/test/real-kafka/**/*.real.ts'],
  globalSetup: '<rootDir>/test/real-kafka/global-setup.ts',
  globalTeardown: '<rootDir>/test/real-kafka/global-teardown.ts',
  testTimeout: 60_000,
  // As the compat suite: process.exit skips Node 20's exit cleanup, which once spun on idle TCP handles.
  forceExit: true,
};
