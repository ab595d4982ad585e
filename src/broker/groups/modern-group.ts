// What the groups of the new coordinator protocols share (Kafka's
// modern/ModernGroup): the subscribed topics' metadata whose change bumps the
// group epoch, and the assignment as the heartbeat responses carry it.
import type { Cluster } from '../cluster.js';
import type { Assignment } from './assignors/assignor.js';

/** The subscribed topics that exist, with their ids and partition counts, as one comparable string (4.x's metadata hash). */
export function subscriptionMetadata(cluster: Cluster, names: Iterable<string>): string {
  return [...names]
    .sort()
    .map((name) => {
      const t = cluster.topic(name);
      return t ? `${name}:${t.topicId}:${t.partitions.length}` : '';
    })
    .filter((s) => s !== '')
    .join(',');
}

/** An assignment as a heartbeat response's topic partitions: by topic id, partitions ascending. */
export function toTopicPartitions(a: Assignment): { topicId: string; partitions: number[] }[] {
  return [...a].map(([topicId, ps]) => ({ topicId, partitions: [...ps].sort((x, y) => x - y) }));
}
