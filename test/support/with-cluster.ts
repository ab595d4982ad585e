// A cluster of its own for one test body (one broker unless the options say
// otherwise), stopped when the body ends, whether it passed or threw.
import { startCluster, type RunningCluster } from '../../src/index.js';
import type { KafkaesqueOptions } from '../../src/options.js';

export async function withCluster(options: Partial<KafkaesqueOptions>, body: (k: RunningCluster) => Promise<void>): Promise<void> {
  const k = await startCluster({ brokers: 1, ...options });
  try {
    await body(k);
  } finally {
    await k.stop();
  }
}
