// Small helpers the handlers share: node endpoints and leader fields.
import type { Cluster } from '../cluster.js';
import type { Partition } from '../partition.js';

export function nodeEndpoint(cluster: Cluster, nodeId: number) {
  const n = cluster.nodes.get(nodeId);
  return n ? { nodeId: n.nodeId, host: n.host, port: n.port, rack: n.rack } : null;
}

/** Endpoints of the current leaders named in NOT_LEADER_OR_FOLLOWER answers (Produce v10+, Fetch v16+). */
export function leaderEndpoints(cluster: Cluster, partitions: Iterable<Partition>) {
  const ids = new Set<number>();
  for (const p of partitions) if (p.leader >= 0) ids.add(p.leader);
  return [...ids].sort((a, b) => a - b).flatMap((id) => nodeEndpoint(cluster, id) ?? []);
}
