// jest globalSetup: starts a cluster behind its chaos proxy on free ports and
// publishes its addresses to the test workers through the environment:
//   KAFKA_BROKERS   comma-separated bootstrap, for the Kafka client
//   KAFKAESQUE_DIRECT_BROKERS the fault-free side door, for the test's own clients
//   KAFKAESQUE_URL  the control API (ControlClient.fromEnv(), the CLI)
//   KAFKAESQUE_TOKEN when a control token is configured
//   KAFKAESQUE_TLS_CA with `tls`: the PEM CA certificate the client trusts
//   KAFKAESQUE_TLS_CLIENT_CERT, KAFKAESQUE_TLS_CLIENT_KEY with `tls.clientAuth`
//                   and a generated CA: a client certificate and key it accepts
// Options: `globals: { kafkaesque: { … } }` in the jest config, then
// KAFKAESQUE_OPTIONS / KAFKAESQUE_PRESETS (docs/jest.md).
//
//   // jest.config.js
//   export default {
//     globalSetup: 'kafkaesque/jest/global-setup',
//     globalTeardown: 'kafkaesque/jest/global-teardown',
//     globals: { kafkaesque: { brokers: 3, topics: [{ name: 'orders', partitions: 3 }], presets: [] } },
//   };
import { startCluster, type RunningCluster } from '../start.js';
import { startProxy, type RunningProxy } from '../chaos/upstream-start.js';
import { fixtureOptions } from './options.js';

/** Where globalTeardown finds the cluster: globalSetup and globalTeardown run in the same (parent) process. */
export const RUNNING = Symbol.for('kafkaesque.jest.running');

interface ProjectConfigLike {
  globals?: Record<string, unknown>;
}

export default async function globalSetup(_globalConfig?: unknown, projectConfig?: ProjectConfigLike): Promise<void> {
  const g = globalThis as Record<symbol, RunningCluster | RunningProxy | undefined>;
  if (g[RUNNING]) return; // several projects share one cluster
  const options = fixtureOptions(projectConfig?.globals);
  // `upstream` set: the chaos proxy in front of that cluster instead (docs/upstream.md).
  const running = options.upstream !== undefined ? await startProxy({ ...options, upstream: options.upstream }) : await startCluster(options);
  g[RUNNING] = running;
  process.env.KAFKA_BROKERS = running.bootstrap;
  if ('directBootstrap' in running && running.directBootstrap) process.env.KAFKAESQUE_DIRECT_BROKERS = running.directBootstrap;
  process.env.KAFKAESQUE_URL = running.controlUrl;
  if (running.options.controlToken !== undefined) process.env.KAFKAESQUE_TOKEN = running.options.controlToken;
  if (running.tls) process.env.KAFKAESQUE_TLS_CA = running.tls.ca;
  if (running.tls?.client) {
    process.env.KAFKAESQUE_TLS_CLIENT_CERT = running.tls.client.cert;
    process.env.KAFKAESQUE_TLS_CLIENT_KEY = running.tls.client.key;
  }
}
