// KIP-848 over the wire: raw ConsumerGroupHeartbeat and ConsumerGroupDescribe
// requests against a 4.4 cluster on a manual clock. Member epochs, the
// group epoch and target assignment epoch, revocation before assignment
// with two members, fencing errors, session and rebalance timeouts, static
// members, the range assignor, and the offset and admin APIs on such a group,
// each checked against what Kafka's GroupMetadataManager answers.
import { ManualClock, startCluster, type RunningCluster } from '../../../src/index.js';
import { ApiKey } from '../../../src/protocol/messages/index.js';
import { ErrorCode } from '../../../src/protocol/errors.js';
import { WireClient } from '../../support/wire-client.js';

let kafka: RunningCluster;
let clock: ManualClock;
const clients: WireClient[] = [];
beforeAll(async () => {
  clock = new ManualClock();
  kafka = await startCluster({ brokers: 1, clock, kafkaVersion: '4.4', topics: [{ name: 't', partitions: 4 }, { name: 'u', partitions: 2 }] });
});
afterAll(async () => {
  for (const c of clients) c.close();
  await kafka.stop();
});

async function connect(): Promise<WireClient> {
  const c = await WireClient.connect(kafka.bootstrap);
  clients.push(c);
  // The first lookup creates __consumer_offsets.
  await c.request(ApiKey.FindCoordinator, 4, { keyType: 0, coordinatorKeys: ['any'] });
  return c;
}

const topicId = (name: string) => kafka.cluster.topic(name)!.topicId;

interface Owned {
  topicId: string;
  partitions: number[];
}

/** A heartbeat body: a join by default (epoch 0, rebalance timeout, topics, nothing owned). */
function hb(groupId: string, o: { memberId?: string; memberEpoch?: number; instanceId?: string | null; topics?: string[] | null; regex?: string | null; owned?: Owned[] | null; assignor?: string | null; rebalanceTimeoutMs?: number }) {
  const memberEpoch = o.memberEpoch ?? 0;
  return {
    groupId,
    memberId: o.memberId ?? '',
    memberEpoch,
    instanceId: o.instanceId ?? null,
    rackId: null,
    rebalanceTimeoutMs: o.rebalanceTimeoutMs ?? (memberEpoch === 0 ? 30_000 : -1),
    subscribedTopicNames: o.topics === undefined ? (memberEpoch === 0 && o.regex === undefined ? ['t'] : null) : o.topics,
    subscribedTopicRegex: o.regex ?? null,
    serverAssignor: o.assignor ?? null,
    topicPartitions: o.owned === undefined ? (memberEpoch === 0 ? [] : null) : o.owned,
  };
}

/** The assignment in a response as "topic:partition" strings, sorted; null when absent. */
function parts(res: { assignment: { topicPartitions: Owned[] } | null }): string[] | null {
  if (!res.assignment) return null;
  const byId = new Map([...kafka.cluster.topics.values()].map((t) => [t.topicId, t.name]));
  return res.assignment.topicPartitions.flatMap((tp) => tp.partitions.map((p) => `${byId.get(tp.topicId)}:${p}`)).sort();
}

const owned = (...tps: string[]): Owned[] => {
  const m = new Map<string, number[]>();
  for (const tp of tps) {
    const [name, p] = tp.split(':');
    m.set(topicId(name!), [...(m.get(topicId(name!)) ?? []), Number(p)]);
  }
  return [...m].map(([id, partitions]) => ({ topicId: id, partitions }));
};

const describe1 = async (c: WireClient, groupId: string) => (await c.request(ApiKey.ConsumerGroupDescribe, 0, { groupIds: [groupId], includeAuthorizedOperations: false })).groups[0];

