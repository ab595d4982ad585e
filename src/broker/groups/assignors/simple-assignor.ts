// The share-group assignor of Kafka 4.4 ("simple": assignor/SimpleAssignor
// with its SimpleHomogeneousAssignmentBuilder and
// SimpleHeterogeneousAssignmentBuilder). Unlike a consumer group's, a
// partition may go to several members: each assignable partition goes to
// desiredSharing = ceil(members / partitions) of them, and member i takes
// ceil(p·(i+1)) - ceil(p·i) partitions, p = desiredSharing·partitions/members.
// It is sticky: a member keeps what it had, within those counts. Which member
// gets which partition follows Java's hash-map iteration order, as Kafka's
// does (java-hash-order.ts), so the same members get the same assignment.
import { addPartition, copyAssignment, type Assignment } from './assignor.js';
import { DEFAULT_CAPACITY, JavaHashMap, JavaHashSet, copiedFrom, integerHash, sizedFor, stringHash, topicIdPartitionHash, uuidHash } from './java-hash-order.js';

export const SIMPLE_ASSIGNOR = 'simple';

export interface ShareAssignorMember {
  readonly memberId: string;
  /** The topics the member subscribes to that exist, by id. */
  readonly subscribedTopicIds: readonly string[];
  /** Its current target assignment. */
  readonly currentTarget: Assignment;
}

export interface ShareAssignorInput {
  /** The members, in the order the group holds them. */
  readonly members: readonly ShareAssignorMember[];
  readonly partitionCount: (topicId: string) => number;
  /** Only initialized share partitions may be assigned. */
  readonly assignable: (topicId: string, partition: number) => boolean;
  /** Every member subscribes to the same topics. */
  readonly homogeneous: boolean;
}

/**
 * A member's subscribed names in the order of a Java `new HashSet<>(names)`,
 * resolved to topic ids; names of topics that do not exist are left out.
 */
export function subscribedTopicIdsInJavaOrder(names: readonly string[], topicId: (name: string) => string | undefined): string[] {
  const set = new JavaHashSet<string>(stringHash, copiedFrom(names.length));
  for (const n of names) set.add(n);
  return set.values().flatMap((n) => topicId(n) ?? []);
}

/** desiredAssignmentCount: member i of n takes ceil(p·(i+1)) - ceil(p·i), p = sharing·partitions/n. */
function desiredCounts(n: number, sharing: number, partitions: number): number[] {
  const precise = (sharing * partitions) / n;
  return Array.from({ length: n }, (_, i) => Math.ceil(precise * (i + 1)) - Math.ceil(precise * i));
}

const sharingFor = (members: number, partitions: number) => (partitions === 0 ? 0 : Math.ceil(members / partitions));

const tpKey = (t: string, p: number) => `${t}:${p}`;
const splitKey = (k: string) => {
  const i = k.lastIndexOf(':');
  return { topicId: k.slice(0, i), partition: Number(k.slice(i + 1)) };
};
const tpHash = (k: string) => {
  const { topicId, partition } = splitKey(k);
  return topicIdPartitionHash(topicId, partition);
};

/** SimpleAssignor#assign: member id → its new target assignment. */
export function assignShareGroup(input: ShareAssignorInput): Map<string, Assignment> {
  if (input.members.length === 0) return new Map();
  // groupSpec.memberIds(): the keys of a HashMap of the members.
  const specs = new JavaHashMap<string, ShareAssignorMember>(stringHash);
  for (const m of input.members) specs.set(m.memberId, m);
  const members = specs.keys().map((id) => specs.get(id)!);
  const assignment = input.homogeneous ? homogeneous(members, input) : heterogeneous(members, input);
  return new Map(members.map((m, i) => [m.memberId, assignment[i]!]));
}

