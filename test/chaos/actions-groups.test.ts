// rewind and rebalance: their outcome as a value, their effect on the group
// coordinator of a model cluster, and the parameters they refuse.
import { chaosActions, type ActionResult } from '../../src/chaos/actions/index.js';
import { RuleValidationError, type FaultRuleInput } from '../../src/chaos/api.js';
import { SeededRandom } from '../../src/chaos/random.js';
import type { Cluster } from '../../src/broker/cluster.js';
import { ApiKey } from '../../src/protocol/messages/index.js';
import { GroupDriver, assignment, groupCluster } from '../broker/groups/driver.js';
import { produce } from '../support/cluster.js';
import { engine, proxied } from './helpers.js';

function fire(cluster: Cluster, type: string, params: Record<string, unknown>): ActionResult {
  const module = chaosActions.get(type)!;
  return module.fire(module.parse({ type, ...params }, { nodeIds: [0] }), {
    request: proxied(ApiKey.Heartbeat, 4, { groupId: 'g', generationId: 1, memberId: 'm', groupInstanceId: null }),
    cluster,
    random: new SeededRandom(1).fork('rule-1'),
  });
}

/** A Stable group 'g' of two members owning t-0,1 and t-2,3, with offsets committed. */
function stableGroup() {
  const { cluster, clock, groups } = groupCluster();
  const g = new GroupDriver(groups, 'g');
  const a = g.newMember({ clientId: 'alpha' });
  clock.advance(0);
  const b = g.newMember({ clientId: 'beta' });
  expect(g.heartbeat(a.memberId, 1)).not.toBe('NONE');
  g.join({ memberId: a.memberId });
  g.sync(a.memberId, 2, { [a.memberId]: assignment({ t: [0, 1] }), [b.memberId]: assignment({ t: [2, 3] }) });
  g.sync(b.memberId, 2);
  expect(g.state).toBe('Stable');
  for (const p of [0, 1, 2, 3]) produce(cluster, 't', p, 10);
  expect(g.commit(a.memberId, 2, [{ partition: 0, offset: 8 }, { partition: 1, offset: 5 }])).toEqual(['NONE', 'NONE']);
  expect(g.commit(b.memberId, 2, [{ partition: 2, offset: 2 }])).toEqual(['NONE']);
  return { cluster, clock, groups, g, a: a.memberId, b: b.memberId };
}

const committed = (cluster: Cluster) => cluster.groups.committedOffsets('g').map((o) => [o.partition, o.offset]);

test('rewind by n moves every committed offset of the group back (not before the log start) and rebalances', () => {
  const { cluster, g, a } = stableGroup();
  const r = fire(cluster, 'rewind', { groupId: 'g', by: 3 });
  expect(r.outcome).toEqual({ request: { kind: 'forward' } });
  expect(r.detail).toEqual({
    groupId: 'g',
    offsets: [
      { topic: 't', partition: 0, from: 8, to: 5 },
      { topic: 't', partition: 1, from: 5, to: 2 },
      { topic: 't', partition: 2, from: 2, to: 0 },
    ],
    rebalance: 'rebalancing',
  });
  expect(committed(cluster)).toEqual([[0, 5], [1, 2], [2, 0]]);
  expect(g.state).toBe('PreparingRebalance');
  expect(g.heartbeat(a, 2)).toBe('REBALANCE_IN_PROGRESS');
});

test("rewind to an offset or 'earliest', narrowed to a topic and partition", () => {
  const { cluster } = stableGroup();
  expect(fire(cluster, 'rewind', { groupId: 'g', topic: 't', partition: 1, to: 'earliest' }).detail).toMatchObject({ offsets: [{ partition: 1, from: 5, to: 0 }] });
  expect(committed(cluster)).toEqual([[0, 8], [1, 0], [2, 2]]);
  expect(fire(cluster, 'rewind', { groupId: 'g', topic: 't', to: 1 }).detail).toMatchObject({
    offsets: [{ partition: 0, from: 8, to: 1 }, { partition: 1, from: 0, to: 1 }, { partition: 2, from: 2, to: 1 }],
    rebalance: 'already-rebalancing',
  });
  expect(fire(cluster, 'rewind', { groupId: 'g', topic: 'other', to: 0 }).detail).toMatchObject({ offsets: [] });
  expect(fire(cluster, 'rewind', { groupId: 'none', by: 1 }).detail).toEqual({ groupId: 'none', offsets: [], rebalance: 'unknown' });
});

