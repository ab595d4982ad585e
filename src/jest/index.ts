// For test files under the jest fixture: the control client of this
// worker's cluster (globalSetup starts one per worker), the bootstrap list,
// a fault for the length of a block, and the delivery matchers
// (./matchers.ts). Importing it points KAFKA_BROKERS, KAFKAESQUE_URL, … at
// the worker's cluster, as kafkaesque/jest/setup does.
import { ControlClient } from '../control/client.js';
import type { ChaosController, FaultRule, FaultRuleInput } from '../chaos/api.js';
import { useWorkerCluster } from '../fixture/endpoint.js';

export { fixtureOptions, fixtureDefaults, type FixtureOptions } from './options.js';
export { deliveryMatchers, auditProcessed, type DeliveryOptions, type DuplicateOptions } from './matchers.js';
export { useWorkerCluster, workerEndpoint, type ClusterEndpoint } from '../fixture/endpoint.js';

useWorkerCluster();

/** The control API of this worker's cluster (KAFKAESQUE_URL, KAFKAESQUE_TOKEN). */
export function kafkaesque(env: NodeJS.ProcessEnv = process.env): ControlClient {
  useWorkerCluster(env);
  return ControlClient.fromEnv(env);
}

/** This worker's bootstrap brokers (KAFKA_BROKERS) as a list, for a Kafka client config. */
export function brokers(env: NodeJS.ProcessEnv = process.env): string[] {
  useWorkerCluster(env);
  const b = env.KAFKA_BROKERS;
  if (!b) throw new Error('KAFKA_BROKERS is not set: add kafkaesque/jest/global-setup to the jest config (globalSetup)');
  return b.split(',');
}

export interface WithFaultOptions {
  /** Where the rule goes: a ControlClient, or a RunningCluster's `chaos` in process. Default: the fixture's cluster. */
  on?: ControlClient | ChaosController;
  /** After the block, wait until the rule has fired this many times in all; default 1 (0: do not wait). */
  count?: number;
  /** How long to wait for it; default 10000 ms. */
  timeoutMs?: number;
}

/**
 * Adds the rule, runs the block, waits until the rule has fired (`count`
 * times), and removes the rule whatever happens; resolves to the block's
 * value. A rule that never fires fails the test with the rule's counts.
 *
 *   await withFault({ match: { api: 'Produce', topic: 'orders' }, trigger: { type: 'nth', n: 1 }, action: { type: 'drop-response' } },
 *     () => producer.send({ topic: 'orders', messages }));
 */
export async function withFault<T>(rule: FaultRuleInput, block: (rule: FaultRule) => Promise<T> | T, options: WithFaultOptions = {}): Promise<T> {
  const on = options.on ?? kafkaesque();
  const count = options.count ?? 1;
  const timeoutMs = options.timeoutMs ?? 10_000;
  const added = on instanceof ControlClient ? await on.addFault(rule) : on.addRule(rule);
  try {
    const value = await block(added);
    if (count > 0) {
      if (on instanceof ControlClient) await on.waitForFault(added.id, { count, timeoutMs });
      else await on.waitForFired(added.id, count, timeoutMs);
    }
    return value;
  } finally {
    if (on instanceof ControlClient) await on.removeFault(added.id).catch(() => undefined);
    else on.removeRule(added.id);
  }
}
