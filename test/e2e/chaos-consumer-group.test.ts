// Chaos rules on KIP-848 groups, with raw ConsumerGroupHeartbeat requests
// through the proxy of a 4.4 cluster: an error code on the API, the
// rebalance action (evictSender), rewind, which fences every member so that
// each partition's next owner starts from the rewound committed offset, and
// the redelivery and rebalance-storm presets.
import { ControlClient, startCluster, type RunningCluster } from '../../src/index.js';
import { ApiKey } from '../../src/protocol/messages/index.js';
import { ErrorCode } from '../../src/protocol/errors.js';
import { WireClient } from '../support/wire-client.js';
import { applyPreset, resolvePreset } from '../../src/presets/index.js';

let kafka: RunningCluster;
let c: WireClient;
beforeAll(async () => {
  kafka = await startCluster({ brokers: 1, kafkaVersion: '4.4', topics: [{ name: 't', partitions: 2 }] });
  c = await WireClient.connect(kafka.bootstrap);
  await c.request(ApiKey.FindCoordinator, 4, { keyType: 0, coordinatorKeys: ['any'] });
});
afterAll(async () => {
  c.close();
  await kafka.stop();
});

const join = (groupId: string, memberId: string) =>
  c.request(ApiKey.ConsumerGroupHeartbeat, 0, { groupId, memberId, memberEpoch: 0, instanceId: null, rackId: null, rebalanceTimeoutMs: 30_000, subscribedTopicNames: ['t'], serverAssignor: null, topicPartitions: [] });
const beat = (groupId: string, memberId: string, memberEpoch: number) =>
  c.request(ApiKey.ConsumerGroupHeartbeat, 0, { groupId, memberId, memberEpoch, instanceId: null, rackId: null, rebalanceTimeoutMs: -1, subscribedTopicNames: null, serverAssignor: null, topicPartitions: null });

test('an error rule on ConsumerGroupHeartbeat answers FENCED_MEMBER_EPOCH before the broker sees the request; the member is untouched', async () => {
  const joined = await join('chaos-g1', 'm1');
  expect(joined).toMatchObject({ errorCode: 0, memberEpoch: 1 });
  const rule = kafka.chaos.addRule({ match: { api: 'ConsumerGroupHeartbeat', groupId: 'chaos-g1' }, trigger: { type: 'nth', n: 1 }, action: { type: 'error', code: 'FENCED_MEMBER_EPOCH' } });
  expect((await beat('chaos-g1', 'm1', 1)).errorCode).toBe(ErrorCode.FENCED_MEMBER_EPOCH);
  expect(kafka.chaos.events().filter((e) => e.ruleId === rule.id)).toHaveLength(1);
  expect(await beat('chaos-g1', 'm1', 1)).toMatchObject({ errorCode: 0, memberEpoch: 1 });
  expect(kafka.cluster.groups.describe('chaos-g1')!.members.map((m) => m.memberId)).toEqual(['m1']);
});

test('rebalance with evictSender on ConsumerGroupHeartbeat: the sender is fenced, and the broker itself answers UNKNOWN_MEMBER_ID', async () => {
  await join('chaos-g2', 'm2');
  const rule = kafka.chaos.addRule({ match: { api: 'ConsumerGroupHeartbeat', groupId: 'chaos-g2' }, trigger: { type: 'nth', n: 1 }, action: { type: 'rebalance', evictSender: true } });
  expect(await beat('chaos-g2', 'm2', 1)).toMatchObject({ errorCode: ErrorCode.UNKNOWN_MEMBER_ID, errorMessage: 'Member m2 is not a member of group chaos-g2.' });
  expect(kafka.chaos.events().find((e) => e.ruleId === rule.id)!.detail).toEqual({ groupId: 'chaos-g2', memberId: 'm2', result: 'evicted' });
  // The client rejoins with epoch 0 and gets its partitions back at a new epoch.
  expect(await join('chaos-g2', 'm2')).toMatchObject({ errorCode: 0, memberEpoch: 3 });
});

/** OffsetCommit v9 of one offset of topic t, as a KIP-848 member at its epoch. */
function commitV9(groupId: string, memberId: string, memberEpoch: number, partitionIndex: number, committedOffset: number) {
  return c.request(ApiKey.OffsetCommit, 9, {
    groupId,
    generationIdOrMemberEpoch: memberEpoch,
    memberId,
    groupInstanceId: null,
    topics: [{ name: 't', partitions: [{ partitionIndex, committedOffset, committedLeaderEpoch: -1, committedMetadata: '' }] }],
  });
}