function homogeneous(members: ShareAssignorMember[], input: ShareAssignorInput): Assignment[] {
  const topics = members[0]!.subscribedTopicIds;
  if (topics.length === 0) return members.map(() => new Map());
  const subscribed = new Set(topics);
  const targetPartitions: string[] = [];
  for (const t of topics) for (let p = 0; p < input.partitionCount(t); p++) if (input.assignable(t, p)) targetPartitions.push(tpKey(t, p));
  const n = members.length;
  const sharing = sharingFor(n, targetPartitions.length);
  const desired = desiredCounts(n, sharing, targetPartitions.length);
  const old = members.map((m) => m.currentTarget);
  const next: (Assignment | null)[] = members.map(() => null);
  const newOf = (i: number) => (next[i] ??= copyAssignment(old[i]!));
  const byPartition = new JavaHashMap<string, JavaHashSet<number>>(tpHash, sizedFor(targetPartitions.length));
  const byMember = new JavaHashMap<number, JavaHashSet<string>>(integerHash, sizedFor(n));
  const memberSet = (i: number) => byMember.computeIfAbsent(i, () => new JavaHashSet(tpHash, DEFAULT_CAPACITY));
  const holders = (k: string) => byPartition.computeIfAbsent(k, () => new JavaHashSet(integerHash, DEFAULT_CAPACITY));
  const unfilled = new JavaHashSet<number>(integerHash, sizedFor(n));
  const overfilled = new JavaHashSet<number>(integerHash, sizedFor(n));

  // revokeUnassignablePartitions: what members keep of topics still subscribed.
  for (let i = 0; i < n; i++) {
    let count = 0;
    for (const [t, ps] of old[i]!) {
      if (!subscribed.has(t)) {
        newOf(i).delete(t);
        continue;
      }
      for (const p of [...ps].sort((a, b) => a - b)) {
        holders(tpKey(t, p)).add(i);
        memberSet(i).add(tpKey(t, p));
        if (++count >= desired[i]! && next[i] === null) newOf(i);
      }
    }
    if (count < desired[i]!) unfilled.add(i);
    else if (count > desired[i]!) overfilled.add(i);
  }
  // revokeOverfilledMembers.
  for (const i of overfilled.values()) {
    const mine = byMember.get(i)!;
    for (const k of mine.values()) {
      if (mine.size <= desired[i]!) break;
      const { topicId, partition } = splitKey(k);
      newOf(i).get(topicId)?.delete(partition);
      byPartition.get(k)!.delete(i);
      mine.delete(k);
    }
  }
  // revokeOversharedPartitions.
  for (const [k, assigned] of byPartition.entriesInOrder()) {
    if (assigned.size <= sharing) continue;
    const { topicId, partition } = splitKey(k);
    for (const i of assigned.values()) {
      if (newOf(i).get(topicId)?.delete(partition)) {
        assigned.delete(i);
        byMember.get(i)!.delete(k);
        unfilled.add(i);
      }
      if (assigned.size <= sharing) break;
    }
  }
  for (const k of targetPartitions) holders(k);
  assignRemaining(byPartition.entriesInOrder(), unfilled, sharing, (i, k) => {
    const { topicId, partition } = splitKey(k);
    addPartition(newOf(i), topicId, partition);
    const mine = memberSet(i);
    mine.add(k);
    return mine.size >= desired[i]!;
  });
  return members.map((_, i) => dropEmpty(next[i] ?? old[i]!));
}

