// For test files under the jest fixture: the control client of the cluster
// globalSetup started, and the bootstrap list.
import { ControlClient } from '../control/client.js';

export { fixtureOptions, fixtureDefaults, type FixtureOptions } from './options.js';

/** The control API of the fixture's cluster (KAFKAESQUE_URL, KAFKAESQUE_TOKEN). */
export function kafkaesque(env: NodeJS.ProcessEnv = process.env): ControlClient {
  return ControlClient.fromEnv(env);
}

/** The fixture's bootstrap brokers (KAFKA_BROKERS) as a list, for a Kafka client config. */
export function brokers(env: NodeJS.ProcessEnv = process.env): string[] {
  const b = env.KAFKA_BROKERS;
  if (!b) throw new Error('KAFKA_BROKERS is not set: add kafkaesque/jest/global-setup to the jest config (globalSetup)');
  return b.split(',');
}
