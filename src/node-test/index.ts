// kafkaesque/node-test: a cluster for a node:test file. `node --test` runs
// each file in a process of its own, so a cluster per file is isolation
// for free: useCluster() registers before/after hooks that start it (and
// point KAFKA_BROKERS, KAFKAESQUE_URL, … at it) and stop it.
//
//   import { useCluster } from 'kafkaesque/node-test';
//   const kafka = useCluster({ topics: [{ name: 'orders', partitions: 3 }] });
//   test('…', async () => { new Kafka({ brokers: kafka.brokers }); … });
import { after, before } from 'node:test';
import { ControlClient } from '../control/client.js';
import type { RunningCluster } from '../start.js';
import { applyEndpoint, clearEndpoint } from '../fixture/endpoint.js';
import { fixtureOptions, type FixtureOptions } from '../jest/options.js';

export interface NodeTestCluster {
  /** The running cluster (in this process: the model, chaos, stopNode, reset …). */
  readonly running: RunningCluster;
  /** The bootstrap brokers as a list, for a Kafka client config. */
  readonly brokers: string[];
  /** A control client of the cluster (the same API over HTTP). */
  readonly control: ControlClient;
}

/** Starts a cluster in `before` (options under KAFKAESQUE_OPTIONS and KAFKAESQUE_PRESETS) and stops it in `after`. */
export function useCluster(options: FixtureOptions = {}): NodeTestCluster {
  let running: RunningCluster | undefined;
  let control: ControlClient | undefined;
  const started = (): RunningCluster => {
    if (!running) throw new Error('kafkaesque/node-test: the cluster starts in a before() hook: use it inside a test or hook, not at the top of the file');
    return running;
  };
  before(async () => {
    const { startFixtureClusters, endpointOf } = await import('../fixture/clusters.js');
    const merged = fixtureOptions({ kafkaesque: options });
    if (merged.upstream !== undefined) throw new RangeError('kafkaesque/node-test: upstream: not here; start the proxy with startProxy (docs/upstream.md)');
    running = (await startFixtureClusters(merged, 1))[0] as RunningCluster;
    applyEndpoint(endpointOf(running));
    control = new ControlClient(running.controlUrl, { token: running.options.controlToken });
  });
  after(async () => {
    await running?.stop();
    running = undefined;
    clearEndpoint();
  });
  return {
    get running() {
      return started();
    },
    get brokers() {
      return started().bootstrap.split(',');
    },
    get control() {
      started();
      return control!;
    },
  };
}
