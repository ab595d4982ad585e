// jest globalTeardown: stops the clusters that globalSetup started.
import type { FixtureCluster } from '../fixture/clusters.js';
import { clearEndpoint } from '../fixture/endpoint.js';
import { RUNNING } from './global-setup.js';

export default async function globalTeardown(): Promise<void> {
  const g = globalThis as Record<symbol, FixtureCluster[] | undefined>;
  const clusters = g[RUNNING];
  if (!clusters) return;
  g[RUNNING] = undefined;
  await Promise.all(clusters.map((c) => c.stop()));
  clearEndpoint();
}
