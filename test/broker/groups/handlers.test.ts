// The group APIs on the wire, version by version: what each version carries,
// the errors Kafka 3.9 puts where, and NOT_COORDINATOR from every node that
// does not coordinate the group.
import { startCluster, type RunningCluster } from '../../../src/index.js';
import { ApiKey } from '../../../src/protocol/messages/index.js';
import { ErrorCode } from '../../../src/protocol/errors.js';
import { ZERO_UUID } from '../../../src/protocol/primitives.js';
import { partitionFor } from '../../../src/broker/coordinators.js';
import { WireClient } from '../../support/wire-client.js';
import { assignment, subscription } from './driver.js';

let kafka: RunningCluster;
const clients: WireClient[] = [];
beforeAll(async () => {
  // A cold start: these tests watch the first lookup create the internal topics.
  kafka = await startCluster({ brokers: 3, coldStart: true, topics: [{ name: 't', partitions: 4 }, { name: 'u', partitions: 1 }] });
});
afterAll(async () => {
  for (const c of clients) c.close();
  await kafka.stop();
});

async function connect(nodeId: number): Promise<WireClient> {
  const c = await WireClient.connect(kafka.brokers.get(nodeId)!);
  clients.push(c);
  return c;
}

/** Wire clients to the group's coordinator and to some other node (creating __consumer_offsets first). */
async function around(groupId: string) {
  const any = await connect(0);
  await any.request(ApiKey.FindCoordinator, 3, { key: groupId, keyType: 0 });
  const found = await any.request(ApiKey.FindCoordinator, 3, { key: groupId, keyType: 0 });
  expect(found.errorCode).toBe(0);
  const coordinator = found.nodeId as number;
  return { coordinator, at: await connect(coordinator), elsewhere: await connect((coordinator + 1) % 3) };
}

const protocols = [{ name: 'range', metadata: subscription(['t']) }];

/** A one-member Stable group over JoinGroup v5 and SyncGroup v3; returns the member id. */
async function stableGroup(c: WireClient, groupId: string, clientId?: string): Promise<string> {
  const body = { groupId, sessionTimeoutMs: 10_000, rebalanceTimeoutMs: 10_000, memberId: '', groupInstanceId: null, protocolType: 'consumer', protocols };
  const first = await c.request(ApiKey.JoinGroup, 5, body);
  expect(first.errorCode).toBe(ErrorCode.MEMBER_ID_REQUIRED);
  const joined = await c.request(ApiKey.JoinGroup, 5, { ...body, memberId: first.memberId });
  expect(joined).toMatchObject({ errorCode: 0, generationId: 1, leader: first.memberId });
  const sync = await c.request(ApiKey.SyncGroup, 3, { groupId, generationId: 1, memberId: first.memberId, assignments: [{ memberId: first.memberId, assignment: assignment({ t: [0, 1, 2, 3] }) }] });
  expect(sync.errorCode).toBe(0);
  void clientId;
  return first.memberId;
}

