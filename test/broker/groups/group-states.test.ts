// The classic group state machine on a manual clock: every transition of
// Empty, PreparingRebalance, CompletingRebalance, Stable and Dead, the
// initial rebalance delay, rebalance, sync and session timeouts, pending and
// static members, and the generation and member checks (kafka-semantics.md §6).
import type { ManualClock } from '../../../src/broker/clock.js';
import { Group } from '../../../src/broker/groups/group.js';
import { assignedPartitions } from '../../../src/broker/groups/consumer-protocol.js';
import { GroupDriver, REBALANCE_MS, SESSION_MS, assignment, groupCluster, subscription, type JoinOptions } from './driver.js';

/** Every (from → to) the tests below make the coordinator take. */
const seen = new Set<string>();

function setup(brokers = 1) {
  const env = groupCluster(brokers);
  env.groups.on('state-changed', (c) => seen.add(`${c.from} -> ${c.to}`));
  const removed: { memberId: string; reason: string }[] = [];
  env.groups.on('member-removed', (e) => removed.push({ memberId: e.memberId, reason: e.reason }));
  return { ...env, g: new GroupDriver(env.groups, 'g'), removed };
}

/** n members join together, the leader assigns partition i to member i, and the group is Stable. */
function stableGroup(g: GroupDriver, clock: ManualClock, n: number, o: JoinOptions = {}) {
  const joins = Array.from({ length: n }, () => g.newMember(o));
  clock.advance(0);
  const generation = joins[0]!.join.result!.generationId;
  const ids = joins.map((j) => j.memberId);
  const leader = joins[0]!.join.result!.leaderId;
  const followerSyncs = ids.filter((id) => id !== leader).map((id) => g.sync(id, generation));
  g.sync(leader, generation, Object.fromEntries(ids.map((id, i) => [id, assignment({ t: [i] })])));
  for (const s of followerSyncs) expect(s.result?.error).toBe('NONE');
  expect(g.state).toBe('Stable');
  return { ids, generation, leader };
}

test('a first member: Empty -> PreparingRebalance -> CompletingRebalance -> Stable', () => {
  const { clock, g, groups } = setup();
  const a = g.newMember({ clientId: 'app' });
  expect(a.memberId).toMatch(/^app-[0-9a-f-]{36}$/);
  // The initial delay (0 in kafkaesque) is still a timer: the join completes when the clock moves.
  expect(a.join.result).toBeUndefined();
  expect(g.state).toBe('PreparingRebalance');
  clock.advance(0);
  expect(a.join.result).toMatchObject({ error: 'NONE', generationId: 1, memberId: a.memberId, leaderId: a.memberId, protocolType: 'consumer', protocolName: 'range' });
  expect(a.join.result!.members).toEqual([{ memberId: a.memberId, groupInstanceId: null, metadata: subscription(['t']) }]);
  expect(g.state).toBe('CompletingRebalance');
  expect(g.heartbeat(a.memberId, 1)).toBe('NONE');

  const sync = g.sync(a.memberId, 1, { [a.memberId]: assignment({ t: [0, 1, 2, 3] }), 'not-a-member': assignment({ t: [9] }) });
  expect(sync.result).toMatchObject({ error: 'NONE', protocolType: 'consumer', protocolName: 'range' });
  expect(assignedPartitions(sync.result!.assignment)).toEqual([{ topic: 't', partitions: [0, 1, 2, 3] }]);
  expect(g.state).toBe('Stable');
  expect(groups.describe('g')!.members.map((m) => m.assignment)).toEqual([[{ topic: 't', partitions: [0, 1, 2, 3] }]]);
  // A Stable group hands the same assignment to a member that syncs again.
  expect(g.sync(a.memberId, 1).result!.assignment).toEqual(sync.result!.assignment);
});