describe('one member', () => {
  test('joins at epoch 0 with an empty member id: the coordinator makes one, bumps the group epoch to 1 and assigns every partition (uniform)', async () => {
    const c = await connect();
    const joined = await c.request(ApiKey.ConsumerGroupHeartbeat, 0, hb('g1', {}));
    expect(joined).toMatchObject({ errorCode: 0, errorMessage: null, memberEpoch: 1, heartbeatIntervalMs: 5000 });
    expect(joined.memberId).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(parts(joined)).toEqual(['t:0', 't:1', 't:2', 't:3']);
    // A plain heartbeat (nothing changed) gets no assignment.
    const next = await c.request(ApiKey.ConsumerGroupHeartbeat, 0, hb('g1', { memberId: joined.memberId, memberEpoch: 1 }));
    expect(next).toMatchObject({ errorCode: 0, memberId: joined.memberId, memberEpoch: 1, assignment: null });
    const d = await describe1(c, 'g1');
    expect(d).toMatchObject({ errorCode: 0, groupId: 'g1', groupState: 'Stable', groupEpoch: 1, assignmentEpoch: 1, assignorName: 'uniform' });
    expect(d.members).toHaveLength(1);
    expect(d.members[0]).toMatchObject({ memberId: joined.memberId, memberEpoch: 1, subscribedTopicNames: ['t'], clientHost: '/127.0.0.1' });
    expect(d.members[0].assignment.topicPartitions).toEqual([{ topicId: topicId('t'), topicName: 't', partitions: [0, 1, 2, 3] }]);
    // Leaving (-1) answers the epoch back; the group is Empty at the next epoch.
    const left = await c.request(ApiKey.ConsumerGroupHeartbeat, 0, hb('g1', { memberId: joined.memberId, memberEpoch: -1, topics: null, owned: null }));
    expect(left).toMatchObject({ errorCode: 0, memberId: joined.memberId, memberEpoch: -1 });
    expect(await describe1(c, 'g1')).toMatchObject({ groupState: 'Empty', groupEpoch: 2, members: [] });
  });

  test('a changed subscription bumps the group epoch; a client-made member id is kept', async () => {
    const c = await connect();
    const joined = await c.request(ApiKey.ConsumerGroupHeartbeat, 0, hb('g2', { memberId: 'client-made-id' }));
    expect(joined).toMatchObject({ errorCode: 0, memberId: 'client-made-id', memberEpoch: 1 });
    const more = await c.request(ApiKey.ConsumerGroupHeartbeat, 0, hb('g2', { memberId: 'client-made-id', memberEpoch: 1, topics: ['t', 'u'] }));
    expect(more).toMatchObject({ errorCode: 0, memberEpoch: 2 });
    expect(parts(more)).toEqual(['t:0', 't:1', 't:2', 't:3', 'u:0', 'u:1']);
  });

  test('errors: INVALID_REQUEST for a malformed request, UNKNOWN_MEMBER_ID, FENCED_MEMBER_EPOCH ahead or behind, GROUP_ID_NOT_FOUND, UNSUPPORTED_ASSIGNOR', async () => {
    const c = await connect();
    const invalid = await c.request(ApiKey.ConsumerGroupHeartbeat, 0, { ...hb('g3', {}), rebalanceTimeoutMs: -1 });
    expect(invalid).toMatchObject({ errorCode: ErrorCode.INVALID_REQUEST, errorMessage: 'RebalanceTimeoutMs must be provided in first request.' });
    expect(await c.request(ApiKey.ConsumerGroupHeartbeat, 0, hb('g3', { memberEpoch: 1 }))).toMatchObject({ errorCode: ErrorCode.INVALID_REQUEST, errorMessage: "MemberId can't be empty." });
    expect(await c.request(ApiKey.ConsumerGroupHeartbeat, 0, hb('', {}))).toMatchObject({ errorCode: ErrorCode.INVALID_REQUEST, errorMessage: "GroupId can't be empty." });
    expect(await c.request(ApiKey.ConsumerGroupHeartbeat, 0, hb('g3', { assignor: 'sticky' }))).toMatchObject({
      errorCode: ErrorCode.UNSUPPORTED_ASSIGNOR,
      errorMessage: 'ServerAssignor sticky is not supported. Supported assignors: uniform, range.',
    });
    expect(await c.request(ApiKey.ConsumerGroupHeartbeat, 0, hb('g3', { memberId: 'm', memberEpoch: 1 }))).toMatchObject({ errorCode: ErrorCode.GROUP_ID_NOT_FOUND, errorMessage: 'Consumer group g3 not found.' });
    const joined = await c.request(ApiKey.ConsumerGroupHeartbeat, 0, hb('g3', {}));
    expect(await c.request(ApiKey.ConsumerGroupHeartbeat, 0, hb('g3', { memberId: 'nobody', memberEpoch: 1 }))).toMatchObject({ errorCode: ErrorCode.UNKNOWN_MEMBER_ID, errorMessage: 'Member nobody is not a member of group g3.' });
    const ahead = await c.request(ApiKey.ConsumerGroupHeartbeat, 0, hb('g3', { memberId: joined.memberId, memberEpoch: 5 }));
    expect(ahead.errorCode).toBe(ErrorCode.FENCED_MEMBER_EPOCH);
    expect(ahead.errorMessage).toMatch(/greater member epoch \(5\) than the one known by the group coordinator \(1\)/);
    // Epoch 0 again (a rejoin) is behind its 1, but 0 is its previous epoch and it owns nothing (a subset): accepted.
    const rejoined = await c.request(ApiKey.ConsumerGroupHeartbeat, 0, hb('g3', { memberId: joined.memberId }));
    expect(rejoined).toMatchObject({ errorCode: 0, memberEpoch: 1 });
  });
});