describe('FindCoordinator', () => {
  test('v0-3: the internal topic is created by the first lookup (COORDINATOR_NOT_AVAILABLE), then the leader of abs(hash) % 50 answers; v1+ carry "NONE"', async () => {
    const c = await connect(1);
    // Transactional ids: __transaction_state does not exist yet in this cluster.
    const first = await c.request(ApiKey.FindCoordinator, 1, { key: 'txn-1', keyType: 1 });
    expect(first).toMatchObject({ errorCode: ErrorCode.COORDINATOR_NOT_AVAILABLE, errorMessage: 'The coordinator is not available.', nodeId: -1, host: '', port: -1 });
    const next = await c.request(ApiKey.FindCoordinator, 1, { key: 'txn-1', keyType: 1 });
    const leader = kafka.cluster.topic('__transaction_state')!.partitions[partitionFor('txn-1')]!.leader;
    const [host, port] = kafka.brokers.get(leader)!.split(':');
    expect(next).toMatchObject({ errorCode: 0, errorMessage: 'NONE', nodeId: leader, host, port: Number(port) });
    await c.request(ApiKey.FindCoordinator, 0, { key: 'grp' });
    const v0 = await c.request(ApiKey.FindCoordinator, 0, { key: 'grp' });
    expect(v0).toMatchObject({ errorCode: 0, nodeId: kafka.cluster.groups.coordinatorFor(0, 'grp') });
    const meta = await c.request(ApiKey.Metadata, 9, { topics: [{ name: '__consumer_offsets' }, { name: '__transaction_state' }], allowAutoTopicCreation: false });
    expect(meta.topics.map((t: any) => [t.name, t.isInternal, t.partitions.length])).toEqual([
      ['__consumer_offsets', true, 50],
      ['__transaction_state', true, 50],
    ]);
  });

  test('a warm cluster (the default start) has both internal topics: the first lookup of each key type answers its coordinator', async () => {
    const warm = await startCluster({ brokers: 3 });
    try {
      const c = await WireClient.connect(warm.brokers.get(0)!);
      clients.push(c);
      for (const keyType of [0, 1]) {
        const topic = keyType === 0 ? '__consumer_offsets' : '__transaction_state';
        const first = await c.request(ApiKey.FindCoordinator, 3, { key: 'k', keyType });
        expect(first).toMatchObject({ errorCode: 0, nodeId: warm.cluster.topic(topic)!.partitions[partitionFor('k')]!.leader });
      }
      // reset() keeps it warm.
      await warm.reset();
      expect(['__consumer_offsets', '__transaction_state'].map((t) => warm.cluster.topic(t)?.partitions.length)).toEqual([50, 50]);
    } finally {
      await warm.stop();
    }
  });

  test('v4+: a batch of keys, each with its coordinator; key type 2 is INVALID_REQUEST below v6 and COORDINATOR_NOT_AVAILABLE at v6; an unknown key type fails the request', async () => {
    const c = await connect(2);
    await c.request(ApiKey.FindCoordinator, 4, { keyType: 0, coordinatorKeys: ['x'] });
    const res = await c.request(ApiKey.FindCoordinator, 4, { keyType: 0, coordinatorKeys: ['a', 'b', 'Hello World'] });
    expect(res.coordinators.map((k: any) => [k.key, k.errorCode, k.nodeId, k.errorMessage])).toEqual(
      ['a', 'b', 'Hello World'].map((key) => [key, 0, kafka.cluster.groups.coordinatorFor(0, key), null]),
    );
    expect((await c.request(ApiKey.FindCoordinator, 5, { keyType: 2, coordinatorKeys: ['s'] })).coordinators[0]).toMatchObject({ errorCode: ErrorCode.INVALID_REQUEST, nodeId: -1 });
    expect((await c.request(ApiKey.FindCoordinator, 6, { keyType: 2, coordinatorKeys: ['s'] })).coordinators[0]).toMatchObject({ errorCode: ErrorCode.COORDINATOR_NOT_AVAILABLE, nodeId: -1, host: '', port: -1 });
    const bad = await c.request(ApiKey.FindCoordinator, 6, { keyType: 7, coordinatorKeys: ['a', 'b'] });
    expect(bad.coordinators.map((k: any) => [k.key, k.errorCode])).toEqual([['a', ErrorCode.INVALID_REQUEST], ['b', ErrorCode.INVALID_REQUEST]]);
    expect(bad.coordinators[0].errorMessage).toMatch(/malformed by the client library/);
    expect(await c.request(ApiKey.FindCoordinator, 3, { key: 'a', keyType: 7 })).toMatchObject({ errorCode: ErrorCode.INVALID_REQUEST, nodeId: -1 });
  });
});

