// Reset: the cluster as it was started, on the same nodes and ports, so that
// one running instance can serve test after test. Order matters: faults go
// first (a rule must not act on what follows), stopped nodes start again (so
// the start topics get their full replica sets), then the data goes.
//
// Kept across a reset: the event log (its seq keeps increasing), the producer
// id allocator (a client still holding an old id cannot collide with a new
// one), the replication lag and paused followers set through the model.
import type { TopicSpec } from '../options.js';
import type { ControlTarget } from './target.js';
import type { ResetResult } from './types.js';

/** Resets a running cluster; `topics` are the ones of its `topics` start option, created again. */
export async function resetCluster({ cluster, chaos, startNode }: Pick<ControlTarget, 'cluster' | 'chaos' | 'startNode'>, topics: readonly TopicSpec[]): Promise<ResetResult> {
  const rulesCleared = chaos ? chaos.clearRules() : 0;
  const nodesStarted: number[] = [];
  for (const node of cluster.nodes.values()) {
    if (node.alive) continue;
    await startNode(node.nodeId);
    nodesStarted.push(node.nodeId);
  }
  // Before the topics: parked JoinGroup/SyncGroup requests are answered, open transactions forgotten.
  const groupsDeleted = cluster.groups.reset();
  const transactionsDeleted = cluster.transactions.reset();
  const topicsDeleted = [...cluster.topics.keys()];
  for (const name of topicsDeleted) cluster.deleteTopic(name);
  const topicsCreated: string[] = [];
  for (const t of topics) {
    const r = cluster.createTopic(t.name, { numPartitions: t.partitions, replicationFactor: t.replicationFactor, configs: t.configs });
    if (!r.ok) throw new Error(`reset: cannot create topic ${t.name}: ${r.error}: ${r.message}`);
    topicsCreated.push(t.name);
  }
  cluster.log.info({ rulesCleared, nodesStarted, topicsDeleted: topicsDeleted.length, groupsDeleted, transactionsDeleted, topicsCreated }, 'cluster reset');
  return { rulesCleared, nodesStarted, topicsDeleted, groupsDeleted, transactionsDeleted, topicsCreated };
}
