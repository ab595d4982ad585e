// The `range` assignor (Kafka's RangeAssignor in group-coordinator): topic by
// topic, the members subscribed to it in member id order take consecutive
// ranges of its partitions, the first (partitions % members) one more. Members
// with the same subscriptions so get the same partition numbers of
// co-partitioned topics (joins). Kafka's 4.x RangeAssignor also keeps a
// partition with its owner where the ranges allow; this one recomputes.
import { addPartition, type Assignment, type ConsumerGroupPartitionAssignor } from './assignor.js';

export const rangeAssignor: ConsumerGroupPartitionAssignor = {
  name: 'range',
  assign(members, topics) {
    const sorted = [...members].sort((a, b) => (a.memberId < b.memberId ? -1 : a.memberId > b.memberId ? 1 : 0));
    const out = new Map<string, Assignment>(sorted.map((m) => [m.memberId, new Map()]));
    for (const topic of topics.values()) {
      const subscribed = sorted.filter((m) => m.subscribedTopicIds.includes(topic.topicId));
      if (subscribed.length === 0) continue;
      const quota = Math.floor(topic.partitions / subscribed.length);
      const extra = topic.partitions % subscribed.length;
      let next = 0;
      subscribed.forEach((m, i) => {
        const n = quota + (i < extra ? 1 : 0);
        for (let k = 0; k < n; k++) addPartition(out.get(m.memberId)!, topic.topicId, next++);
      });
    }
    return out;
  },
};
