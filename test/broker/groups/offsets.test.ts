// Committed offsets: who may commit when, what OffsetFetch and OffsetDelete
// see, and the transactional offsets the transaction coordinator (issue 4)
// stages and completes through the group coordinator.
import type { ManualClock } from '../../../src/broker/clock.js';
import { GroupDriver, assignment, groupCluster, subscription } from './driver.js';

function stable(g: GroupDriver, clock: ManualClock, protocolType = 'consumer') {
  const a = g.newMember({ protocolType, protocols: [{ name: 'range', metadata: subscription(['t']) }] });
  clock.advance(0);
  g.sync(a.memberId, 1, { [a.memberId]: assignment({ t: [0, 1, 2, 3] }) });
  expect(g.state).toBe('Stable');
  return a.memberId;
}

test('a groupless consumer (generation -1) commits into a new Empty group, and reads its offsets back', () => {
  const { clock, groups } = groupCluster();
  const g = new GroupDriver(groups, 'simple');
  expect(g.commit('', -1, [{ partition: 0, offset: 5, metadata: 'five' }, { partition: 2, offset: 7, metadata: null }])).toEqual(['NONE', 'NONE']);
  expect(g.state).toBe('Empty');
  expect(groups.handleListGroups(g.node, [], []).groups).toEqual([{ groupId: 'simple', protocolType: '', state: 'Empty', groupType: 'classic' }]);
  expect(g.fetch([{ topic: 't', partition: 0 }, { topic: 't', partition: 1 }, { topic: 'other', partition: 0 }])).toEqual({
    error: 'NONE',
    offsets: [
      { topic: 't', partition: 0, offset: 5, leaderEpoch: -1, metadata: 'five', error: 'NONE' },
      { topic: 't', partition: 1, offset: -1, leaderEpoch: -1, metadata: '', error: 'NONE' },
      { topic: 'other', partition: 0, offset: -1, leaderEpoch: -1, metadata: '', error: 'NONE' },
    ],
  });
  // All partitions: only those with an offset.
  expect(g.fetch(null).offsets.map((o) => [o.partition, o.offset, o.metadata])).toEqual([
    [0, 5, 'five'],
    [2, 7, ''],
  ]);
  expect(groups.committedOffsets('simple').map((o) => [o.topic, o.partition, o.offset, o.commitTimestamp])).toEqual([
    ['t', 0, 5, clock.now()],
    ['t', 2, 7, clock.now()],
  ]);
  // An unknown group: -1 for what was asked, nothing for "all".
  const none = new GroupDriver(groups, 'none');
  expect(none.fetch([{ topic: 't', partition: 0 }]).offsets[0]).toMatchObject({ offset: -1, error: 'NONE' });
  expect(none.fetch(null)).toEqual({ error: 'NONE', offsets: [] });
  expect(groups.describe('none')).toBeUndefined();
});

test('metadata over offset.metadata.max.bytes is refused for that partition only', () => {
  const { groups } = groupCluster();
  const g = new GroupDriver(groups, 'meta');
  expect(g.commit('', -1, [
    { partition: 0, offset: 1, metadata: 'x'.repeat(4096) },
    { partition: 1, offset: 1, metadata: 'x'.repeat(4097) },
  ])).toEqual(['NONE', 'OFFSET_METADATA_TOO_LARGE']);
  expect(groups.committedOffsets('meta').map((o) => o.partition)).toEqual([0]);
});

test('members commit in Stable and PreparingRebalance; CompletingRebalance answers REBALANCE_IN_PROGRESS', () => {
  const { clock, groups } = groupCluster();
  const g = new GroupDriver(groups, 'live');
  const a = stable(g, clock);
  expect(g.commit(a, 1, [{ partition: 0, offset: 1 }])).toEqual(['NONE']);
  const b = g.newMember();
  expect(g.state).toBe('PreparingRebalance');
  expect(g.commit(a, 1, [{ partition: 0, offset: 2 }])).toEqual(['NONE']);
  g.join({ memberId: a });
  expect(g.state).toBe('CompletingRebalance');
  expect(g.commit(a, 2, [{ partition: 0, offset: 3 }])).toEqual(['REBALANCE_IN_PROGRESS']);
  expect(g.commit(b.memberId, 1, [{ partition: 0, offset: 3 }])).toEqual(['ILLEGAL_GENERATION']);
  expect(groups.committedOffset('live', 't', 0)).toBe(2);
});