test('every group API answers NOT_COORDINATOR on a node that does not coordinate the group', async () => {
  const { at, elsewhere } = await around('nc');
  const member = await stableGroup(at, 'nc');
  const e = elsewhere;
  expect((await e.request(ApiKey.JoinGroup, 5, { groupId: 'nc', sessionTimeoutMs: 10_000, rebalanceTimeoutMs: 10_000, memberId: member, protocolType: 'consumer', protocols })).errorCode).toBe(ErrorCode.NOT_COORDINATOR);
  expect((await e.request(ApiKey.SyncGroup, 3, { groupId: 'nc', generationId: 1, memberId: member, assignments: [] })).errorCode).toBe(ErrorCode.NOT_COORDINATOR);
  expect((await e.request(ApiKey.Heartbeat, 3, { groupId: 'nc', generationId: 1, memberId: member })).errorCode).toBe(ErrorCode.NOT_COORDINATOR);
  expect((await e.request(ApiKey.LeaveGroup, 3, { groupId: 'nc', members: [{ memberId: member }] })).errorCode).toBe(ErrorCode.NOT_COORDINATOR);
  const commit = await e.request(ApiKey.OffsetCommit, 8, { groupId: 'nc', generationIdOrMemberEpoch: 1, memberId: member, topics: [{ name: 't', partitions: [{ partitionIndex: 0, committedOffset: 1 }] }] });
  expect(commit.topics[0].partitions[0].errorCode).toBe(ErrorCode.NOT_COORDINATOR);
  expect((await e.request(ApiKey.OffsetFetch, 5, { groupId: 'nc', topics: null })).errorCode).toBe(ErrorCode.NOT_COORDINATOR);
  expect((await e.request(ApiKey.OffsetFetch, 8, { groups: [{ groupId: 'nc', topics: null }] })).groups[0]).toMatchObject({ groupId: 'nc', errorCode: ErrorCode.NOT_COORDINATOR, topics: [] });
  expect((await e.request(ApiKey.DescribeGroups, 5, { groups: ['nc'] })).groups[0]).toMatchObject({ errorCode: ErrorCode.NOT_COORDINATOR, groupState: '', members: [] });
  expect((await e.request(ApiKey.DeleteGroups, 2, { groupsNames: ['nc'] })).results).toEqual([{ groupId: 'nc', errorCode: ErrorCode.NOT_COORDINATOR, errorMessage: null }]);
  expect((await e.request(ApiKey.OffsetDelete, 0, { groupId: 'nc', topics: [] })).errorCode).toBe(ErrorCode.NOT_COORDINATOR);
  expect((await e.request(ApiKey.ListGroups, 4, { statesFilter: [] })).groups.map((g: any) => g.groupId)).not.toContain('nc');
  expect((await at.request(ApiKey.ListGroups, 4, { statesFilter: [] })).groups).toContainEqual({ groupId: 'nc', protocolType: 'consumer', groupState: 'Stable', groupType: '' });
});