describe('two members', () => {
  test('revocation before assignment: the new member gets a partition only after the old owner stops reporting it', async () => {
    const a = await connect();
    const b = await connect();
    const joinedA = await a.request(ApiKey.ConsumerGroupHeartbeat, 0, hb('g4', { memberId: 'A' }));
    expect(joinedA).toMatchObject({ memberEpoch: 1 });
    expect(parts(joinedA)).toEqual(['t:0', 't:1', 't:2', 't:3']);
    // B joins: epoch 2; the target gives B two partitions A still owns, so B gets none yet.
    const joinedB = await b.request(ApiKey.ConsumerGroupHeartbeat, 0, hb('g4', { memberId: 'B' }));
    expect(joinedB).toMatchObject({ errorCode: 0, memberId: 'B', memberEpoch: 2 });
    expect(parts(joinedB)).toEqual([]);
    const during = await describe1(a, 'g4');
    expect(during).toMatchObject({ groupState: 'Reconciling', groupEpoch: 2, assignmentEpoch: 2 });
    // A's heartbeat, still owning everything: it keeps epoch 1 and is told its reduced assignment (revoke the rest).
    const revoke = await a.request(ApiKey.ConsumerGroupHeartbeat, 0, hb('g4', { memberId: 'A', memberEpoch: 1, owned: owned('t:0', 't:1', 't:2', 't:3') }));
    expect(revoke.memberEpoch).toBe(1);
    const keptByA = parts(revoke)!;
    expect(keptByA).toHaveLength(2);
    const movingToB = ['t:0', 't:1', 't:2', 't:3'].filter((p) => !keptByA.includes(p));
    // B asks again before A has revoked: still nothing (the partitions are unreleased).
    const waiting = await b.request(ApiKey.ConsumerGroupHeartbeat, 0, hb('g4', { memberId: 'B', memberEpoch: 2, owned: [] }));
    expect([waiting.errorCode, waiting.memberEpoch, parts(waiting)]).toEqual([0, 2, null]);
    // A still reports the revoked partitions: no progress.
    const stillOwning = await a.request(ApiKey.ConsumerGroupHeartbeat, 0, hb('g4', { memberId: 'A', memberEpoch: 1, owned: owned('t:0', 't:1', 't:2', 't:3') }));
    expect([stillOwning.memberEpoch, parts(stillOwning)]).toEqual([1, null]);
    // A acknowledges the revocation: it moves to epoch 2.
    const revoked = await a.request(ApiKey.ConsumerGroupHeartbeat, 0, hb('g4', { memberId: 'A', memberEpoch: 1, owned: owned(...keptByA) }));
    expect([revoked.errorCode, revoked.memberEpoch]).toEqual([0, 2]);
    // Now B gets them.
    const assigned = await b.request(ApiKey.ConsumerGroupHeartbeat, 0, hb('g4', { memberId: 'B', memberEpoch: 2, owned: [] }));
    expect([assigned.memberEpoch, parts(assigned)]).toEqual([2, movingToB]);
    expect(await describe1(a, 'g4')).toMatchObject({ groupState: 'Stable', groupEpoch: 2, assignmentEpoch: 2 });
    // A lost response: A comes back with its previous epoch (1) owning a subset of its assignment: accepted.
    const late = await a.request(ApiKey.ConsumerGroupHeartbeat, 0, hb('g4', { memberId: 'A', memberEpoch: 1, owned: owned(...keptByA) }));
    expect([late.errorCode, late.memberEpoch]).toEqual([0, 2]);
    // With partitions it does not own: FENCED_MEMBER_EPOCH (smaller epoch).
    const wrong = await a.request(ApiKey.ConsumerGroupHeartbeat, 0, hb('g4', { memberId: 'A', memberEpoch: 1, owned: owned('t:0', 't:1', 't:2', 't:3') }));
    expect(wrong.errorCode).toBe(ErrorCode.FENCED_MEMBER_EPOCH);
    expect(wrong.errorMessage).toMatch(/smaller member epoch \(1\)/);
  });

  test('session timeout (45 s on the cluster clock) fences a silent member; the other takes its partitions at the next epoch', async () => {
    const a = await connect();
    const b = await connect();
    await a.request(ApiKey.ConsumerGroupHeartbeat, 0, hb('g5', { memberId: 'A' }));
    await a.request(ApiKey.ConsumerGroupHeartbeat, 0, hb('g5', { memberId: 'A', memberEpoch: 1, owned: owned('t:0', 't:1', 't:2', 't:3') }));
    const joinedB = await b.request(ApiKey.ConsumerGroupHeartbeat, 0, hb('g5', { memberId: 'B' }));
    const revoke = await a.request(ApiKey.ConsumerGroupHeartbeat, 0, hb('g5', { memberId: 'A', memberEpoch: 1, owned: owned('t:0', 't:1', 't:2', 't:3') }));
    await a.request(ApiKey.ConsumerGroupHeartbeat, 0, hb('g5', { memberId: 'A', memberEpoch: 1, owned: owned(...parts(revoke)!) }));
    await b.request(ApiKey.ConsumerGroupHeartbeat, 0, hb('g5', { memberId: 'B', memberEpoch: joinedB.memberEpoch, owned: [] }));
    // B keeps heartbeating; A goes silent.
    clock.advance(40_000);
    await b.request(ApiKey.ConsumerGroupHeartbeat, 0, hb('g5', { memberId: 'B', memberEpoch: 2 }));
    clock.advance(5_001);
    const d = await describe1(b, 'g5');
    expect(d.members.map((m: { memberId: string }) => m.memberId)).toEqual(['B']);
    expect(d.groupEpoch).toBe(3);
    const taken = await b.request(ApiKey.ConsumerGroupHeartbeat, 0, hb('g5', { memberId: 'B', memberEpoch: 2 }));
    expect([taken.memberEpoch, parts(taken)]).toEqual([3, ['t:0', 't:1', 't:2', 't:3']]);
    expect(await a.request(ApiKey.ConsumerGroupHeartbeat, 0, hb('g5', { memberId: 'A', memberEpoch: 2 }))).toMatchObject({ errorCode: ErrorCode.UNKNOWN_MEMBER_ID });
  });

  test('rebalance timeout: a member that does not revoke within it is fenced', async () => {
    const a = await connect();
    const b = await connect();
    await a.request(ApiKey.ConsumerGroupHeartbeat, 0, hb('g6', { memberId: 'A', rebalanceTimeoutMs: 10_000 }));
    await b.request(ApiKey.ConsumerGroupHeartbeat, 0, hb('g6', { memberId: 'B' }));
    await a.request(ApiKey.ConsumerGroupHeartbeat, 0, hb('g6', { memberId: 'A', memberEpoch: 1, owned: owned('t:0', 't:1', 't:2', 't:3') }));
    clock.advance(10_000);
    expect((await describe1(a, 'g6')).members.map((m: { memberId: string }) => m.memberId)).toEqual(['B']);
  });
});