test('rebalance forces the whole group to rejoin, or evicts one member by id or id prefix', () => {
  const { cluster, g, a, b } = stableGroup();
  expect(fire(cluster, 'rebalance', { groupId: 'g', memberId: 'beta' })).toEqual({
    outcome: { request: { kind: 'forward' } },
    detail: { groupId: 'g', memberId: b, result: 'evicted' },
  });
  expect(g.heartbeat(b, 2)).toBe('UNKNOWN_MEMBER_ID');
  expect(g.heartbeat(a, 2)).toBe('REBALANCE_IN_PROGRESS');
  expect(fire(cluster, 'rebalance', { groupId: 'g', memberId: b }).detail).toMatchObject({ result: 'unknown-member' });
  expect(fire(cluster, 'rebalance', { groupId: 'g' }).detail).toEqual({ groupId: 'g', result: 'already-rebalancing' });
  g.join({ memberId: a });
  g.sync(a, 3, { [a]: assignment({ t: [0, 1, 2, 3] }) });
  expect(g.state).toBe('Stable');
  expect(fire(cluster, 'rebalance', { groupId: 'g' }).detail).toEqual({ groupId: 'g', result: 'rebalancing' });
  expect(g.heartbeat(a, 3)).toBe('REBALANCE_IN_PROGRESS');
  expect(committed(cluster)).toEqual([[0, 8], [1, 5], [2, 2]]);
});

test('without groupId, the group the request names; evictSender evicts the member that sent it', () => {
  const { cluster, g, a, b } = stableGroup();
  const heartbeat = (memberId: string) => proxied(ApiKey.Heartbeat, 4, { groupId: 'g', generationId: 2, memberId, groupInstanceId: null });
  const fireOn = (request: ReturnType<typeof proxied>, params: Record<string, unknown>) => {
    const module = chaosActions.get('rebalance')!;
    return module.fire(module.parse({ type: 'rebalance', ...params }, { nodeIds: [0] }), { request, cluster, random: new SeededRandom(1).fork('rule-1') });
  };
  expect(fireOn(heartbeat(b), { evictSender: true }).detail).toEqual({ groupId: 'g', memberId: b, result: 'evicted' });
  expect(g.heartbeat(b, 2)).toBe('UNKNOWN_MEMBER_ID');
  expect(g.heartbeat(a, 2)).toBe('REBALANCE_IN_PROGRESS');
  expect(fireOn(heartbeat(b), { evictSender: true }).detail).toEqual({ groupId: 'g', memberId: b, result: 'unknown-member' });
  expect(fireOn(heartbeat(a), {}).detail).toEqual({ groupId: 'g', result: 'already-rebalancing' });
  expect(fireOn(proxied(ApiKey.Metadata, 9, { topics: null, allowAutoTopicCreation: false, includeTopicAuthorizedOperations: false }), {}).detail).toEqual({ result: 'no-group' });
  expect(fire(cluster, 'rewind', { by: 3 }).detail).toMatchObject({ groupId: 'g', offsets: [{ partition: 0, from: 8, to: 5 }, { partition: 1, from: 5, to: 2 }, { partition: 2, from: 2, to: 0 }] });
});

function refusal(action: Record<string, unknown>): string {
  const { chaos } = engine();
  try {
    chaos.addRule({ action } as FaultRuleInput);
  } catch (err) {
    if (err instanceof RuleValidationError) return err.field;
    throw err;
  }
  throw new Error(`accepted ${JSON.stringify(action)}`);
}

test.each<[Record<string, unknown>, string]>([
  [{ type: 'rewind', groupId: '', by: 1 }, 'action.groupId'],
  [{ type: 'rewind', groupId: 'g' }, 'action.to'],
  [{ type: 'rewind', groupId: 'g', to: 'latest' }, 'action.to'],
  [{ type: 'rewind', groupId: 'g', to: -1 }, 'action.to'],
  [{ type: 'rewind', groupId: 'g', by: 0 }, 'action.by'],
  [{ type: 'rewind', groupId: 'g', to: 0, by: 1 }, 'action.by'],
  [{ type: 'rewind', groupId: 'g', partition: 0, by: 1 }, 'action.partition'],
  [{ type: 'rewind', groupId: 'g', by: 1, offset: 3 }, 'action.offset'],
  [{ type: 'rebalance', groupId: 5 }, 'action.groupId'],
  [{ type: 'rebalance', evictSender: 'yes' }, 'action.evictSender'],
  [{ type: 'rebalance', memberId: 'm', evictSender: true }, 'action.evictSender'],
  [{ type: 'rebalance', groupId: 'g', memberId: '' }, 'action.memberId'],
])('refuses %j, naming %s', (action, field) => {
  expect(refusal(action)).toBe(field);
});
