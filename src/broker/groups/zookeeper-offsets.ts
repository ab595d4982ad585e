// Offsets committed with OffsetCommit v0 on a ZooKeeper-era broker: Kafka
// 2.x wrote them to ZooKeeper (/consumers/<group>/offsets/<topic>/<partition>,
// KafkaZkClient#setOrCreateConsumerOffset), beside the offsets its group
// coordinator keeps, and OffsetFetch v0 read them back from there. Only the
// offset is kept: no metadata, no group, no coordinator (KafkaApis 2.8.2,
// handleOffsetCommitRequest and handleOffsetFetchRequest, version 0).
export class ZooKeeperOffsets {
  private readonly offsets = new Map<string, number>();

  private static key(groupId: string, topic: string, partition: number): string {
    return `${groupId}\u0000${topic}\u0000${partition}`;
  }

  set(groupId: string, topic: string, partition: number, offset: number): void {
    this.offsets.set(ZooKeeperOffsets.key(groupId, topic, partition), offset);
  }

  /** The stored offset, or -1 (OffsetFetchResponse.INVALID_OFFSET) when there is none. */
  get(groupId: string, topic: string, partition: number): number {
    return this.offsets.get(ZooKeeperOffsets.key(groupId, topic, partition)) ?? -1;
  }

  /** Forgets them all (the control API's reset); returns how many there were. */
  clear(): number {
    const n = this.offsets.size;
    this.offsets.clear();
    return n;
  }
}