test('group.initial.rebalance.delay.ms holds the first rebalance; members joining meanwhile extend it up to the rebalance timeout', () => {
  const { clock, g, groups } = setup();
  groups.config['group.initial.rebalance.delay.ms'] = 3000;
  const t0 = clock.now();
  const joins = [g.newMember({ rebalanceTimeoutMs: 10_000 })];
  // Members arrive every 2 s: 0, 2000, 4000, 6000, 8000, 9900.
  for (const at of [2000, 4000, 6000, 8000, 9900]) {
    clock.advance(t0 + at - clock.now());
    expect(joins[0]!.join.result).toBeUndefined();
    joins.push(g.newMember({ rebalanceTimeoutMs: 10_000 }));
  }
  clock.advance(10_000 - 9900 - 1);
  expect(joins[0]!.join.result).toBeUndefined();
  // Never later than the rebalance timeout, and everyone who came is in.
  clock.advance(1);
  expect(joins.map((j) => j.join.result?.generationId)).toEqual([1, 1, 1, 1, 1, 1]);
  expect(joins[0]!.join.result!.members).toHaveLength(6);
});

test('a quiet initial delay completes once, without extension', () => {
  const { clock, g, groups } = setup();
  groups.config['group.initial.rebalance.delay.ms'] = 3000;
  const a = g.newMember();
  const b = g.newMember();
  clock.advance(2999);
  expect(a.join.result).toBeUndefined();
  // b joined during the first delay, so it is extended once: 3000 + 3000.
  clock.advance(3000);
  expect(a.join.result).toBeUndefined();
  clock.advance(1);
  expect([a.join.result!.generationId, b.join.result!.generationId]).toEqual([1, 1]);
});

test('a second member: the first learns of the rebalance by heartbeat, rejoins, and the partitions split', () => {
  const { clock, g } = setup();
  const { ids, leader } = stableGroup(g, clock, 1);
  const b = g.newMember();
  expect(g.state).toBe('PreparingRebalance');
  expect(b.join.result).toBeUndefined();
  expect(g.heartbeat(leader, 1)).toBe('REBALANCE_IN_PROGRESS');
  // Heartbeats with the old generation during the rebalance are still ILLEGAL_GENERATION checks.
  expect(g.heartbeat(leader, 0)).toBe('ILLEGAL_GENERATION');
  const rejoin = g.join({ memberId: leader });
  // Everyone is in: no waiting for the rebalance timeout.
  expect(rejoin.result).toMatchObject({ error: 'NONE', generationId: 2, leaderId: leader });
  expect(rejoin.result!.members.map((m) => m.memberId)).toEqual([ids[0], b.memberId]);
  expect(b.join.result).toMatchObject({ error: 'NONE', generationId: 2, leaderId: leader, members: [] });
  const follower = g.sync(b.memberId, 2);
  expect(follower.result).toBeUndefined();
  const mine = g.sync(leader, 2, { [leader]: assignment({ t: [0, 1] }), [b.memberId]: assignment({ t: [2, 3] }) });
  expect(assignedPartitions(mine.result!.assignment)).toEqual([{ topic: 't', partitions: [0, 1] }]);
  expect(assignedPartitions(follower.result!.assignment)).toEqual([{ topic: 't', partitions: [2, 3] }]);
  expect(g.state).toBe('Stable');
});

test('members the leader leaves out get an empty assignment', () => {
  const { clock, g } = setup();
  const a = g.newMember();
  const b = g.newMember();
  clock.advance(0);
  const follower = g.sync(b.memberId, 1);
  g.sync(a.memberId, 1, { [a.memberId]: assignment({ t: [0] }) });
  expect(follower.result).toMatchObject({ error: 'NONE', assignment: Buffer.alloc(0) });
});

test('a member joining during CompletingRebalance sends the parked SyncGroups back with REBALANCE_IN_PROGRESS', () => {
  const { clock, g } = setup();
  const a = g.newMember();
  const b = g.newMember();
  clock.advance(0);
  expect(g.state).toBe('CompletingRebalance');
  const parked = g.sync(b.memberId, 1);
  expect(parked.result).toBeUndefined();
  const c = g.newMember();
  expect(parked.result).toMatchObject({ error: 'REBALANCE_IN_PROGRESS', protocolType: null, protocolName: null });
  expect(g.state).toBe('PreparingRebalance');
  expect(g.sync(a.memberId, 1).result!.error).toBe('REBALANCE_IN_PROGRESS');
  // Everyone rejoins: generation 2 with three members.
  g.join({ memberId: a.memberId });
  const last = g.join({ memberId: b.memberId });
  expect(last.result).toMatchObject({ generationId: 2 });
  expect(c.join.result).toMatchObject({ generationId: 2 });
});