describe('static members', () => {
  test('a static member leaving with -2 keeps its place; its new instance takes its partitions back without a new epoch; a second live instance gets UNRELEASED_INSTANCE_ID', async () => {
    const c = await connect();
    const first = await c.request(ApiKey.ConsumerGroupHeartbeat, 0, hb('g7', { memberId: 'S1', instanceId: 'inst' }));
    expect([first.memberEpoch, parts(first)]).toEqual([1, ['t:0', 't:1', 't:2', 't:3']]);
    const taken = await c.request(ApiKey.ConsumerGroupHeartbeat, 0, hb('g7', { memberId: 'S2', instanceId: 'inst' }));
    expect(taken).toMatchObject({ errorCode: ErrorCode.UNRELEASED_INSTANCE_ID, errorMessage: 'Static member S2 with instance id inst cannot join the group because the instance id is owned by S1 member.' });
    const left = await c.request(ApiKey.ConsumerGroupHeartbeat, 0, hb('g7', { memberId: 'S1', memberEpoch: -2, instanceId: 'inst', topics: null, owned: null }));
    expect(left).toMatchObject({ errorCode: 0, memberId: 'S1', memberEpoch: -2 });
    expect(await describe1(c, 'g7')).toMatchObject({ groupEpoch: 1, members: [{ memberId: 'S1', memberEpoch: -2 }] });
    const back = await c.request(ApiKey.ConsumerGroupHeartbeat, 0, hb('g7', { memberId: 'S2', instanceId: 'inst' }));
    expect([back.errorCode, back.memberId, back.memberEpoch, parts(back)]).toEqual([0, 'S2', 1, ['t:0', 't:1', 't:2', 't:3']]);
    expect(await describe1(c, 'g7')).toMatchObject({ groupState: 'Stable', groupEpoch: 1, members: [{ memberId: 'S2', instanceId: 'inst', memberEpoch: 1 }] });
    // The old member id is fenced by the new one.
    expect(await c.request(ApiKey.ConsumerGroupHeartbeat, 0, hb('g7', { memberId: 'S1', memberEpoch: 1, instanceId: 'inst' }))).toMatchObject({ errorCode: ErrorCode.FENCED_INSTANCE_ID });
  });
});

