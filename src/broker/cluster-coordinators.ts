// The coordinators a cluster runs: consumer groups, share partitions and
// transactions. The composition roots (src/start.ts, the tests' model
// cluster) hand this factory to `new Cluster`, so that importing the cluster
// model, as `import('kafkaesque')` does for the exported `Cluster` class,
// does not load the coordinators' ~200 KB (issue 21, item 3): startCluster
// loads them with the rest of a start.
import type { Cluster, ClusterCoordinators } from './cluster.js';
import { GroupCoordinator } from './groups/group-coordinator.js';
import { SharePartitions } from './share/share-partitions.js';
import { TransactionCoordinator } from './transactions/transaction-coordinator.js';

/** Builds them in this order, in the cluster's constructor: each subscribes to the cluster's events as it is made. */
export function createCoordinators(cluster: Cluster, options: { transactionMaxTimeoutMs?: number }): ClusterCoordinators {
  return {
    groups: new GroupCoordinator(cluster),
    shares: new SharePartitions(cluster),
    transactions: new TransactionCoordinator(cluster, options.transactionMaxTimeoutMs ? { transactionMaxTimeoutMs: options.transactionMaxTimeoutMs } : {}),
  };
}
