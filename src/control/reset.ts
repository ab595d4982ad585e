// Reset: the cluster as it was started, on the same nodes and ports, so that
// one running instance can serve test after test. Order matters: faults go
// first (a rule must not act on what follows), stopped nodes start again (so
// the start topics get their full replica sets), then the data goes.
//
// The start presets are applied again last, so that a suite started with
// `--preset flaky-network` keeps its faults from test to test.
//
// Kept across a reset: the event log (its seq keeps increasing), the producer
// id allocator (a client still holding an old id cannot collide with a new
// one), the replication lag and paused followers set through the model.
import type { TopicSpec } from '../options.js';
import { createCoordinatorTopics } from '../broker/coordinators.js';
import { applyPreset } from '../presets/apply.js';
import type { Preset } from '../presets/validate.js';
import type { ControlTarget } from './target.js';
import type { ResetResult } from './types.js';

/** Resets a running cluster to its start state: `topics` and `presets` are those of its start options, created and applied again. */
export async function resetCluster(
  { cluster, chaos, startNode }: Pick<ControlTarget, 'cluster' | 'chaos' | 'startNode'>,
  topics: readonly TopicSpec[],
  presets: readonly Preset[] = [],
  { coldStart = false }: { coldStart?: boolean } = {},
): Promise<ResetResult> {
  if (!cluster) throw new Error('reset: no cluster model here (upstream mode clears faults only: RunningProxy.reset)');
  const rulesCleared = chaos ? chaos.clearRules() : 0;
  const nodesStarted: number[] = [];
  for (const node of cluster.nodes.values()) {
    if (node.alive) continue;
    await startNode(node.nodeId);
    nodesStarted.push(node.nodeId);
  }
  // Replication lag and paused followers, as chaos actions (replication-lag, pause-replication) leave them, go back to the start's.
  cluster.resetReplication();
  // Before the topics: parked JoinGroup/SyncGroup requests are answered, open transactions forgotten.
  const groupsDeleted = cluster.groups.reset();
  const transactionsDeleted = cluster.transactions.reset();
  // ACLs are data like topics: back to the start's.
  cluster.authorizer?.reset();
  const topicsDeleted = [...cluster.topics.keys()];
  for (const name of topicsDeleted) cluster.deleteTopic(name);
  const topicsCreated: string[] = [];
  // As started: a warm cluster gets its internal topics back at once.
  if (!coldStart) {
    createCoordinatorTopics(cluster);
    topicsCreated.push(...[...cluster.topics.values()].filter((t) => t.internal).map((t) => t.name));
  }
  for (const t of topics) {
    const r = cluster.createTopic(t.name, { numPartitions: t.partitions, replicationFactor: t.replicationFactor, configs: t.configs });
    if (!r.ok) throw new Error(`reset: cannot create topic ${t.name}: ${r.error}: ${r.message}`);
    topicsCreated.push(t.name);
  }
  const presetsApplied = chaos ? presets.map((p) => (applyPreset(chaos, p), p.name)) : [];
  cluster.log.info({ rulesCleared, nodesStarted, topicsDeleted: topicsDeleted.length, groupsDeleted, transactionsDeleted, topicsCreated, presetsApplied }, 'cluster reset');
  return { rulesCleared, nodesStarted, topicsDeleted, groupsDeleted, transactionsDeleted, topicsCreated, presetsApplied };
}