test('a member rejoining with the same metadata during CompletingRebalance gets the current generation again', () => {
  const { clock, g } = setup();
  const a = g.newMember();
  const b = g.newMember();
  clock.advance(0);
  const again = g.join({ memberId: b.memberId });
  expect(again.result).toMatchObject({ error: 'NONE', generationId: 1, members: [] });
  const leaderAgain = g.join({ memberId: a.memberId });
  expect(leaderAgain.result!.members).toHaveLength(2);
  expect(g.state).toBe('CompletingRebalance');
  // Changed metadata forces a rebalance.
  g.join({ memberId: b.memberId, protocols: [{ name: 'range', metadata: subscription(['t', 'u']) }] });
  expect(g.state).toBe('PreparingRebalance');
});

test('a Stable follower rejoining unchanged gets the current generation; changed metadata or the leader rejoining rebalances', () => {
  const { clock, g } = setup();
  const { ids, leader } = stableGroup(g, clock, 2);
  const follower = ids.find((id) => id !== leader)!;
  expect(g.join({ memberId: follower }).result).toMatchObject({ error: 'NONE', generationId: 1, leaderId: leader, members: [] });
  expect(g.state).toBe('Stable');
  g.join({ memberId: leader });
  expect(g.state).toBe('PreparingRebalance');
});

test('a rebalance times out members who never rejoin; the others move on to the next generation', () => {
  const { clock, g, removed } = setup();
  const { ids } = stableGroup(g, clock, 2);
  const [a, b] = ids as [string, string];
  const c = g.newMember();
  const rejoinA = g.join({ memberId: a });
  // b keeps its session alive (a background heartbeat thread) but never rejoins.
  for (let t = 0; t < REBALANCE_MS - 5000; t += 5000) {
    clock.advance(5000);
    expect(g.heartbeat(b, 1)).toBe('REBALANCE_IN_PROGRESS');
  }
  clock.advance(4999);
  expect(rejoinA.result).toBeUndefined();
  clock.advance(1);
  expect(removed).toContainEqual({ memberId: b, reason: 'rebalance-timeout' });
  expect(rejoinA.result).toMatchObject({ error: 'NONE', generationId: 2 });
  expect(rejoinA.result!.members.map((m) => m.memberId).sort()).toEqual([a, c.memberId].sort());
  expect(g.heartbeat(b, 1)).toBe('UNKNOWN_MEMBER_ID');
  expect(g.state).toBe('CompletingRebalance');
});

test('a leader that does not rejoin loses the role to a member that did', () => {
  const { clock, g } = setup();
  const { ids, leader } = stableGroup(g, clock, 2);
  const follower = ids.find((id) => id !== leader)!;
  const c = g.newMember();
  const rejoin = g.join({ memberId: follower });
  for (let i = 0; i < 4; i++) {
    clock.advance(5000);
    g.heartbeat(leader, 1);
  }
  expect(rejoin.result).toMatchObject({ generationId: 2, leaderId: follower });
  expect(rejoin.result!.members.map((m) => m.memberId).sort()).toEqual([follower, c.memberId].sort());
  expect(c.join.result).toMatchObject({ leaderId: follower, members: [] });
});

test('a rebalance nobody rejoins leaves the group Empty, its generation moved on (PreparingRebalance -> Empty)', () => {
  const { clock, g } = setup();
  const { ids } = stableGroup(g, clock, 2);
  g.leave([{ memberId: ids[1]! }]);
  expect(g.state).toBe('PreparingRebalance');
  // ids[0] keeps its session but never rejoins; the rebalance timeout removes it.
  for (let i = 0; i < 3; i++) {
    clock.advance(5000);
    expect(g.heartbeat(ids[0]!, 1)).toBe('REBALANCE_IN_PROGRESS');
  }
  clock.advance(4999);
  expect(g.state).toBe('PreparingRebalance');
  clock.advance(1);
  expect(g.state).toBe('Empty');
  expect(g.generation).toBe(2);
  expect(g.heartbeat(ids[0]!, 1)).toBe('UNKNOWN_MEMBER_ID');
});

