// The real broker global-setup.ts started, as the tests see it.
import type { RealKafkaInfo } from './global-setup.js';

export function realKafka(): RealKafkaInfo {
  const info = process.env.KAFKAESQUE_REAL_KAFKA;
  if (!info) throw new Error('KAFKAESQUE_REAL_KAFKA is not set: run these tests with `npm run test:real-kafka` (test/real-kafka/jest.config.js starts the broker)');
  return JSON.parse(info) as RealKafkaInfo;
}
