// The conformance suite's own jest project (`npm run test:conformance`), kept
// out of `npm test`: it needs a JDK and Kafka's jars. One real Kafka broker
// per run (global-setup.mjs), bounded in time and heap, stopped by
// global-teardown.mjs; the suite writes docs/conformance.md. The same run
// takes the other suites that need a real broker (test/real-kafka/*.real.ts:
// upstream mode in front of it), so CI starts one broker per Kafka version.
import base from '../../jest.config.js';

export default {
  ...base,
  rootDir: '../..',
  testMatch: ['<rootDir>/test/conformance/**/*.conformance.ts', '<rootDir>/test/real-kafka/**/*.real.ts'],
  globalSetup: '<rootDir>/test/conformance/global-setup.mjs',
  // Conformance before the suites that leave topics on the shared broker.
  testSequencer: '<rootDir>/test/conformance/sequencer.mjs',
  globalTeardown: '<rootDir>/test/conformance/global-teardown.mjs',
  testTimeout: 60_000,
  forceExit: true,
};
