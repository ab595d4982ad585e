// The coordinator's fault methods the chaos actions call (rewind, rebalance):
// overwrite committed offsets, force a rebalance, expire one member.
import type { ManualClock } from '../../../src/broker/clock.js';
import { GroupDriver, assignment, groupCluster } from './driver.js';

function stable(g: GroupDriver, clock: ManualClock): string {
  const a = g.newMember();
  clock.advance(0);
  g.sync(a.memberId, 1, { [a.memberId]: assignment({ t: [0, 1, 2, 3] }) });
  expect(g.state).toBe('Stable');
  return a.memberId;
}

test('setCommittedOffsets overwrites offsets in any state, keeps metadata, and emits offsets-committed', () => {
  const { clock, groups } = groupCluster();
  const g = new GroupDriver(groups, 'g');
  const a = stable(g, clock);
  expect(g.commit(a, 1, [{ partition: 0, offset: 9, metadata: 'm' }])).toEqual(['NONE']);
  const seen: unknown[] = [];
  groups.on('offsets-committed', (e) => seen.push(e.offsets.map((o) => [o.partition, o.offset])));
  expect(groups.setCommittedOffsets('g', [{ topic: 't', partition: 0, offset: 3 }, { topic: 't', partition: 1, offset: 0 }])).toBe(true);
  expect(g.fetch(null).offsets.map((o) => [o.partition, o.offset, o.metadata])).toEqual([
    [0, 3, 'm'],
    [1, 0, ''],
  ]);
  expect(seen).toEqual([[[0, 3], [1, 0]]]);
  expect(g.state).toBe('Stable');
  expect(groups.setCommittedOffsets('nope', [{ topic: 't', partition: 0, offset: 0 }])).toBe(false);
});

test('forceRebalance: a Stable group goes to PreparingRebalance and the member learns it from its heartbeat', () => {
  const { clock, groups } = groupCluster();
  const g = new GroupDriver(groups, 'g');
  const a = stable(g, clock);
  expect(groups.forceRebalance('g')).toBe('rebalancing');
  expect(g.state).toBe('PreparingRebalance');
  expect(g.heartbeat(a, 1)).toBe('REBALANCE_IN_PROGRESS');
  expect(groups.forceRebalance('g')).toBe('already-rebalancing');
  const rejoin = g.join({ memberId: a });
  expect(rejoin.result).toMatchObject({ error: 'NONE', generationId: 2 });
  expect(groups.forceRebalance('unknown')).toBe('unknown');
  expect(g.leave([{ memberId: a }]).members[0]!.error).toBe('NONE');
  expect(groups.forceRebalance('g')).toBe('empty');
});

test('expireMember removes a member as a session timeout would; the others rebalance without it', () => {
  const { clock, groups } = groupCluster();
  const g = new GroupDriver(groups, 'g');
  const a = stable(g, clock);
  const b = g.newMember();
  expect(g.heartbeat(a, 1)).toBe('REBALANCE_IN_PROGRESS');
  g.join({ memberId: a });
  expect(g.generation).toBe(2);
  g.sync(a, 2, { [a]: assignment({ t: [0, 1] }), [b.memberId]: assignment({ t: [2, 3] }) });
  g.sync(b.memberId, 2);
  expect(g.state).toBe('Stable');
  const removed: unknown[] = [];
  groups.on('member-removed', (e) => removed.push([e.memberId, e.reason]));
  expect(groups.expireMember('g', b.memberId)).toBe(true);
  expect(removed).toEqual([[b.memberId, 'session-timeout']]);
  expect(g.heartbeat(b.memberId, 2)).toBe('UNKNOWN_MEMBER_ID');
  expect(g.state).toBe('PreparingRebalance');
  expect(g.heartbeat(a, 2)).toBe('REBALANCE_IN_PROGRESS');
  expect(groups.expireMember('g', b.memberId)).toBe(false);
  expect(groups.expireMember('nope', a)).toBe(false);
});
