// The server-side assignor contract of KIP-848 groups (Kafka's
// ConsumerGroupPartitionAssignor): given every member's subscription and the
// current target assignment, the next target assignment. Partitions are keyed
// by topic id, as Kafka's Assignment is.

/** Topic id → partitions. */
export type Assignment = Map<string, Set<number>>;

export interface AssignorMember {
  readonly memberId: string;
  readonly instanceId: string | null;
  /** Topic ids the member subscribes to that exist. */
  readonly subscribedTopicIds: readonly string[];
  /** The member's current target assignment (stickiness). */
  readonly currentTarget: Assignment;
}

export interface AssignorTopic {
  readonly topicId: string;
  readonly name: string;
  readonly partitions: number;
}

export interface ConsumerGroupPartitionAssignor {
  readonly name: string;
  /** memberId → its new target assignment; every member gets an entry. */
  assign(members: readonly AssignorMember[], topics: ReadonlyMap<string, AssignorTopic>): Map<string, Assignment>;
}

export function copyAssignment(a: Assignment): Assignment {
  return new Map([...a].map(([t, ps]) => [t, new Set(ps)]));
}

export function addPartition(a: Assignment, topicId: string, partition: number): void {
  let ps = a.get(topicId);
  if (!ps) a.set(topicId, (ps = new Set()));
  ps.add(partition);
}

export function removePartition(a: Assignment, topicId: string, partition: number): void {
  const ps = a.get(topicId);
  if (!ps) return;
  ps.delete(partition);
  if (ps.size === 0) a.delete(topicId);
}

export function assignmentSize(a: Assignment): number {
  let n = 0;
  for (const ps of a.values()) n += ps.size;
  return n;
}

export function sameAssignment(a: Assignment, b: Assignment): boolean {
  if (a.size !== b.size) return false;
  for (const [t, ps] of a) {
    const other = b.get(t);
    if (!other || other.size !== ps.size) return false;
    for (const p of ps) if (!other.has(p)) return false;
  }
  return true;
}
