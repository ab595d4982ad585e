// vitest globalSetup: one cluster per vitest worker, in vitest's main
// process, handed to the workers with provide('kafkaesque', …);
// kafkaesque/vitest/setup (setupFiles) points each worker's KAFKA_BROKERS,
// KAFKAESQUE_URL, … at its own cluster (inject + VITEST_POOL_ID).
//
//   // vitest.config.js
//   export default defineConfig({ test: { globalSetup: ['kafkaesque/vitest'], setupFiles: ['kafkaesque/vitest/setup'] } });
//
// Options: KAFKAESQUE_OPTIONS / KAFKAESQUE_PRESETS, or a globalSetup file of
// your own: `export default kafkaesqueGlobalSetup({ topics: [...] })`.
import { availableParallelism } from 'node:os';
import { publishEndpoints, type ClusterEndpoint } from '../fixture/endpoint.js';
import { fixtureOptions, type FixtureOptions } from '../jest/options.js';

interface PoolOptionsLike {
  maxForks?: number;
  maxThreads?: number;
  singleFork?: boolean;
  singleThread?: boolean;
}

/** The part of vitest's TestProject that globalSetup uses. */
export interface VitestProjectLike {
  config: { pool?: string; maxWorkers?: number; watch?: boolean; fileParallelism?: boolean; poolOptions?: Record<string, PoolOptionsLike | undefined> };
  provide(key: 'kafkaesque', value: ClusterEndpoint[]): void;
}

/** How many workers vitest's pool runs at most (the ids VITEST_POOL_ID takes: 1..n), as vitest computes it. */
export function vitestWorkers(config: VitestProjectLike['config']): number {
  if (config.fileParallelism === false) return 1;
  const pool = config.pool ?? 'forks';
  const o = config.poolOptions?.[pool] ?? {};
  if (o.singleFork || o.singleThread) return 1;
  const cpus = availableParallelism();
  const byDefault = config.watch ? Math.max(Math.floor(cpus / 2), 1) : Math.max(cpus - 1, 1);
  return Math.max(1, (pool.includes('fork') ? o.maxForks : o.maxThreads) ?? config.maxWorkers ?? byDefault);
}

/** A globalSetup with these options (under KAFKAESQUE_OPTIONS and KAFKAESQUE_PRESETS). */
export function kafkaesqueGlobalSetup(options: FixtureOptions = {}) {
  return async function setup(project: VitestProjectLike): Promise<() => Promise<void>> {
    // Loaded here, not at import: test files import this module for its helpers, and need none of the broker.
    const { startFixtureClusters, endpointOf } = await import('../fixture/clusters.js');
    const clusters = await startFixtureClusters(fixtureOptions({ kafkaesque: options }), vitestWorkers(project.config));
    const endpoints = clusters.map(endpointOf);
    project.provide('kafkaesque', endpoints);
    publishEndpoints(endpoints);
    return async () => {
      await Promise.all(clusters.map((c) => c.stop()));
    };
  };
}

export default kafkaesqueGlobalSetup();

declare module 'vitest' {
  export interface ProvidedContext {
    kafkaesque: ClusterEndpoint[];
  }
}