describe('JoinGroup, SyncGroup, Heartbeat, LeaveGroup', () => {
  test('JoinGroup v0 uses the session timeout as rebalance timeout; v7+ answers null protocol fields on error, v6 ""', async () => {
    const { at } = await around('v0');
    const res = await at.request(ApiKey.JoinGroup, 0, { groupId: 'v0', sessionTimeoutMs: 7000, memberId: '', protocolType: 'consumer', protocols });
    expect(res).toMatchObject({ errorCode: 0, generationId: 1, protocolName: 'range' });
    expect(kafka.cluster.groups.describe('v0')!.members[0]).toMatchObject({ sessionTimeoutMs: 7000, rebalanceTimeoutMs: 7000, clientId: 'wire-test', clientHost: '/127.0.0.1' });
    const v7 = await at.request(ApiKey.JoinGroup, 7, { groupId: 'v0', sessionTimeoutMs: 1000, rebalanceTimeoutMs: 1000, memberId: '', protocolType: 'consumer', protocols });
    expect(v7).toMatchObject({ errorCode: ErrorCode.INVALID_SESSION_TIMEOUT, protocolType: null, protocolName: null, generationId: -1, leader: '' });
    const v6 = await at.request(ApiKey.JoinGroup, 6, { groupId: 'v0', sessionTimeoutMs: 1000, rebalanceTimeoutMs: 1000, memberId: '', protocolType: 'consumer', protocols });
    expect(v6).toMatchObject({ errorCode: ErrorCode.INVALID_SESSION_TIMEOUT, protocolName: '' });
  });

  test('v4+ MEMBER_ID_REQUIRED, v7 protocol type in the answer, SyncGroup v5 requires and echoes protocol type and name, Heartbeat v4, LeaveGroup v5', async () => {
    const { at } = await around('v9');
    const body = { groupId: 'v9', sessionTimeoutMs: 10_000, rebalanceTimeoutMs: 10_000, memberId: '', protocolType: 'consumer', protocols, reason: 'test' };
    const first = await at.request(ApiKey.JoinGroup, 9, body);
    expect(first).toMatchObject({ errorCode: ErrorCode.MEMBER_ID_REQUIRED, protocolType: null, protocolName: null });
    const joined = await at.request(ApiKey.JoinGroup, 9, { ...body, memberId: first.memberId });
    expect(joined).toMatchObject({ errorCode: 0, generationId: 1, protocolType: 'consumer', protocolName: 'range', skipAssignment: false, leader: first.memberId });
    expect(joined.members).toEqual([{ memberId: first.memberId, groupInstanceId: null, metadata: subscription(['t']) }]);
    const missing = await at.request(ApiKey.SyncGroup, 5, { groupId: 'v9', generationId: 1, memberId: first.memberId, protocolType: null, protocolName: 'range', assignments: [] });
    expect(missing).toMatchObject({ errorCode: ErrorCode.INCONSISTENT_GROUP_PROTOCOL, protocolType: null, protocolName: null });
    const sync = await at.request(ApiKey.SyncGroup, 5, { groupId: 'v9', generationId: 1, memberId: first.memberId, protocolType: 'consumer', protocolName: 'range', assignments: [{ memberId: first.memberId, assignment: assignment({ t: [0] }) }] });
    expect(sync).toMatchObject({ errorCode: 0, protocolType: 'consumer', protocolName: 'range', assignment: assignment({ t: [0] }) });
    expect((await at.request(ApiKey.Heartbeat, 4, { groupId: 'v9', generationId: 1, memberId: first.memberId })).errorCode).toBe(0);
    expect((await at.request(ApiKey.Heartbeat, 4, { groupId: 'v9', generationId: 2, memberId: first.memberId })).errorCode).toBe(ErrorCode.ILLEGAL_GENERATION);
    const leave = await at.request(ApiKey.LeaveGroup, 5, { groupId: 'v9', members: [{ memberId: first.memberId, reason: 'bye' }, { memberId: 'ghost' }] });
    expect(leave).toMatchObject({ errorCode: 0, members: [{ memberId: first.memberId, errorCode: 0 }, { memberId: 'ghost', errorCode: ErrorCode.UNKNOWN_MEMBER_ID }] });
    expect(kafka.cluster.groups.describe('v9')!.state).toBe('Empty');
  });

  test('a parked JoinGroup holds the later responses on its connection in order', async () => {
    const { at, coordinator } = await around('order');
    const other = await connect(coordinator);
    const member = await stableGroup(other, 'order');
    // A second member parks: the first must rejoin.
    const joinId = at.send(ApiKey.JoinGroup, 5, { groupId: 'order', sessionTimeoutMs: 10_000, rebalanceTimeoutMs: 10_000, memberId: '', groupInstanceId: 'static-1', protocolType: 'consumer', protocols });
    const hbId = at.send(ApiKey.Heartbeat, 3, { groupId: 'order', generationId: 1, memberId: member });
    expect((await other.request(ApiKey.Heartbeat, 3, { groupId: 'order', generationId: 1, memberId: member })).errorCode).toBe(ErrorCode.REBALANCE_IN_PROGRESS);
    const rejoin = await other.request(ApiKey.JoinGroup, 5, { groupId: 'order', sessionTimeoutMs: 10_000, rebalanceTimeoutMs: 10_000, memberId: member, protocolType: 'consumer', protocols });
    expect(rejoin).toMatchObject({ errorCode: 0, generationId: 2 });
    const frames = [await at.nextFrame(), await at.nextFrame()];
    expect(frames.map((f) => f!.readInt32BE(0))).toEqual([joinId, hbId]);
  });

  test('LeaveGroup v0-2: one member, its error is the top-level error', async () => {
    const { at } = await around('leave0');
    const member = await stableGroup(at, 'leave0');
    expect(await at.request(ApiKey.LeaveGroup, 0, { groupId: 'leave0', memberId: 'ghost' })).toMatchObject({ errorCode: ErrorCode.UNKNOWN_MEMBER_ID });
    expect(await at.request(ApiKey.LeaveGroup, 2, { groupId: 'leave0', memberId: member })).toMatchObject({ errorCode: 0 });
    expect(await at.request(ApiKey.LeaveGroup, 1, { groupId: '', memberId: member })).toMatchObject({ errorCode: ErrorCode.INVALID_GROUP_ID });
  });
});

