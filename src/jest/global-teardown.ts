// jest globalTeardown: stops the cluster that globalSetup started.
import type { RunningCluster } from '../start.js';
import { RUNNING } from './global-setup.js';

export default async function globalTeardown(): Promise<void> {
  const g = globalThis as Record<symbol, RunningCluster | undefined>;
  const running = g[RUNNING];
  if (!running) return;
  g[RUNNING] = undefined;
  await running.stop();
  delete process.env.KAFKA_BROKERS;
  delete process.env.KAFKAESQUE_URL;
  delete process.env.KAFKAESQUE_TLS_CA;
  delete process.env.KAFKAESQUE_TLS_CLIENT_CERT;
  delete process.env.KAFKAESQUE_TLS_CLIENT_KEY;
}