test('a member that stops heartbeating is evicted after its session timeout, and the group rebalances', () => {
  const { clock, g, removed } = setup();
  const { ids, leader } = stableGroup(g, clock, 2);
  const silent = ids.find((id) => id !== leader)!;
  for (let t = 0; t < SESSION_MS - 3000; t += 3000) {
    clock.advance(3000);
    expect(g.heartbeat(leader, 1)).toBe('NONE');
  }
  expect(g.state).toBe('Stable');
  clock.advance(SESSION_MS - 9000 - 1);
  expect(g.state).toBe('Stable');
  clock.advance(1);
  expect(removed).toEqual([{ memberId: silent, reason: 'session-timeout' }]);
  expect(g.state).toBe('PreparingRebalance');
  expect(g.heartbeat(leader, 1)).toBe('REBALANCE_IN_PROGRESS');
  const rejoin = g.join({ memberId: leader });
  expect(rejoin.result).toMatchObject({ generationId: 2, members: [{ memberId: leader }] });
  expect(g.heartbeat(silent, 1)).toBe('UNKNOWN_MEMBER_ID');
});

test('an offset commit counts as a heartbeat in Stable', () => {
  const { clock, g, removed } = setup();
  const { ids } = stableGroup(g, clock, 1);
  for (let i = 0; i < 5; i++) {
    clock.advance(SESSION_MS - 1);
    expect(g.commit(ids[0]!, 1, [{ partition: 0, offset: i }])).toEqual(['NONE']);
  }
  expect(removed).toEqual([]);
  clock.advance(SESSION_MS);
  expect(removed).toEqual([{ memberId: ids[0], reason: 'session-timeout' }]);
});

test('a member that never sends SyncGroup is removed after the rebalance timeout (Stable -> PreparingRebalance)', () => {
  const { clock, g, removed } = setup();
  const a = g.newMember();
  const b = g.newMember();
  clock.advance(0);
  g.sync(a.memberId, 1, {});
  expect(g.state).toBe('Stable');
  // b heartbeats but never syncs.
  for (let i = 0; i < 3; i++) {
    clock.advance(5000);
    expect(g.heartbeat(a.memberId, 1)).toBe('NONE');
    expect(g.heartbeat(b.memberId, 1)).toBe('NONE');
  }
  clock.advance(REBALANCE_MS - 15_000);
  expect(removed).toEqual([{ memberId: b.memberId, reason: 'sync-timeout' }]);
  expect(g.state).toBe('PreparingRebalance');
});

test('a leader that never syncs is removed, and the parked followers are told to rejoin (CompletingRebalance -> PreparingRebalance)', () => {
  const { clock, g, removed } = setup();
  const a = g.newMember();
  const b = g.newMember();
  clock.advance(0);
  const parked = g.sync(b.memberId, 1);
  // The leader stays alive (heartbeats) but its assignor never answers.
  for (let i = 0; i < 3; i++) {
    clock.advance(5000);
    expect(g.heartbeat(a.memberId, 1)).toBe('NONE');
  }
  expect(parked.result).toBeUndefined();
  clock.advance(5000);
  expect(removed).toEqual([{ memberId: a.memberId, reason: 'sync-timeout' }]);
  expect(parked.result!.error).toBe('REBALANCE_IN_PROGRESS');
  expect(g.state).toBe('PreparingRebalance');
});