describe('range assignor', () => {
  test('ServerAssignor "range": each member a consecutive range of each topic, in member id order', async () => {
    const a = await connect();
    const b = await connect();
    await a.request(ApiKey.ConsumerGroupHeartbeat, 0, hb('g8', { memberId: 'A', assignor: 'range', topics: ['t', 'u'] }));
    await b.request(ApiKey.ConsumerGroupHeartbeat, 0, hb('g8', { memberId: 'B', assignor: 'range', topics: ['t', 'u'] }));
    const d = await describe1(a, 'g8');
    expect(d.assignorName).toBe('range');
    const target = (id: string) => d.members.find((m: { memberId: string }) => m.memberId === id).targetAssignment.topicPartitions.map((tp: { topicName: string; partitions: number[] }) => `${tp.topicName}:${tp.partitions.join(',')}`).sort();
    expect([target('A'), target('B')]).toEqual([
      ['t:0,1', 'u:0'],
      ['t:2,3', 'u:1'],
    ]);
  });
});

describe('offsets and the group admin APIs', () => {
  test('OffsetCommit v9 takes the member epoch as generation (STALE_MEMBER_EPOCH otherwise, UNSUPPORTED_VERSION below v9); OffsetFetch v9 checks the member; ListGroups shows type "consumer"; DescribeGroups answers Dead', async () => {
    const c = await connect();
    const joined = await c.request(ApiKey.ConsumerGroupHeartbeat, 0, hb('g9', {}));
    const commit = (version: number, epoch: number) =>
      c.request(ApiKey.OffsetCommit, version, { groupId: 'g9', generationIdOrMemberEpoch: epoch, memberId: joined.memberId, groupInstanceId: null, retentionTimeMs: -1, topics: [{ name: 't', partitions: [{ partitionIndex: 0, committedOffset: 7, committedLeaderEpoch: -1, committedMetadata: '' }] }] });
    const code = (r: { topics: { partitions: { errorCode: number }[] }[] }) => r.topics[0]!.partitions[0]!.errorCode;
    expect(code(await commit(9, 0))).toBe(ErrorCode.STALE_MEMBER_EPOCH);
    expect(code(await commit(8, 1))).toBe(ErrorCode.UNSUPPORTED_VERSION);
    expect(code(await commit(9, 1))).toBe(0);
    const fetch = (memberId: string | null, memberEpoch: number) => c.request(ApiKey.OffsetFetch, 9, { groups: [{ groupId: 'g9', memberId, memberEpoch, topics: [{ name: 't', partitionIndexes: [0] }] }], requireStable: false });
    const fetched = await fetch(joined.memberId, 1);
    expect(fetched.groups[0]).toMatchObject({ errorCode: 0, topics: [{ name: 't', partitions: [{ partitionIndex: 0, committedOffset: 7 }] }] });
    expect((await fetch(joined.memberId, 0)).groups[0].errorCode).toBe(ErrorCode.STALE_MEMBER_EPOCH);
    expect((await fetch('nobody', 1)).groups[0].errorCode).toBe(ErrorCode.UNKNOWN_MEMBER_ID);
    expect(kafka.cluster.groups.committedOffset('g9', 't', 0)).toBe(7);

    const listed = await c.request(ApiKey.ListGroups, 5, { statesFilter: [], typesFilter: ['consumer'] });
    expect(listed.groups).toContainEqual({ groupId: 'g9', protocolType: 'consumer', groupState: 'Stable', groupType: 'consumer' });
    const classicOnly = await c.request(ApiKey.ListGroups, 5, { statesFilter: [], typesFilter: ['classic'] });
    expect(classicOnly.groups.map((g: { groupId: string }) => g.groupId)).not.toContain('g9');
    const described = await c.request(ApiKey.DescribeGroups, 5, { groups: ['g9'], includeAuthorizedOperations: false });
    expect(described.groups[0]).toMatchObject({ errorCode: 0, groupId: 'g9', groupState: 'Dead', protocolType: '', members: [] });
    // A classic JoinGroup to a consumer group is refused.
    const join = await c.request(ApiKey.JoinGroup, 5, { groupId: 'g9', sessionTimeoutMs: 10_000, rebalanceTimeoutMs: 10_000, memberId: '', groupInstanceId: null, protocolType: 'consumer', protocols: [{ name: 'range', metadata: Buffer.alloc(0) }] });
    expect(join.errorCode).toBe(ErrorCode.GROUP_ID_NOT_FOUND);
    // DeleteGroups: not while it has members.
    expect((await c.request(ApiKey.DeleteGroups, 2, { groupsNames: ['g9'] })).results[0].errorCode).toBe(ErrorCode.NON_EMPTY_GROUP);
    await c.request(ApiKey.ConsumerGroupHeartbeat, 0, hb('g9', { memberId: joined.memberId, memberEpoch: -1, topics: null, owned: null }));
    // Empty: a groupless commit (epoch -1) is accepted, then the group can go.
    expect(code(await c.request(ApiKey.OffsetCommit, 9, { groupId: 'g9', generationIdOrMemberEpoch: -1, memberId: '', groupInstanceId: null, retentionTimeMs: -1, topics: [{ name: 't', partitions: [{ partitionIndex: 1, committedOffset: 3, committedLeaderEpoch: -1, committedMetadata: '' }] }] }))).toBe(0);
    expect((await c.request(ApiKey.DeleteGroups, 2, { groupsNames: ['g9'] })).results[0].errorCode).toBe(0);
    expect(await describe1(c, 'g9')).toMatchObject({ errorCode: ErrorCode.GROUP_ID_NOT_FOUND, errorMessage: 'Group g9 not found.' });
  });

  test('an Empty classic group becomes a consumer group on a first heartbeat and keeps its offsets; a classic one with members does not', async () => {
    const c = await connect();
    await c.request(ApiKey.OffsetCommit, 8, { groupId: 'g10', generationIdOrMemberEpoch: -1, memberId: '', groupInstanceId: null, retentionTimeMs: -1, topics: [{ name: 't', partitions: [{ partitionIndex: 2, committedOffset: 11, committedLeaderEpoch: -1, committedMetadata: '' }] }] });
    expect(await c.request(ApiKey.ConsumerGroupHeartbeat, 0, hb('g10', {}))).toMatchObject({ errorCode: 0, memberEpoch: 1 });
    expect(kafka.cluster.groups.committedOffset('g10', 't', 2)).toBe(11);
    expect(kafka.cluster.groups.describe('g10')).toMatchObject({ groupType: 'consumer', state: 'Stable', generationId: 1 });
    // A classic member: its JoinGroup completes after the initial delay (0 ms, on the manual clock).
    const classic = await connect();
    const joining = classic.request(ApiKey.JoinGroup, 3, { groupId: 'g11', sessionTimeoutMs: 10_000, rebalanceTimeoutMs: 10_000, memberId: '', protocolType: 'consumer', protocols: [{ name: 'range', metadata: Buffer.alloc(0) }] });
    for (let i = 0; i < 1000 && kafka.cluster.groups.describe('g11') === undefined; i++) await new Promise((r) => setTimeout(r, 1));
    clock.advance(1);
    expect((await joining).errorCode).toBe(0);
    expect(await c.request(ApiKey.ConsumerGroupHeartbeat, 0, hb('g11', {}))).toMatchObject({ errorCode: ErrorCode.GROUP_ID_NOT_FOUND, errorMessage: 'Group g11 is not a consumer group' });
    expect(kafka.cluster.groups.describe('g11')).toMatchObject({ groupType: 'classic', state: 'CompletingRebalance' });
  });
});

