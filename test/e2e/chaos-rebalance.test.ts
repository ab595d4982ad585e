// rebalance with kafkajs through the proxy: a member evicted as an expired
// session would rejoins under a new member id and reads on; a whole-group
// rebalance bumps the generation and the member goes on where it was.
import { groupHarness } from '../support/group-harness.js';

const h = groupHarness('rebalance-test', 6);
const { setup, produce, consumeCommitted, until } = h;

test('rebalance with memberId: the evicted member rejoins under a new id and reads on', async () => {
  const topic = 'evicted';
  const groupId = 'evict-group';
  await setup(topic, 3);
  const seen = await consumeCommitted(groupId, topic, 3);
  const before = h.kafka.cluster.groups.describe(groupId)!;
  expect(before.members.map((m) => m.memberId)).toEqual([expect.stringMatching(/^rebalance-test-/)]);

  const rule = h.kafka.chaos.addRule({ match: { api: 'Heartbeat', groupId }, trigger: { type: 'nth', n: 1 }, action: { type: 'rebalance', groupId, memberId: 'rebalance-test' } });
  await h.kafka.chaos.waitForFired(rule.id);
  expect(h.kafka.chaos.events().find((e) => e.ruleId === rule.id)!.detail).toEqual({ groupId, memberId: before.members[0]!.memberId, result: 'evicted' });
  await until('the member back under a new id', () => {
    const d = h.kafka.cluster.groups.describe(groupId)!;
    return d.state === 'Stable' && d.members.length === 1 && d.members[0]!.memberId !== before.members[0]!.memberId;
  });
  await produce(topic, ['after']);
  await until('the message sent after the eviction', () => seen.includes('after'));
  // Everything was committed before the eviction: nothing is read twice.
  expect(seen).toEqual(['m0', 'm1', 'm2', 'after']);
});

test('rebalance of the whole group: the generation moves on, nothing is read twice', async () => {
  const topic = 'regrouped';
  const groupId = 'regroup-group';
  await setup(topic, 3);
  const seen = await consumeCommitted(groupId, topic, 3);
  const before = h.kafka.cluster.groups.describe(groupId)!;
  const rule = h.kafka.chaos.addRule({ match: { api: 'Heartbeat', groupId }, trigger: { type: 'nth', n: 1 }, action: { type: 'rebalance', groupId } });
  await h.kafka.chaos.waitForFired(rule.id);
  expect(h.kafka.chaos.events().find((e) => e.ruleId === rule.id)!.detail).toEqual({ groupId, result: 'rebalancing' });
  await until('the group stable again', () => {
    const d = h.kafka.cluster.groups.describe(groupId)!;
    return d.state === 'Stable' && d.generationId > before.generationId;
  });
  expect(h.kafka.cluster.groups.describe(groupId)!.members.map((m) => m.memberId)).toEqual(before.members.map((m) => m.memberId));
  await produce(topic, ['after']);
  await until('the message sent after the rebalance', () => seen.includes('after'));
  expect(seen).toEqual(['m0', 'm1', 'm2', 'after']);
});