test('MEMBER_ID_REQUIRED: the pending member holds the rebalance until it rejoins or its session runs out', () => {
  const { clock, g, groups } = setup();
  const { ids } = stableGroup(g, clock, 1);
  // A pending member does not start a rebalance by itself.
  const pending = g.join({ memberId: '' });
  expect(pending.result).toMatchObject({ error: 'MEMBER_ID_REQUIRED', generationId: -1 });
  expect(g.state).toBe('Stable');
  const rejoin = g.join({ memberId: ids[0]! });
  expect(g.state).toBe('PreparingRebalance');
  expect(rejoin.result).toBeUndefined();
  clock.advance(SESSION_MS - 1);
  expect(rejoin.result).toBeUndefined();
  clock.advance(1);
  expect(rejoin.result).toMatchObject({ generationId: 2, members: [{ memberId: ids[0] }] });
  // The forgotten id is now unknown.
  expect(g.join({ memberId: pending.result!.memberId }).result!.error).toBe('UNKNOWN_MEMBER_ID');
  expect(groups.describe('g')!.members).toHaveLength(1);
});

test('below JoinGroup v4 a new member is added at once', () => {
  const { clock, g } = setup();
  const a = g.join({ requireKnownMemberId: false });
  expect(a.result).toBeUndefined();
  clock.advance(0);
  expect(a.result).toMatchObject({ error: 'NONE', generationId: 1 });
  expect(a.result!.memberId).toBe(a.result!.leaderId);
});

test('a new member whose rebalance never completes is answered UNKNOWN_MEMBER_ID after 5 minutes', () => {
  const { clock, g, removed } = setup();
  const { ids } = stableGroup(g, clock, 1, { rebalanceTimeoutMs: 600_000, sessionTimeoutMs: 600_000 });
  const b = g.newMember({ rebalanceTimeoutMs: 600_000, sessionTimeoutMs: 600_000 });
  // a keeps heartbeating without rejoining: the rebalance waits for its 10-minute timeout.
  for (let i = 0; i < 10; i++) {
    clock.advance(30_000);
    g.heartbeat(ids[0]!, 1);
  }
  expect(b.join.result).toMatchObject({ error: 'UNKNOWN_MEMBER_ID', memberId: '' });
  expect(removed).toEqual([{ memberId: b.memberId, reason: 'join-timeout' }]);
});

test('LeaveGroup: one member, a batch with an unknown one, by instance id; a parked JoinGroup of a leaver is answered; the last one out leaves the group Empty', () => {
  const { clock, g } = setup();
  const { ids } = stableGroup(g, clock, 3);
  const [a, b, c] = ids as [string, string, string];
  expect(g.leave([{ memberId: b }])).toEqual({ error: 'NONE', members: [{ memberId: b, groupInstanceId: null, error: 'NONE' }] });
  expect(g.state).toBe('PreparingRebalance');
  const parked = g.join({ memberId: a });
  expect(g.leave([{ memberId: a }, { memberId: 'ghost' }, { memberId: '', groupInstanceId: 'nobody' }]).members.map((m) => m.error)).toEqual([
    'NONE',
    'UNKNOWN_MEMBER_ID',
    'UNKNOWN_MEMBER_ID',
  ]);
  expect(parked.result).toMatchObject({ error: 'UNKNOWN_MEMBER_ID', memberId: '' });
  g.leave([{ memberId: c }]);
  expect(g.state).toBe('Empty');
  expect(g.generation).toBe(2);
  // Leaving an Empty group, or one that does not exist.
  expect(g.leave([{ memberId: c }]).members[0]!.error).toBe('UNKNOWN_MEMBER_ID');
  expect(new GroupDriver(g.groups, 'nope').leave([{ memberId: 'x' }])).toEqual({ error: 'NONE', members: [{ memberId: 'x', groupInstanceId: null, error: 'UNKNOWN_MEMBER_ID' }] });
});