describe('v1: regular expressions and client-made member ids (KIP-848, KIP-1082)', () => {
  /** Resolutions run after the heartbeat is answered (Kafka's executor): wait for the group to get there. */
  async function until(what: string, ok: () => boolean): Promise<void> {
    for (let i = 0; i < 500 && !ok(); i++) await new Promise((r) => setImmediate(r));
    if (!ok()) throw new Error(`never: ${what}`);
  }
  const group = (id: string) => kafka.cluster.groups.consumerGroups.get(id)!;

  test('from v1 the client makes the member id: an empty one is INVALID_REQUEST', async () => {
    const c = await connect();
    expect(await c.request(ApiKey.ConsumerGroupHeartbeat, 1, hb('r0', {}))).toMatchObject({ errorCode: ErrorCode.INVALID_REQUEST, errorMessage: "MemberId can't be empty." });
    expect(await c.request(ApiKey.ConsumerGroupHeartbeat, 1, hb('r0', { memberId: 'made-by-client' }))).toMatchObject({ errorCode: 0, memberId: 'made-by-client', memberEpoch: 1 });
  });

  test('a regex resolves after the heartbeat that brings it (epoch 1, nothing assigned); the next heartbeat gets its topics at the new epoch', async () => {
    const c = await connect();
    const joined = await c.request(ApiKey.ConsumerGroupHeartbeat, 1, hb('r1', { memberId: 'R1', regex: 't|u' }));
    expect(joined).toMatchObject({ errorCode: 0, memberId: 'R1', memberEpoch: 1 });
    expect(parts(joined)).toEqual([]);
    await until('the regex resolved', () => group('r1').groupEpoch === 2);
    const next = await c.request(ApiKey.ConsumerGroupHeartbeat, 1, hb('r1', { memberId: 'R1', memberEpoch: 1 }));
    expect(next).toMatchObject({ errorCode: 0, memberEpoch: 2 });
    expect(parts(next)).toEqual(['t:0', 't:1', 't:2', 't:3', 'u:0', 'u:1']);
    const d = (await c.request(ApiKey.ConsumerGroupDescribe, 1, { groupIds: ['r1'], includeAuthorizedOperations: false })).groups[0];
    expect(d.members[0]).toMatchObject({ memberId: 'R1', memberType: 1, subscribedTopicRegex: 't|u', subscribedTopicNames: [] });
    // A whole-name match, as RE2/J's Matcher#matches: "t" alone does not subscribe to "tt".
    kafka.cluster.createTopic('tt', { numPartitions: 1 });
    clock.advance(10_001);
    await c.request(ApiKey.ConsumerGroupHeartbeat, 1, hb('r1', { memberId: 'R1', memberEpoch: 2 }));
    await until('resolved again', () => group('r1').lastResolvedRegularExpression().version > 0 && !group('r1').regexRefreshScheduled);
    expect([...group('r1').resolvedRegularExpressions.get('t|u')!.topics].sort()).toEqual(['t', 'u']);
  });

  test('an invalid regex (RE2 syntax: no lookahead, no backreference) is INVALID_REGULAR_EXPRESSION, and nothing of the group is kept', async () => {
    const c = await connect();
    for (const regex of ['(', '(?=t)t', '(a)\\1']) {
      const res = await c.request(ApiKey.ConsumerGroupHeartbeat, 1, hb('r2', { memberId: 'R2', regex }));
      expect(res.errorCode).toBe(ErrorCode.INVALID_REGULAR_EXPRESSION);
      expect(res.errorMessage).toContain(`SubscribedTopicRegex \`${regex}\` is not a valid regular expression: `);
    }
    expect(kafka.cluster.groups.consumerGroups.get('r2')).toBeUndefined();
  });

  test('a topic created later joins the regex at the first heartbeat 10 s after the last resolution; a second member of a resolved regex bumps the epoch at once', async () => {
    const c = await connect();
    expect(await c.request(ApiKey.ConsumerGroupHeartbeat, 1, hb('r3', { memberId: 'A', regex: 'new-.*' }))).toMatchObject({ errorCode: 0, memberEpoch: 1 });
    await until('resolved (to nothing)', () => group('r3').resolvedRegularExpressions.has('new-.*'));
    expect(group('r3').groupEpoch).toBe(1);
    kafka.cluster.createTopic('new-orders', { numPartitions: 2 });
    // Within 10 s of the last resolution nothing is resolved again.
    await c.request(ApiKey.ConsumerGroupHeartbeat, 1, hb('r3', { memberId: 'A', memberEpoch: 1 }));
    expect(group('r3').regexRefreshScheduled).toBe(false);
    clock.advance(10_001);
    await c.request(ApiKey.ConsumerGroupHeartbeat, 1, hb('r3', { memberId: 'A', memberEpoch: 1 }));
    await until('the new topic resolved', () => group('r3').groupEpoch === 2);
    const a = await c.request(ApiKey.ConsumerGroupHeartbeat, 1, hb('r3', { memberId: 'A', memberEpoch: 1 }));
    expect([a.memberEpoch, parts(a)]).toEqual([2, ['new-orders:0', 'new-orders:1']]);
    const b = await c.request(ApiKey.ConsumerGroupHeartbeat, 1, hb('r3', { memberId: 'B', regex: 'new-.*' }));
    expect(b).toMatchObject({ errorCode: 0, memberEpoch: 3 });
    expect(group('r3').groupEpoch).toBe(3);
  });
});