test('OffsetDelete: everything in an Empty group; in a live consumer group only topics nobody subscribes to', () => {
  const { cluster, clock, groups } = groupCluster();
  cluster.createTopic('u', { numPartitions: 1, replicationFactor: 1 });
  const g = new GroupDriver(groups, 'del');
  const a = stable(g, clock);
  g.commit(a, 1, [{ partition: 0, offset: 1 }, { topic: 'u', partition: 0, offset: 1 }]);
  expect(groups.handleDeleteOffsets(g.node, 'del', [{ topic: 't', partition: 0 }, { topic: 'u', partition: 0 }])).toEqual({
    error: 'NONE',
    partitions: ['GROUP_SUBSCRIBED_TO_TOPIC', 'NONE'],
  });
  expect(groups.committedOffsets('del').map((o) => o.topic)).toEqual(['t']);
  g.leave([{ memberId: a }]);
  expect(groups.handleDeleteOffsets(g.node, 'del', [{ topic: 't', partition: 0 }, { topic: 't', partition: 3 }])).toEqual({ error: 'NONE', partitions: ['NONE', 'NONE'] });
  expect(groups.committedOffsets('del')).toEqual([]);
  expect(groups.handleDeleteOffsets(g.node, 'missing', []).error).toBe('GROUP_ID_NOT_FOUND');

  // A live group of another protocol type.
  const other = new GroupDriver(groups, 'connect');
  stable(other, clock, 'connect');
  expect(groups.handleDeleteOffsets(other.node, 'connect', [{ topic: 't', partition: 0 }])).toEqual({ error: 'NON_EMPTY_GROUP', partitions: [] });
});

test('deleting a topic deletes its committed offsets', () => {
  const { cluster, groups } = groupCluster();
  const g = new GroupDriver(groups, 'gone');
  g.commit('', -1, [{ partition: 0, offset: 3 }]);
  cluster.deleteTopic('t');
  expect(groups.committedOffsets('gone')).toEqual([]);
});

