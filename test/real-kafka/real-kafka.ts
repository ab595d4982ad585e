// The real broker the run's globalSetup started (test/conformance/global-setup.mjs), as the tests see it.
export interface RealKafkaInfo {
  bootstrap: string;
  saslBootstrap: string;
  version: string;
  user: { username: string; password: string };
}

export function realKafka(): RealKafkaInfo {
  const info = process.env.KAFKAESQUE_REAL_KAFKA;
  if (!info) throw new Error('KAFKAESQUE_REAL_KAFKA is not set: run these tests with `npm run test:conformance` (test/conformance/jest.config.js starts the broker)');
  return JSON.parse(info) as RealKafkaInfo;
}
