// The conformance suite's own jest project (`npm run test:conformance`), kept
// out of `npm test`: it needs a JDK and Kafka's jars. One real Kafka broker
// per run (global-setup.mjs), bounded in time and heap, stopped by
// global-teardown.mjs; the suite writes docs/conformance.md.
import base from '../../jest.config.js';

export default {
  ...base,
  rootDir: '../..',
  testMatch: ['<rootDir>/test/conformance/**/*.conformance.ts'],
  globalSetup: '<rootDir>/test/conformance/global-setup.mjs',
  globalTeardown: '<rootDir>/test/conformance/global-teardown.mjs',
  testTimeout: 60_000,
  forceExit: true,
};