test('generation and member checks on every call that carries them', () => {
  const { clock, g, groups } = setup();
  const { ids, leader } = stableGroup(g, clock, 2);
  const other = new GroupDriver(groups, 'other');
  expect(g.heartbeat(leader, 2)).toBe('ILLEGAL_GENERATION');
  expect(g.heartbeat('ghost', 1)).toBe('UNKNOWN_MEMBER_ID');
  expect(other.heartbeat('ghost', 1)).toBe('UNKNOWN_MEMBER_ID');
  expect(g.sync(leader, 0).result!.error).toBe('ILLEGAL_GENERATION');
  expect(g.sync('ghost', 1).result!.error).toBe('UNKNOWN_MEMBER_ID');
  expect(other.sync('ghost', 1).result!.error).toBe('UNKNOWN_MEMBER_ID');
  expect(g.sync(leader, 1, {}, { protocolType: 'connect' }).result!.error).toBe('INCONSISTENT_GROUP_PROTOCOL');
  expect(g.sync(leader, 1, {}, { protocolName: 'roundrobin' }).result!.error).toBe('INCONSISTENT_GROUP_PROTOCOL');
  expect(g.sync(leader, 1, {}, { protocolType: 'consumer', protocolName: 'range' }).result!.error).toBe('NONE');
  expect(g.commit(leader, 7, [{ partition: 0, offset: 1 }])).toEqual(['ILLEGAL_GENERATION']);
  expect(g.commit('ghost', 1, [{ partition: 0, offset: 1 }])).toEqual(['UNKNOWN_MEMBER_ID']);
  // A groupless commit (generation -1, no member) is refused while the group has members.
  expect(g.commit('', -1, [{ partition: 0, offset: 1 }])).toEqual(['UNKNOWN_MEMBER_ID']);
  expect(other.commit('ghost', 3, [{ partition: 0, offset: 1 }])).toEqual(['ILLEGAL_GENERATION']);
  expect(g.join({ memberId: 'ghost' }).result!.error).toBe('UNKNOWN_MEMBER_ID');
  expect(other.join({ memberId: 'ghost' }).result!.error).toBe('UNKNOWN_MEMBER_ID');
  expect(groups.describe('other')).toBeUndefined();
  expect(g.join({ sessionTimeoutMs: 5999 }).result!.error).toBe('INVALID_SESSION_TIMEOUT');
  expect(g.join({ sessionTimeoutMs: 1_800_001 }).result!.error).toBe('INVALID_SESSION_TIMEOUT');
  expect(g.join({ protocolType: 'connect' }).result!.error).toBe('INCONSISTENT_GROUP_PROTOCOL');
  expect(g.join({ protocols: [{ name: 'roundrobin', metadata: Buffer.alloc(0) }] }).result!.error).toBe('INCONSISTENT_GROUP_PROTOCOL');
  expect(other.join({ protocols: [] }).result!.error).toBe('INCONSISTENT_GROUP_PROTOCOL');
  expect(new GroupDriver(groups, '').join().result!.error).toBe('INVALID_GROUP_ID');
  expect(new GroupDriver(groups, '').heartbeat('x', 1)).toBe('INVALID_GROUP_ID');
  expect(ids).toHaveLength(2);
});

test('protocol selection: the candidates every member supports, by vote', () => {
  const { clock, g } = setup();
  const p = (...names: string[]) => names.map((name) => ({ name, metadata: subscription(['t']) }));
  const a = g.newMember({ protocols: p('roundrobin', 'range') });
  const b = g.newMember({ protocols: p('sticky', 'range', 'roundrobin') });
  const c = g.newMember({ protocols: p('range', 'roundrobin') });
  clock.advance(0);
  // Candidates {range, roundrobin}; votes: a roundrobin, b range, c range.
  expect([a, b, c].map((m) => m.join.result!.protocolName)).toEqual(['range', 'range', 'range']);
});

