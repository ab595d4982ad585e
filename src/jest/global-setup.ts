// jest globalSetup: starts one cluster per jest worker, each behind its own
// chaos proxy on free ports, in jest's parent process, so that one test
// file's reset() or fault never reaches a file running at the same time in
// another worker. Every worker's addresses go to the workers in
// KAFKAESQUE_WORKERS; kafkaesque/jest/setup (in setupFiles; the preset adds
// it) points each worker's KAFKA_BROKERS, KAFKAESQUE_URL, … at its own
// cluster (src/fixture/endpoint.ts lists them).
// Options: `globals: { kafkaesque: { … } }` in the jest config, then
// KAFKAESQUE_OPTIONS / KAFKAESQUE_PRESETS (docs/jest.md).
//
//   // jest.config.js
//   module.exports = { preset: 'kafkaesque', globals: { kafkaesque: { topics: [{ name: 'orders', partitions: 3 }] } } };
import { realpathSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startFixtureClusters, endpointOf, type FixtureCluster } from '../fixture/clusters.js';
import { publishEndpoints } from '../fixture/endpoint.js';
import { fixtureOptions } from './options.js';

/** Where globalTeardown finds the clusters: globalSetup and globalTeardown run in the same (parent) process. */
export const RUNNING = Symbol.for('kafkaesque.jest.running');

interface GlobalConfigLike {
  maxWorkers?: number;
}

interface ProjectConfigLike {
  globals?: Record<string, unknown>;
  setupFiles?: string[];
  setupFilesAfterEnv?: string[];
}

const real = (p: string) => {
  try {
    return realpathSync(p);
  } catch {
    return p;
  }
};

/** This package's modules that point a worker at its own cluster: the setup file and the matchers, as ES module or CommonJS, built or from source. */
function workerSetupFiles(): Set<string> {
  // src/jest, or dist/chunks or dist/cjs/chunks (the bundles: scripts/bundle-lib.mjs), or dist/jest, dist/cjs/jest.
  const here = dirname(fileURLToPath(import.meta.url));
  const root = here.replace(/[\\/](dist[\\/]cjs|dist|src)[\\/](jest|chunks)$/, '');
  const files = ['dist/jest/setup.js', 'dist/jest/matchers.js', 'dist/cjs/jest/setup.js', 'dist/cjs/jest/matchers.js', 'src/jest/setup.ts', 'src/jest/matchers.ts'];
  return new Set(files.map((f) => real(join(root, f))));
}

/** Several workers without the setup file would all read worker 1's addresses from the environment: refused, with the fix. */
function requireWorkerSetup(projectConfig: ProjectConfigLike | undefined, workers: number): void {
  const ours = workerSetupFiles();
  const listed = [...(projectConfig?.setupFiles ?? []), ...(projectConfig?.setupFilesAfterEnv ?? [])];
  if (listed.some((f) => ours.has(real(f)))) return;
  throw new Error(
    `kafkaesque jest fixture: ${workers} workers each get their own cluster, and a worker finds its own through kafkaesque/jest/setup: ` +
      `add it to setupFiles (or use preset: 'kafkaesque', which does), or run one worker (--runInBand) (docs/jest.md)`,
  );
}

export default async function globalSetup(globalConfig?: GlobalConfigLike, projectConfig?: ProjectConfigLike): Promise<void> {
  const g = globalThis as Record<symbol, FixtureCluster[] | undefined>;
  if (g[RUNNING]) return; // several projects share the clusters
  const options = fixtureOptions(projectConfig?.globals);
  const workers = Math.max(1, globalConfig?.maxWorkers ?? 1);
  if (workers > 1) requireWorkerSetup(projectConfig, workers);
  const clusters = await startFixtureClusters(options, workers);
  g[RUNNING] = clusters;
  publishEndpoints(clusters.map(endpointOf));
}
