import { awaitReplication } from '../../src/broker/append.js';
import { decodeRecords } from '../../src/protocol/record-batch.js';
import { modelCluster, produce } from '../support/cluster.js';

describe('topics', () => {
  test('leaders spread across nodes and every replica starts in the ISR', () => {
    const { cluster } = modelCluster();
    const t = cluster.createTopic('orders', { numPartitions: 6, replicationFactor: 3 });
    if (!t.ok) throw new Error(t.message);
    const leaders = t.value.partitions.map((p) => p.leader);
    expect(new Set(leaders)).toEqual(new Set([0, 1, 2]));
    for (const p of t.value.partitions) {
      expect(p.replicas).toHaveLength(3);
      expect(p.isr).toEqual(p.replicas);
      expect(p.leaderEpoch).toBe(0);
    }
    expect(t.value.topicId).toMatch(/^[0-9a-f-]{36}$/);
  });

  test('creation is refused as Kafka refuses it', () => {
    const { cluster } = modelCluster();
    cluster.createTopic('a.b');
    const cases: [string, object, string][] = [
      ['bad name!', {}, 'INVALID_TOPIC_EXCEPTION'],
      ['x'.repeat(250), {}, 'INVALID_TOPIC_EXCEPTION'],
      ['a_b', {}, 'INVALID_TOPIC_EXCEPTION'],
      ['a.b', {}, 'TOPIC_ALREADY_EXISTS'],
      ['t1', { replicationFactor: 0 }, 'INVALID_REPLICATION_FACTOR'],
      ['t2', { numPartitions: 0 }, 'INVALID_PARTITIONS'],
      ['t3', { replicationFactor: 4 }, 'INVALID_REPLICATION_FACTOR'],
      ['t4', { configs: { 'no.such.config': '1' } }, 'INVALID_CONFIG'],
      ['t5', { configs: { 'min.insync.replicas': 'zero' } }, 'INVALID_CONFIG'],
      ['t6', { assignments: [{ partitionIndex: 0, brokerIds: [0, 0] }] }, 'INVALID_REPLICA_ASSIGNMENT'],
    ];
    for (const [name, spec, error] of cases) {
      const r = cluster.createTopic(name, spec);
      expect(r.ok ? 'created' : r.error).toBe(error);
    }
  });
});

describe('replication', () => {
  test('the high watermark is the minimum log end offset over the ISR', () => {
    const { cluster, clock } = modelCluster({ replicationLagMs: 100 });
    cluster.createTopic('t', { numPartitions: 1, replicationFactor: 3 });
    const p = cluster.partition('t', 0)!;
    const r = produce(cluster, 't', 0, 5);
    expect(r).toMatchObject({ error: 'NONE', baseOffset: 0, lastOffset: 4 });
    expect(p.logEndOffset).toBe(5);
    expect(p.highWatermark).toBe(0);
    clock.advance(100);
    expect(p.highWatermark).toBe(5);
  });

  test('acks=all waits for the followers and times out with REQUEST_TIMED_OUT, keeping the data', async () => {
    const { cluster, clock } = modelCluster();
    const t = cluster.createTopic('t', { numPartitions: 1, replicationFactor: 3 });
    if (!t.ok) throw new Error();
    const p = t.value.partitions[0]!;
    cluster.pauseReplication(2);
    const r = produce(cluster, 't', 0, 1);
    const wait = awaitReplication(cluster, t.value, p, r.lastOffset, 30000);
    clock.advance(29999);
    cluster.resumeReplication(2);
    await expect(wait).resolves.toBe('NONE');

    cluster.pauseReplication(1);
    const r2 = produce(cluster, 't', 0, 1);
    const wait2 = awaitReplication(cluster, t.value, p, r2.lastOffset, 30000);
    clock.advance(30000);
    await expect(wait2).resolves.toBe('REQUEST_TIMED_OUT');
    expect(p.logEndOffset).toBe(2);
  });

  test('an acks=all write still waiting when the leadership moves fails with NOT_LEADER_OR_FOLLOWER, never NONE for records the new leader lacks', async () => {
    const { cluster, clock } = modelCluster({ replicationLagMs: 500 });
    const t = cluster.createTopic('moving', { numPartitions: 1, replicationFactor: 3 });
    if (!t.ok) throw new Error();
    const p = t.value.partitions[0]!;
    const r = produce(cluster, 'moving', 0, 1);
    const wait = awaitReplication(cluster, t.value, p, r.lastOffset, 30000);
    // A lagging follower takes over: the record is truncated away, and new writes fill its offset.
    expect(cluster.electLeader('moving', 0)).toMatchObject({ ok: true, value: { truncatedFrom: 0 } });
    produce(cluster, 'moving', 0, 2);
    clock.advance(500);
    await expect(wait).resolves.toBe('NOT_LEADER_OR_FOLLOWER');
  });

  test('min.insync.replicas refuses acks=all before the append, and reports a shrink after it', async () => {
    const { cluster } = modelCluster({ minInsyncReplicas: 2 });
    const t = cluster.createTopic('t', { numPartitions: 1, replicationFactor: 3 });
    if (!t.ok) throw new Error();
    const p = t.value.partitions[0]!;
    cluster.stopNode(1);
    cluster.stopNode(2);
    expect(p.isr).toEqual([0]);
    expect(produce(cluster, 't', 0, 1, -1).error).toBe('NOT_ENOUGH_REPLICAS');
    expect(produce(cluster, 't', 0, 1, 1).error).toBe('NONE');
    cluster.startNode(1);
    expect(p.isr).toEqual([0, 1]);

    cluster.pauseReplication(1);
    const r = produce(cluster, 't', 0, 1, -1);
    const wait = awaitReplication(cluster, t.value, p, r.lastOffset, 1000);
    cluster.shrinkIsr('t', 0, 1);
    await expect(wait).resolves.toBe('NOT_ENOUGH_REPLICAS_AFTER_APPEND');
  });
});