describe('transactional offsets (TxnOffsetCommit and markers)', () => {
  test('member checks: no REBALANCE_IN_PROGRESS, generation -1 without a member accepted in any state, an absent group created Empty', () => {
    const { clock, groups } = groupCluster();
    expect(groups.validateTxnOffsetCommitMember('fresh', '', -1, null)).toBe('NONE');
    expect(groups.describe('fresh')?.state).toBe('Empty');
    const g = new GroupDriver(groups, 'txn');
    const a = stable(g, clock);
    expect(groups.validateTxnOffsetCommitMember('txn', '', -1, null)).toBe('NONE');
    expect(groups.validateTxnOffsetCommitMember('txn', a, 1, null)).toBe('NONE');
    expect(groups.validateTxnOffsetCommitMember('txn', a, 0, null)).toBe('ILLEGAL_GENERATION');
    expect(groups.validateTxnOffsetCommitMember('txn', 'ghost', 1, null)).toBe('UNKNOWN_MEMBER_ID');
    expect(groups.validateTxnOffsetCommitMember('txn', a, 1, 'i9')).toBe('UNKNOWN_MEMBER_ID');
    g.newMember();
    g.join({ memberId: a });
    expect(g.state).toBe('CompletingRebalance');
    expect(groups.validateTxnOffsetCommitMember('txn', a, 2, null)).toBe('NONE');
  });

  test('a static member fenced by its replacement gets FENCED_INSTANCE_ID; a Dead group COORDINATOR_NOT_AVAILABLE', () => {
    const { cluster, clock, groups } = groupCluster();
    const g = new GroupDriver(groups, 'static');
    const s = g.join({ instanceId: 'i1' });
    clock.advance(0);
    const old = s.result!.memberId;
    g.sync(old, 1, {}, { instanceId: 'i1' });
    g.join({ instanceId: 'i1' });
    expect(groups.validateTxnOffsetCommitMember('static', old, 1, 'i1')).toBe('FENCED_INSTANCE_ID');
    // The only node stops: the group is unloaded (Dead) and nobody coordinates it.
    cluster.stopNode(0);
    expect(groups.describe('static')?.state).toBe('Dead');
    expect(groups.validateTxnOffsetCommitMember('static', '', -1, null)).toBe('COORDINATOR_NOT_AVAILABLE');
  });

  test('pending offsets are invisible until the commit marker; require_stable sees them; an abort drops them', () => {
    const { groups } = groupCluster();
    const g = new GroupDriver(groups, 'eos');
    g.commit('', -1, [{ partition: 0, offset: 10 }]);
    expect(groups.addPendingTxnOffsets('eos', 7, [
      { topic: 't', partition: 0, offset: 20, leaderEpoch: 3, metadata: 'tx' },
      { topic: 't', partition: 1, offset: 21, leaderEpoch: -1, metadata: 'x'.repeat(5000) },
      { topic: 't', partition: 2, offset: 22, leaderEpoch: -1, metadata: null },
    ])).toEqual(['NONE', 'OFFSET_METADATA_TOO_LARGE', 'NONE']);
    expect(groups.hasPendingOffsets('eos', 't', 0)).toBe(true);
    expect(groups.hasPendingOffsets('eos', 't', 1)).toBe(false);
    expect(g.fetch([{ topic: 't', partition: 0 }]).offsets[0]).toMatchObject({ offset: 10, error: 'NONE' });
    expect(g.fetch([{ topic: 't', partition: 0 }], true).offsets[0]).toMatchObject({ offset: -1, error: 'UNSTABLE_OFFSET_COMMIT' });
    // "All partitions" leaves out partitions that only have a pending offset.
    expect(g.fetch(null).offsets.map((o) => o.partition)).toEqual([0]);
    groups.completePendingTxnOffsets(7, true);
    expect(groups.hasPendingOffsets('eos', 't', 0)).toBe(false);
    expect(g.fetch(null).offsets.map((o) => [o.partition, o.offset, o.leaderEpoch, o.metadata])).toEqual([
      [0, 20, 3, 'tx'],
      [2, 22, -1, ''],
    ]);

    groups.addPendingTxnOffsets('eos', 8, [{ topic: 't', partition: 0, offset: 99, leaderEpoch: -1, metadata: null }]);
    groups.completePendingTxnOffsets(8, false);
    expect(groups.committedOffset('eos', 't', 0)).toBe(20);
    expect(groups.hasPendingOffsets('eos', 't', 0)).toBe(false);
  });

  test('a plain commit written after the transactional one wins; one marker completes every group of the producer', () => {
    const { groups } = groupCluster();
    groups.addPendingTxnOffsets('a', 5, [{ topic: 't', partition: 0, offset: 1, leaderEpoch: -1, metadata: null }]);
    groups.addPendingTxnOffsets('b', 5, [{ topic: 't', partition: 0, offset: 2, leaderEpoch: -1, metadata: null }]);
    new GroupDriver(groups, 'a').commit('', -1, [{ partition: 0, offset: 50 }]);
    groups.completePendingTxnOffsets(5, true);
    expect(groups.committedOffset('a', 't', 0)).toBe(50);
    expect(groups.committedOffset('b', 't', 0)).toBe(2);
    // Deleting the group takes the pending offsets too.
    groups.addPendingTxnOffsets('b', 6, [{ topic: 't', partition: 3, offset: 9, leaderEpoch: -1, metadata: null }]);
    expect([...groups.handleDeleteGroups(groups.coordinatorFor(0, 'b'), ['b'])]).toEqual([['b', 'NONE']]);
    expect(groups.hasPendingOffsets('b', 't', 3)).toBe(false);
  });
});
