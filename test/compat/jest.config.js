// The compatibility suite's own jest project (`npm run test:compat`), kept out
// of `npm test`: same transform as the main config, only *.compat.ts files.
import base from '../../jest.config.js';

export default {
  ...base,
  rootDir: '../..',
  testMatch: ['<rootDir>/test/compat/**/*.compat.ts'],
  // Per-scenario timeouts are set in the suite; this covers beforeAll (the sarama build).
  testTimeout: 120_000,
  // Everything the suite starts is stopped in the tests themselves. Once under
  // CPU load Node 20 spun at 100 % in its exit cleanup (FreeEnvironment ->
  // CleanupHandles) after "Ran all test suites", on two TCP handles that were
  // referenced but inactive; process.exit skips that cleanup.
  forceExit: true,
};