describe('leader election', () => {
  test('a clean election bumps the epoch and keeps everything acks=all acknowledged', () => {
    const { cluster } = modelCluster();
    cluster.createTopic('t', { numPartitions: 1, replicationFactor: 3 });
    const p = cluster.partition('t', 0)!;
    produce(cluster, 't', 0, 3);
    const change = cluster.electLeader('t', 0);
    expect(change).toMatchObject({ ok: true, value: { leader: 1, leaderEpoch: 1, unclean: false, truncatedFrom: null } });
    expect(p.logEndOffset).toBe(3);
    expect(p.highWatermark).toBe(3);
    expect(p.endOffsetForEpoch(0)).toEqual({ leaderEpoch: 0, endOffset: 3 });
  });

  test('a new leader that lagged truncates the unreplicated acks=1 tail', () => {
    const { cluster } = modelCluster();
    cluster.createTopic('t', { numPartitions: 1, replicationFactor: 2 });
    const p = cluster.partition('t', 0)!;
    produce(cluster, 't', 0, 2, 1);
    cluster.pauseReplication(p.replicas[1]!);
    produce(cluster, 't', 0, 3, 1);
    expect(p.logEndOffset).toBe(5);
    cluster.shrinkIsr('t', 0, p.replicas[1]!);
    expect(cluster.electLeader('t', 0, { nodeId: p.replicas[1]! }).ok).toBe(false);
    const change = cluster.electLeader('t', 0, { nodeId: p.replicas[1]!, unclean: true });
    expect(change).toMatchObject({ ok: true, value: { unclean: true, truncatedFrom: 2 } });
    expect(p.logEndOffset).toBe(2);
    expect(p.leader).toBe(p.replicas[1]);
    // The old leader truncated to the new leader's log, so it is back in sync.
    expect(p.isr).toEqual(p.replicas);
    const values = p.log.read(0, Infinity, Infinity, true).flatMap((b) => decodeRecords(b.bytes).map((r) => r.value?.toString()));
    expect(values).toEqual(['v0', 'v1']);
  });

  test('stopping the leader moves leadership; stopping every replica takes the partition offline until one returns', () => {
    const { cluster } = modelCluster();
    cluster.createTopic('t', { numPartitions: 1, replicationFactor: 3 });
    const p = cluster.partition('t', 0)!;
    const first = p.leader;
    cluster.stopNode(first);
    expect(p.leader).not.toBe(first);
    expect(p.isr).not.toContain(first);
    expect(cluster.liveNodes().map((n) => n.nodeId)).not.toContain(first);
    for (const n of [0, 1, 2]) cluster.stopNode(n);
    expect(p.leader).toBe(-1);
    const last = p.isr[0]!;
    cluster.startNode(last);
    expect(p.leader).toBe(last);
    cluster.startNode(first);
    expect(p.isr).toContain(first);
  });
});
