import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    globalSetup: ['kafkaesque/vitest'],
    setupFiles: ['kafkaesque/vitest/setup'],
    poolOptions: { forks: { maxForks: 2, minForks: 2 } },
    testTimeout: 20_000,
  },
});