test('static membership: a restarted instance replaces its member id without a rebalance; the old id is fenced', () => {
  const { clock, g, groups } = setup();
  const s = g.join({ instanceId: 'i1', clientId: 'app' });
  const d = g.newMember();
  clock.advance(0);
  const oldId = s.result!.memberId;
  expect(oldId).toMatch(/^i1-/);
  expect(s.result!.leaderId).toBe(oldId);
  g.sync(d.memberId, 1);
  g.sync(oldId, 1, { [oldId]: assignment({ t: [0, 1] }), [d.memberId]: assignment({ t: [2, 3] }) }, { instanceId: 'i1' });
  expect(g.state).toBe('Stable');

  // The instance restarts: a new member id, the same generation, no rebalance.
  const again = g.join({ instanceId: 'i1' });
  const newId = again.result!.memberId;
  expect(newId).not.toBe(oldId);
  // Below v9 the answer names the old leader id, so the restarted leader does not assign.
  expect(again.result).toMatchObject({ error: 'NONE', generationId: 1, leaderId: oldId, members: [], skipAssignment: false });
  expect(g.state).toBe('Stable');
  expect(groups.describe('g')!.leaderId).toBe(newId);
  expect(g.heartbeat(oldId, 1, 'i1')).toBe('FENCED_INSTANCE_ID');
  expect(g.heartbeat(oldId, 1)).toBe('UNKNOWN_MEMBER_ID');
  expect(g.heartbeat(newId, 1, 'i1')).toBe('NONE');
  expect(g.heartbeat(newId, 1, 'i2')).toBe('UNKNOWN_MEMBER_ID');
  expect(assignedPartitions(g.sync(newId, 1, {}, { instanceId: 'i1' }).result!.assignment)).toEqual([{ topic: 't', partitions: [0, 1] }]);
  expect(g.commit(oldId, 1, [{ partition: 0, offset: 5 }], 'i1')).toEqual(['FENCED_INSTANCE_ID']);

  // v9: the leader is told it leads, with the members, and to skip the assignment.
  const v9 = g.join({ instanceId: 'i1', supportSkippingAssignment: true });
  expect(v9.result).toMatchObject({ error: 'NONE', generationId: 1, skipAssignment: true, leaderId: v9.result!.memberId });
  expect(v9.result!.members.map((m) => m.groupInstanceId)).toEqual(expect.arrayContaining([null, 'i1']));
  expect(v9.result!.members).toHaveLength(2);
  expect(g.state).toBe('Stable');
});

test('static membership: a parked request of a replaced member is fenced, and absent static members survive a rebalance', () => {
  const { clock, g, removed } = setup();
  const s = g.join({ instanceId: 'i1' });
  const d = g.newMember();
  clock.advance(0);
  const sId = s.result!.memberId;
  g.sync(d.memberId, 1);
  g.sync(sId, 1, {}, { instanceId: 'i1' });
  // A new dynamic member: d rejoins, the static member only heartbeats.
  const e = g.newMember();
  const dRejoin = g.join({ memberId: d.memberId });
  for (let i = 0; i < 4; i++) {
    clock.advance(5000);
    g.heartbeat(sId, 1, 'i1');
  }
  expect(removed).toEqual([]);
  expect(dRejoin.result!.generationId).toBe(2);
  expect(e.join.result!.generationId).toBe(2);
  // The static member is still in, and must rejoin to get generation 2.
  expect(g.heartbeat(sId, 1, 'i1')).toBe('ILLEGAL_GENERATION');
  expect(g.groups.describe('g')!.members.map((m) => m.memberId)).toContain(sId);

  // Its rejoin parks (CompletingRebalance -> PreparingRebalance for changed metadata)...
  const parked = g.join({ memberId: sId, instanceId: 'i1', protocols: [{ name: 'range', metadata: subscription(['t', 'u']) }] });
  expect(g.state).toBe('PreparingRebalance');
  // ...until another process with the same group.instance.id takes its place.
  const usurper = g.join({ instanceId: 'i1' });
  expect(parked.result).toMatchObject({ error: 'FENCED_INSTANCE_ID', memberId: sId });
  expect(usurper.result).toBeUndefined();
  expect(g.join({ memberId: sId, instanceId: 'i1' }).result!.error).toBe('FENCED_INSTANCE_ID');
});

test('DeleteGroups: only an Empty group goes, with its offsets (Empty -> Dead)', () => {
  const { clock, g, groups } = setup();
  const { ids } = stableGroup(g, clock, 1);
  g.commit(ids[0]!, 1, [{ partition: 0, offset: 10 }]);
  expect([...groups.handleDeleteGroups(g.node, ['g', 'g', 'missing'])]).toEqual([
    ['g', 'NON_EMPTY_GROUP'],
    ['missing', 'GROUP_ID_NOT_FOUND'],
  ]);
  g.leave([{ memberId: ids[0]! }]);
  expect(g.state).toBe('Empty');
  expect(groups.committedOffsets('g')).toHaveLength(1);
  expect([...groups.handleDeleteGroups(g.node, ['g'])]).toEqual([['g', 'NONE']]);
  expect(groups.describe('g')).toBeUndefined();
  expect(groups.committedOffsets('g')).toEqual([]);
  expect([...groups.handleDeleteGroups(g.node, ['g'])]).toEqual([['g', 'GROUP_ID_NOT_FOUND']]);
});

