// The `uniform` assignor (Kafka's UniformAssignor, the default of
// group.consumer.assignors): every partition of the subscribed topics goes to
// one member subscribed to its topic, the counts as even as the
// subscriptions allow, and a partition stays with its current owner where
// that keeps the balance (stickiness). Kafka's Uniform{Homogeneous,
// Heterogeneous}AssignmentBuilder reach the same balance; which member gets
// which partition may differ from theirs when partitions have to move.
import { addPartition, assignmentSize, removePartition, type Assignment, type AssignorMember, type ConsumerGroupPartitionAssignor } from './assignor.js';

export const uniformAssignor: ConsumerGroupPartitionAssignor = {
  name: 'uniform',
  assign(members, topics) {
    const sorted = [...members].sort((a, b) => (a.memberId < b.memberId ? -1 : a.memberId > b.memberId ? 1 : 0));
    const out = new Map<string, Assignment>(sorted.map((m) => [m.memberId, new Map()]));
    const subscribers = new Map<string, AssignorMember[]>();
    for (const m of sorted) for (const t of m.subscribedTopicIds) if (topics.has(t)) (subscribers.get(t) ?? subscribers.set(t, []).get(t)!).push(m);
    const count = (m: AssignorMember) => assignmentSize(out.get(m.memberId)!);
    // Each member's fair share of what it could take: a member keeps at most its ceiling.
    const eligible = new Map(sorted.map((m) => [m.memberId, m.subscribedTopicIds.filter((t) => topics.has(t)).reduce((n, t) => n + topics.get(t)!.partitions, 0)]));
    const total = [...subscribers.keys()].reduce((n, t) => n + topics.get(t)!.partitions, 0);
    const ceiling = (m: AssignorMember) => Math.min(eligible.get(m.memberId)!, Math.ceil(total / Math.max(1, sorted.filter((o) => eligible.get(o.memberId)! > 0).length)));
    const owner = new Map<string, AssignorMember>();
    const key = (t: string, p: number) => `${t}:${p}`;
    // 1. Stickiness: current owners keep their partitions up to their ceiling.
    for (const m of sorted) {
      for (const [t, ps] of m.currentTarget) {
        const topic = topics.get(t);
        if (!topic || !m.subscribedTopicIds.includes(t)) continue;
        for (const p of [...ps].sort((a, b) => a - b)) {
          if (p >= topic.partitions || owner.has(key(t, p)) || count(m) >= ceiling(m)) continue;
          owner.set(key(t, p), m);
          addPartition(out.get(m.memberId)!, t, p);
        }
      }
    }
    // 2. Every other partition to the least loaded member subscribed to its topic.
    const topicIds = [...subscribers.keys()].sort((a, b) => (topics.get(a)!.name < topics.get(b)!.name ? -1 : 1));
    for (const t of topicIds) {
      for (let p = 0; p < topics.get(t)!.partitions; p++) {
        if (owner.has(key(t, p))) continue;
        const m = subscribers.get(t)!.reduce((best, c) => (count(c) < count(best) ? c : best));
        owner.set(key(t, p), m);
        addPartition(out.get(m.memberId)!, t, p);
      }
    }
    // 3. Balance: move partitions from a member to another subscriber with at least two fewer.
    for (let moved = true; moved; ) {
      moved = false;
      for (const t of topicIds) {
        for (let p = 0; p < topics.get(t)!.partitions; p++) {
          const from = owner.get(key(t, p))!;
          const to = subscribers.get(t)!.reduce((best, c) => (count(c) < count(best) ? c : best));
          if (count(from) - count(to) < 2) continue;
          removePartition(out.get(from.memberId)!, t, p);
          addPartition(out.get(to.memberId)!, t, p);
          owner.set(key(t, p), to);
          moved = true;
        }
      }
    }
    return out;
  },
};