describe('OffsetCommit, OffsetFetch, OffsetDelete', () => {
  test('OffsetCommit: unknown topics and partitions per partition; v0 is UNSUPPORTED_VERSION as on KRaft; v2 retention; v8 leader epoch', async () => {
    const { at } = await around('oc');
    const v8 = await at.request(ApiKey.OffsetCommit, 8, {
      groupId: 'oc',
      generationIdOrMemberEpoch: -1,
      memberId: '',
      topics: [
        { name: 't', partitions: [{ partitionIndex: 0, committedOffset: 11, committedLeaderEpoch: 4, committedMetadata: 'm' }, { partitionIndex: 9, committedOffset: 1 }] },
        { name: 'nope', partitions: [{ partitionIndex: 0, committedOffset: 1 }] },
      ],
    });
    expect(v8.topics.map((t: any) => [t.name, t.partitions.map((p: any) => [p.partitionIndex, p.errorCode])])).toEqual([
      ['t', [[0, 0], [9, ErrorCode.UNKNOWN_TOPIC_OR_PARTITION]]],
      ['nope', [[0, ErrorCode.UNKNOWN_TOPIC_OR_PARTITION]]],
    ]);
    expect(kafka.cluster.groups.committedOffsets('oc')).toMatchObject([{ topic: 't', partition: 0, offset: 11, leaderEpoch: 4, metadata: 'm' }]);
    const v0 = await at.request(ApiKey.OffsetCommit, 0, { groupId: 'oc', topics: [{ name: 't', partitions: [{ partitionIndex: 1, committedOffset: 1 }] }, { name: 'nope', partitions: [{ partitionIndex: 0, committedOffset: 1 }] }] });
    expect(v0.topics.map((t: any) => t.partitions[0].errorCode)).toEqual([ErrorCode.UNSUPPORTED_VERSION, ErrorCode.UNSUPPORTED_VERSION]);
    await at.request(ApiKey.OffsetCommit, 2, { groupId: 'oc', generationIdOrMemberEpoch: -1, memberId: '', retentionTimeMs: 60_000, topics: [{ name: 't', partitions: [{ partitionIndex: 2, committedOffset: 3 }] }] });
    const p2 = kafka.cluster.groups.committedOffsets('oc').find((o) => o.partition === 2)!;
    expect(p2.expireTimestamp).toBe(p2.commitTimestamp + 60_000);
    // Metadata too large, partition by partition.
    const big = await at.request(ApiKey.OffsetCommit, 8, { groupId: 'oc', generationIdOrMemberEpoch: -1, memberId: '', topics: [{ name: 't', partitions: [{ partitionIndex: 3, committedOffset: 3, committedMetadata: 'x'.repeat(4097) }, { partitionIndex: 1, committedOffset: 3 }] }] });
    expect(big.topics[0].partitions.map((p: any) => p.errorCode)).toEqual([ErrorCode.OFFSET_METADATA_TOO_LARGE, 0]);
  });

  test('OffsetFetch: v1 copies a group error onto each partition, v2-7 a top-level error, v8 one error per group; topics null reads all; v0 is UNSUPPORTED_VERSION; v7 require_stable', async () => {
    const { at, elsewhere } = await around('of');
    await at.request(ApiKey.OffsetCommit, 8, { groupId: 'of', generationIdOrMemberEpoch: -1, memberId: '', topics: [{ name: 't', partitions: [{ partitionIndex: 1, committedOffset: 5, committedMetadata: 'five' }] }, { name: 'u', partitions: [{ partitionIndex: 0, committedOffset: 6 }] }] });
    const v1 = await at.request(ApiKey.OffsetFetch, 1, { groupId: 'of', topics: [{ name: 't', partitionIndexes: [0, 1] }] });
    expect(v1.topics).toEqual([{ name: 't', partitions: [{ partitionIndex: 0, committedOffset: -1, committedLeaderEpoch: -1, metadata: '', errorCode: 0 }, { partitionIndex: 1, committedOffset: 5, committedLeaderEpoch: -1, metadata: 'five', errorCode: 0 }] }]);
    const v1elsewhere = await elsewhere.request(ApiKey.OffsetFetch, 1, { groupId: 'of', topics: [{ name: 't', partitionIndexes: [0, 1] }] });
    expect(v1elsewhere.topics[0].partitions.map((p: any) => [p.committedOffset, p.errorCode])).toEqual([[-1, ErrorCode.NOT_COORDINATOR], [-1, ErrorCode.NOT_COORDINATOR]]);
    const all = await at.request(ApiKey.OffsetFetch, 6, { groupId: 'of', topics: null });
    expect(all.errorCode).toBe(0);
    expect(all.topics.map((t: any) => [t.name, t.partitions.map((p: any) => [p.partitionIndex, p.committedOffset])])).toEqual([
      ['t', [[1, 5]]],
      ['u', [[0, 6]]],
    ]);
    const v0 = await at.request(ApiKey.OffsetFetch, 0, { groupId: 'of', topics: [{ name: 't', partitionIndexes: [1] }] });
    expect(v0.topics[0].partitions[0]).toMatchObject({ committedOffset: -1, errorCode: ErrorCode.UNSUPPORTED_VERSION });
    kafka.cluster.groups.addPendingTxnOffsets('of', 77, [{ topic: 't', partition: 1, offset: 9, leaderEpoch: -1, metadata: null }]);
    const stable = await at.request(ApiKey.OffsetFetch, 7, { groupId: 'of', topics: [{ name: 't', partitionIndexes: [1] }], requireStable: true });
    expect(stable.topics[0].partitions[0]).toMatchObject({ committedOffset: -1, errorCode: ErrorCode.UNSTABLE_OFFSET_COMMIT });
    const unstable = await at.request(ApiKey.OffsetFetch, 7, { groupId: 'of', topics: [{ name: 't', partitionIndexes: [1] }], requireStable: false });
    expect(unstable.topics[0].partitions[0]).toMatchObject({ committedOffset: 5, errorCode: 0 });
    kafka.cluster.groups.completePendingTxnOffsets(77, false);
    const v8 = await at.request(ApiKey.OffsetFetch, 8, { groups: [{ groupId: 'of', topics: [{ name: 'u', partitionIndexes: [0] }] }, { groupId: 'no-such-group', topics: null }], requireStable: true });
    expect(v8.groups).toEqual([
      { groupId: 'of', errorCode: 0, topics: [{ name: 'u', topicId: ZERO_UUID, partitions: [{ partitionIndex: 0, committedOffset: 6, committedLeaderEpoch: -1, metadata: '', errorCode: 0 }] }] },
      { groupId: 'no-such-group', errorCode: kafka.cluster.groups.coordinatorFor(0, 'no-such-group') === kafka.cluster.groups.coordinatorFor(0, 'of') ? 0 : ErrorCode.NOT_COORDINATOR, topics: [] },
    ]);
  });

  test('OffsetDelete: unknown topics per partition, GROUP_SUBSCRIBED_TO_TOPIC while a consumer reads the topic, GROUP_ID_NOT_FOUND', async () => {
    const { at } = await around('od');
    const member = await stableGroup(at, 'od');
    await at.request(ApiKey.OffsetCommit, 8, { groupId: 'od', generationIdOrMemberEpoch: 1, memberId: member, topics: [{ name: 't', partitions: [{ partitionIndex: 0, committedOffset: 1 }] }, { name: 'u', partitions: [{ partitionIndex: 0, committedOffset: 1 }] }] });
    const res = await at.request(ApiKey.OffsetDelete, 0, { groupId: 'od', topics: [{ name: 't', partitions: [{ partitionIndex: 0 }] }, { name: 'u', partitions: [{ partitionIndex: 0 }, { partitionIndex: 5 }] }, { name: 'nope', partitions: [{ partitionIndex: 0 }] }] });
    expect(res.errorCode).toBe(0);
    expect(res.topics.map((t: any) => [t.name, t.partitions.map((p: any) => p.errorCode)])).toEqual([
      ['t', [ErrorCode.GROUP_SUBSCRIBED_TO_TOPIC]],
      ['u', [0, ErrorCode.UNKNOWN_TOPIC_OR_PARTITION]],
      ['nope', [ErrorCode.UNKNOWN_TOPIC_OR_PARTITION]],
    ]);
    expect(kafka.cluster.groups.committedOffsets('od').map((o) => o.topic)).toEqual(['t']);
    const { at: at2 } = await around('od-missing');
    expect(await at2.request(ApiKey.OffsetDelete, 0, { groupId: 'od-missing', topics: [{ name: 't', partitions: [{ partitionIndex: 0 }] }] })).toMatchObject({ errorCode: ErrorCode.GROUP_ID_NOT_FOUND, topics: [] });
  });
});