describe('the coordinator moves when its node stops', () => {
  function onThreeNodes() {
    const env = setup(3);
    return env;
  }

  test('a Stable group is loaded on the new coordinator as it was last stored, sessions starting afresh (Stable -> Dead)', () => {
    const { cluster, clock, g, groups } = onThreeNodes();
    const { ids, leader } = stableGroup(g, clock, 2);
    g.commit(leader, 1, [{ partition: 1, offset: 42, metadata: 'm' }]);
    const before = g.node;
    cluster.stopNode(before);
    const after = g.node;
    expect(after).not.toBe(before);
    expect(after).toBeGreaterThanOrEqual(0);
    expect(g.heartbeat(leader, 1, null, before)).toBe('NOT_COORDINATOR');
    expect(g.state).toBe('Stable');
    expect(g.heartbeat(leader, 1)).toBe('NONE');
    expect(g.sync(ids[1]!, 1).result!.error).toBe('NONE');
    expect(groups.committedOffset('g', 't', 1)).toBe(42);
    expect(g.fetch([{ topic: 't', partition: 1 }]).offsets[0]).toMatchObject({ offset: 42, metadata: 'm', error: 'NONE' });
  });

  test('parked JoinGroups get NOT_COORDINATOR, and the group comes back at its last stored generation (PreparingRebalance -> Dead)', () => {
    const { cluster, clock, g } = onThreeNodes();
    const { leader } = stableGroup(g, clock, 2);
    const c = g.newMember();
    const rejoin = g.join({ memberId: leader });
    cluster.stopNode(g.node);
    expect(rejoin.result).toMatchObject({ error: 'NOT_COORDINATOR', memberId: leader });
    expect(c.join.result).toMatchObject({ error: 'NOT_COORDINATOR' });
    expect(g.state).toBe('Stable');
    expect(g.generation).toBe(1);
    // The new member was never stored: it is unknown to the new coordinator.
    expect(g.heartbeat(c.memberId, 1)).toBe('UNKNOWN_MEMBER_ID');
  });

  test('parked SyncGroups get NOT_COORDINATOR (CompletingRebalance -> Dead); a group never stored is gone', () => {
    const { cluster, clock, g, groups } = onThreeNodes();
    const a = g.newMember();
    const b = g.newMember();
    clock.advance(0);
    const parked = g.sync(b.memberId, 1);
    cluster.stopNode(g.node);
    expect(parked.result!.error).toBe('NOT_COORDINATOR');
    expect(groups.describe('g')).toBeUndefined();
    expect(g.heartbeat(a.memberId, 1)).toBe('UNKNOWN_MEMBER_ID');
  });
});

test('Group refuses transitions Kafka does not allow', () => {
  const group = new Group('x', 'Empty', () => 0);
  expect(() => group.transitionTo('Stable')).toThrow(/should be in the CompletingRebalance states before moving to Stable/);
  expect(() => group.transitionTo('CompletingRebalance')).toThrow();
  group.transitionTo('Dead');
  group.transitionTo('Dead');
  expect(() => group.transitionTo('PreparingRebalance')).toThrow();
});

test('every transition of the state machine was driven above', () => {
  expect([...seen].filter((t) => !t.startsWith('Dead ->')).sort()).toEqual(
    [
      'Empty -> PreparingRebalance',
      'PreparingRebalance -> CompletingRebalance',
      'PreparingRebalance -> Empty',
      'CompletingRebalance -> Stable',
      'CompletingRebalance -> PreparingRebalance',
      'Stable -> PreparingRebalance',
      'Empty -> Dead',
      'PreparingRebalance -> Dead',
      'CompletingRebalance -> Dead',
      'Stable -> Dead',
    ].sort(),
  );
});
