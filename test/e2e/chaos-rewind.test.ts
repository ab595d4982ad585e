// Redelivery as a real consumer meets it: a kafkajs consumer group has read
// and committed N messages; a rewind rule moves its committed offset back and
// makes the group rebalance, and the consumer reads the last ones again.
import { groupHarness } from '../support/group-harness.js';
import { messages } from '../support/kafkajs.js';

const h = groupHarness('rewind-test', 5);
const { setup, consumeCommitted, committed, until } = h;

test('rewind by 4: the group rebalances and its consumer reads the last 4 messages again', async () => {
  const topic = 'rewound';
  const groupId = 'rewind-group';
  await setup(topic, 10);
  const seen = await consumeCommitted(groupId, topic, 10);
  const generation = h.kafka.cluster.groups.describe(groupId)!.generationId;

  const rule = h.kafka.chaos.addRule({ match: { api: 'Heartbeat', groupId }, trigger: { type: 'nth', n: 1 }, action: { type: 'rewind', groupId, by: 4 } });
  await h.kafka.chaos.waitForFired(rule.id);
  await until('the rewound messages', () => seen.length >= 14);
  expect(seen).toEqual([...messages(10).map((m) => m.value), 'm6', 'm7', 'm8', 'm9']);
  expect(h.kafka.cluster.groups.describe(groupId)!.generationId).toBeGreaterThan(generation);
  await until('the commit catching up again', () => committed(groupId, topic) === 10);
  expect(h.kafka.chaos.events().find((e) => e.ruleId === rule.id)).toMatchObject({
    action: 'rewind',
    api: 'Heartbeat',
    detail: { groupId, offsets: [{ topic, partition: 0, from: 10, to: 6 }], rebalance: 'rebalancing' },
  });
});