test('rewind: the committed offsets move back and every member is fenced; the rejoining member starts from the rewound offset', async () => {
  const joined = await join('chaos-g3', 'm3');
  const commit = await commitV9('chaos-g3', 'm3', joined.memberEpoch, 0, 5);
  expect(commit.topics[0].partitions[0].errorCode).toBe(0);
  const rule = kafka.chaos.addRule({ match: { api: 'ConsumerGroupHeartbeat', groupId: 'chaos-g3' }, trigger: { type: 'nth', n: 1 }, action: { type: 'rewind', to: 'earliest' } });
  expect((await beat('chaos-g3', 'm3', 1)).errorCode).toBe(ErrorCode.UNKNOWN_MEMBER_ID);
  expect(kafka.chaos.events().find((e) => e.ruleId === rule.id)!.detail).toEqual({ groupId: 'chaos-g3', offsets: [{ topic: 't', partition: 0, from: 5, to: 0 }], rebalance: 'rebalancing' });
  expect(kafka.cluster.groups.committedOffset('chaos-g3', 't', 0)).toBe(0);
  const rejoined = await join('chaos-g3', 'm3');
  expect(rejoined).toMatchObject({ errorCode: 0, memberEpoch: 3 });
  const fetched = await c.request(ApiKey.OffsetFetch, 9, { groups: [{ groupId: 'chaos-g3', memberId: 'm3', memberEpoch: 3, topics: [{ name: 't', partitionIndexes: [0] }] }], requireStable: false });
  expect(fetched.groups[0].topics[0].partitions[0]).toMatchObject({ committedOffset: 0, errorCode: 0 });
});

test('the redelivery preset: a KIP-848 member\'s first OffsetCommit (v9) finds it evicted; the broker answers UNKNOWN_MEMBER_ID and stores nothing', async () => {
  const joined = await join('chaos-g4', 'm4');
  const rules = applyPreset(kafka.chaos, resolvePreset({ name: 'redelivery', params: { group: 'chaos-g4' } }));
  const commit = await commitV9('chaos-g4', 'm4', joined.memberEpoch, 1, 9);
  expect(commit.topics[0].partitions[0].errorCode).toBe(ErrorCode.UNKNOWN_MEMBER_ID);
  expect(kafka.cluster.groups.committedOffset('chaos-g4', 't', 1)).toBeUndefined();
  for (const r of rules) kafka.chaos.removeRule(r.id);
});

test('the rebalance-storm preset evicts a KIP-848 member on its ConsumerGroupHeartbeat; the broker answers UNKNOWN_MEMBER_ID and the member rejoins at epoch 0', async () => {
  const [rule] = applyPreset(kafka.chaos, resolvePreset({ name: 'rebalance-storm', params: { group: 'chaos-g5' } }));
  const epoch = () => kafka.cluster.groups.consumerGroups.get('chaos-g5')!.members.get('m5')!.memberEpoch;
  // The join is the group's first heartbeat: there is no member to evict yet.
  expect((await join('chaos-g5', 'm5')).errorCode).toBe(0);
  expect((await beat('chaos-g5', 'm5', epoch())).errorCode).toBe(ErrorCode.UNKNOWN_MEMBER_ID);
  expect((await join('chaos-g5', 'm5')).errorCode).toBe(0);
  // Three requests matched: the storm is over.
  expect((await beat('chaos-g5', 'm5', epoch())).errorCode).toBe(0);
  expect(kafka.chaos.events().filter((e) => e.ruleId === rule!.id).map((e) => (e.detail as { result: string }).result)).toEqual(['unknown-member', 'evicted', 'unknown-member']);
  kafka.chaos.removeRule(rule!.id);
});

test('the control API lists and shows a KIP-848 group, and waits for it Stable', async () => {
  await join('chaos-g6', 'm6');
  const control = new ControlClient(kafka.controlUrl);
  expect(await control.groups()).toContainEqual({ groupId: 'chaos-g6', state: 'Stable', protocolType: 'consumer', protocolName: 'uniform', members: 1, coordinator: 0 });
  const view = await control.group('chaos-g6');
  expect(view).toMatchObject({ groupId: 'chaos-g6', groupType: 'consumer', state: 'Stable', generationId: 1, leaderId: null });
  expect(view.members).toEqual([expect.objectContaining({ memberId: 'm6', clientHost: '/127.0.0.1', sessionTimeoutMs: 45_000, rebalanceTimeoutMs: 30_000, assignment: [{ topic: 't', partitions: [0, 1] }] })]);
  expect(await control.waitForGroup('chaos-g6', { timeoutMs: 2000 })).toMatchObject({ state: 'Stable', generationId: 1 });
});