function heterogeneous(members: ShareAssignorMember[], input: ShareAssignorInput): Assignment[] {
  const n = members.length;
  const topics = new JavaHashSet<string>(uuidHash);
  for (const m of members) for (const t of m.subscribedTopicIds) topics.add(t);
  if (topics.size === 0) return members.map(() => new Map());
  const old = members.map((m) => m.currentTarget);
  const next: (Assignment | null)[] = members.map(() => null);
  const newOf = (i: number) => (next[i] ??= copyAssignment(old[i]!));
  for (const t of topics.values()) {
    const targetPartitions: number[] = [];
    for (let p = 0; p < input.partitionCount(t); p++) if (input.assignable(t, p)) targetPartitions.push(p);
    const subscribers = members.flatMap((m, i) => (m.subscribedTopicIds.includes(t) ? [i] : []));
    const sharing = sharingFor(subscribers.length, targetPartitions.length);
    const desired = new Array<number>(n).fill(0);
    desiredCounts(subscribers.length, sharing, targetPartitions.length).forEach((c, k) => (desired[subscribers[k]!] = c));
    const byPartition = new JavaHashMap<number, JavaHashSet<number>>(integerHash, sizedFor(targetPartitions.length));
    const byMember = new JavaHashMap<number, JavaHashSet<number>>(integerHash, sizedFor(subscribers.length));
    for (let i = 0; i < n; i++) {
      const ps = old[i]!.get(t);
      if (!ps) continue;
      for (const p of [...ps].sort((a, b) => a - b)) {
        byPartition.computeIfAbsent(p, () => new JavaHashSet(integerHash)).add(i);
        byMember.computeIfAbsent(i, () => new JavaHashSet(integerHash)).add(p);
      }
    }
    for (const [i, mine] of byMember.entriesInOrder()) {
      for (const p of mine.values()) {
        if (mine.size <= desired[i]!) break;
        byPartition.get(p)!.delete(i);
        mine.delete(p);
        newOf(i).get(t)?.delete(p);
      }
    }
    for (const [p, assigned] of byPartition.entriesInOrder()) {
      if (assigned.size <= sharing) continue;
      for (const i of assigned.values()) {
        if (newOf(i).get(t)?.delete(p)) {
          assigned.delete(i);
          byMember.get(i)!.delete(p);
        }
        if (assigned.size <= sharing) break;
      }
    }
    for (const p of targetPartitions) byPartition.computeIfAbsent(p, () => new JavaHashSet(integerHash, sizedFor(subscribers.length)));
    const unfilled = new JavaHashSet<number>(integerHash, sizedFor(n));
    for (const i of subscribers) if ((byMember.get(i)?.size ?? 0) < desired[i]!) unfilled.add(i);
    assignRemaining(byPartition.entriesInOrder(), unfilled, sharing, (i, p) => {
      addPartition(newOf(i), t, p);
      const mine = byMember.computeIfAbsent(i, () => new JavaHashSet(integerHash));
      mine.add(p);
      return mine.size >= desired[i]!;
    });
  }
  return members.map((_, i) => dropEmpty(next[i] ?? old[i]!));
}

/**
 * assignRemainingPartitions: partitions short of `sharing` holders are dealt
 * round-robin to the unfilled members, one iterator carried across
 * partitions and started again while a pass still granted something. The
 * holders checked are those before this step, as Kafka's are. `grant`
 * returns true when the member is now full.
 */
function assignRemaining<K>(partitions: [K, JavaHashSet<number>][], unfilled: JavaHashSet<number>, sharing: number, grant: (member: number, partition: K) => boolean): void {
  if (unfilled.size === 0) return;
  let order = unfilled.values();
  let at = 0;
  let grantedThisPass = false;
  for (const [k, assigned] of partitions) {
    let toMake = sharing - assigned.size;
    while (toMake > 0) {
      while (at < order.length && !unfilled.has(order[at]!)) at++;
      if (at >= order.length) {
        if (!grantedThisPass) break;
        order = unfilled.values();
        at = 0;
        grantedThisPass = false;
        if (order.length === 0) break;
      }
      const i = order[at++]!;
      if (assigned.has(i)) continue;
      toMake--;
      grantedThisPass = true;
      if (grant(i, k)) unfilled.delete(i);
    }
    if (unfilled.size === 0) break;
  }
}

/** A topic left with no partitions is not part of the assignment. */
function dropEmpty(a: Assignment): Assignment {
  for (const [t, ps] of a) if (ps.size === 0) a.delete(t);
  return a;
}