describe('DescribeGroups, ListGroups, DeleteGroups', () => {
  test('DescribeGroups: a Stable group with member metadata and assignment; an unknown group is Dead without error', async () => {
    const { at } = await around('dg');
    const member = await stableGroup(at, 'dg');
    const res = await at.request(ApiKey.DescribeGroups, 5, { groups: ['dg', 'dg-unknown'], includeAuthorizedOperations: true });
    expect(res.groups[0]).toEqual({
      errorCode: 0,
      errorMessage: null,
      groupId: 'dg',
      groupState: 'Stable',
      protocolType: 'consumer',
      protocolData: 'range',
      members: [{ memberId: member, groupInstanceId: null, clientId: 'wire-test', clientHost: '/127.0.0.1', memberMetadata: subscription(['t']), memberAssignment: assignment({ t: [0, 1, 2, 3] }) }],
      // Asked for, with no authorizer: every operation a group supports (READ, DELETE, DESCRIBE; AuthHelper.authorizedOperations).
      authorizedOperations: (1 << 3) | (1 << 6) | (1 << 8),
    });
    const unknown = res.groups[1];
    if (kafka.cluster.groups.coordinatorFor(0, 'dg-unknown') === kafka.cluster.groups.coordinatorFor(0, 'dg')) {
      expect(unknown).toMatchObject({ errorCode: 0, groupState: 'Dead', protocolType: '', protocolData: '', members: [] });
    } else {
      expect(unknown).toMatchObject({ errorCode: ErrorCode.NOT_COORDINATOR, groupState: '' });
    }
    // While rebalancing: no protocol, members without metadata.
    const joiner = await connect(kafka.cluster.groups.coordinatorFor(0, 'dg'));
    joiner.send(ApiKey.JoinGroup, 5, { groupId: 'dg', sessionTimeoutMs: 10_000, rebalanceTimeoutMs: 10_000, memberId: '', groupInstanceId: 'i', protocolType: 'consumer', protocols });
    await new Promise<void>((resolve) => kafka.cluster.groups.once('state-changed', () => resolve()));
    const busy = (await at.request(ApiKey.DescribeGroups, 0, { groups: ['dg'] })).groups[0];
    expect(busy).toMatchObject({ groupState: 'PreparingRebalance', protocolData: '' });
    expect(busy.members.map((m: any) => m.memberMetadata.length + m.memberAssignment.length)).toEqual([0, 0]);
  });

  test('ListGroups: state filter (v4+, any case) and type filter (v5+)', async () => {
    const { at } = await around('lg');
    await stableGroup(at, 'lg');
    const names = async (v: number, body: object) => (await at.request(ApiKey.ListGroups, v, body)).groups.map((g: any) => g.groupId);
    expect(await names(0, {})).toContain('lg');
    expect(await names(4, { statesFilter: ['STABLE'] })).toContain('lg');
    expect(await names(4, { statesFilter: ['Empty'] })).not.toContain('lg');
    expect(await names(5, { statesFilter: [], typesFilter: ['Classic'] })).toContain('lg');
    expect(await names(5, { statesFilter: [], typesFilter: ['consumer'] })).toEqual([]);
    const v5 = await at.request(ApiKey.ListGroups, 5, { statesFilter: ['stable'], typesFilter: [] });
    expect(v5.groups.find((g: any) => g.groupId === 'lg')).toEqual({ groupId: 'lg', protocolType: 'consumer', groupState: 'Stable', groupType: 'classic' });
  });

  test('DeleteGroups: NON_EMPTY_GROUP while members remain, then deleted, then GROUP_ID_NOT_FOUND', async () => {
    const { at } = await around('del');
    const member = await stableGroup(at, 'del');
    expect((await at.request(ApiKey.DeleteGroups, 2, { groupsNames: ['del', 'del'] })).results).toEqual([{ groupId: 'del', errorCode: ErrorCode.NON_EMPTY_GROUP, errorMessage: null }]);
    await at.request(ApiKey.LeaveGroup, 3, { groupId: 'del', members: [{ memberId: member }] });
    expect((await at.request(ApiKey.DeleteGroups, 0, { groupsNames: ['del'] })).results).toEqual([{ groupId: 'del', errorCode: 0, errorMessage: null }]);
    expect((await at.request(ApiKey.DeleteGroups, 1, { groupsNames: ['del'] })).results).toEqual([{ groupId: 'del', errorCode: ErrorCode.GROUP_ID_NOT_FOUND, errorMessage: null }]);
  });
});

test('KIP-848 consumer groups are not advertised', async () => {
  const c = await connect(0);
  const keys = (await c.request(ApiKey.ApiVersions, 3, { clientSoftwareName: 'wire-test', clientSoftwareVersion: '1' })).apiKeys.map((k: any) => k.apiKey);
  expect(keys).toEqual(expect.arrayContaining([8, 9, 10, 11, 12, 13, 14, 15, 16, 42, 47]));
  expect(keys).not.toContain(ApiKey.ConsumerGroupHeartbeat);
  expect(keys).not.toContain(ApiKey.ConsumerGroupDescribe);
});
