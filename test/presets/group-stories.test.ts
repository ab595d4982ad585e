// The built-in presets about consumer groups, applied as they stand to a
// running cluster while kafkajs members consume: what each `expect` promises
// is asserted on what the members processed and on the group's committed
// offsets. Producer presets: stories.test.ts.
import { applyPreset, resolvePreset } from '../../src/presets/index.js';
import { groupHarness } from '../support/group-harness.js';
import { messages } from '../support/kafkajs.js';

const h = groupHarness('preset-story', 8);
const { setup, produce, consume, consumeCommitted, committed, until } = h;
// Each story's members leave when it ends, so the next story's rules meet only its own group.
afterEach(async () => {
  h.kafka.chaos.clearRules();
  await h.leave();
});

const values = (n: number, prefix = 'm') => messages(n, prefix).map((m) => m.value as string);

test('coordinator-moves: NOT_COORDINATOR three times, and the consumer finds its coordinator again, skipping nothing', async () => {
  const topic = 'story-coordinator';
  const groupId = 'story-coordinator-group';
  await setup(topic, 5);
  const [rule] = applyPreset(h.kafka.chaos, resolvePreset('coordinator-moves'));
  const seen = await consumeCommitted(groupId, topic, 5);
  expect(h.kafka.chaos.rule(rule!.id)).toMatchObject({ fired: 3 });
  expect(new Set(seen)).toEqual(new Set(values(5)));
  expect(seen.slice(0, 5)).toEqual(values(5));
});

test('offset-commit-lost: the stored commit is reported failed, and the committed offset is the stored one', async () => {
  const topic = 'story-commit-lost';
  const groupId = 'story-commit-lost-group';
  await setup(topic, 5);
  const [rule] = applyPreset(h.kafka.chaos, resolvePreset('offset-commit-lost'));
  const seen = await consumeCommitted(groupId, topic, 5);
  expect(h.kafka.chaos.rule(rule!.id)).toMatchObject({ fired: 1 });
  await produce(topic, ['after']);
  await until('the next message committed', () => seen.includes('after') && committed(groupId, topic) === 6);
  // Nothing skipped; anything read twice is a redelivery the application's dedup must absorb.
  expect([...new Set(seen)]).toEqual([...values(5), 'after']);
});

test('redelivery: the group reads records again after committing them, then catches up', async () => {
  const topic = 'story-redelivery';
  const groupId = 'story-redelivery-group';
  await setup(topic, 10);
  const seen = await consumeCommitted(groupId, topic, 10);
  const generation = h.kafka.cluster.groups.describe(groupId)!.generationId;

  const [rule] = applyPreset(h.kafka.chaos, resolvePreset('redelivery'));
  await h.kafka.chaos.waitForFired(rule!.id, 1, 10_000);
  await until('the redelivered messages', () => seen.length >= 15);
  expect(seen).toEqual([...values(10), 'm5', 'm6', 'm7', 'm8', 'm9']);
  expect(h.kafka.cluster.groups.describe(groupId)!.generationId).toBeGreaterThan(generation);
  await until('the commit caught up again', () => committed(groupId, topic) === 10);
  expect(h.kafka.chaos.events().find((e) => e.ruleId === rule!.id)).toMatchObject({
    action: 'rewind',
    detail: { groupId, offsets: [{ topic, partition: 0, from: 10, to: 5 }], rebalance: 'rebalancing' },
  });
});

test('rebalance-storm: members are evicted six times, rejoin each time, and every record is processed', async () => {
  const topic = 'story-storm';
  const groupId = 'story-storm-group';
  await setup(topic, 10);
  const seen: string[] = [];
  await consume(groupId, topic, seen);
  await consume(groupId, topic, seen);
  await until('10 messages committed', () => committed(groupId, topic) === 10);
  const before = h.kafka.cluster.groups.describe(groupId)!;

  const [rule] = applyPreset(h.kafka.chaos, resolvePreset('rebalance-storm'));
  const more = values(20, 'storm-');
  for (const value of more) await produce(topic, [value]);
  await h.kafka.chaos.waitForFired(rule!.id, 6, 20_000);
  await until('every record processed', () => more.every((v) => seen.includes(v)), 20_000);
  await until('the group stable with both members', () => {
    const d = h.kafka.cluster.groups.describe(groupId)!;
    return d.state === 'Stable' && d.members.length === 2;
  });

  const evictions = h.kafka.chaos.events().filter((e) => e.ruleId === rule!.id);
  expect(evictions.map((e) => e.detail)).toEqual(Array(6).fill(expect.objectContaining({ groupId, result: 'evicted' })));
  const after = h.kafka.cluster.groups.describe(groupId)!;
  expect(after.generationId).toBeGreaterThanOrEqual(before.generationId + 6);
  // Members came back under new ids; nothing was skipped, at most redelivered.
  expect(after.members.map((m) => m.memberId)).not.toEqual(before.members.map((m) => m.memberId));
  expect([...new Set(seen)].sort()).toEqual([...values(10), ...more].sort());
  await until('the commit caught up', () => committed(groupId, topic) === 30);
});

test('coordinator-loading: the warm-up errors are retried; the group forms and consumes, and the idempotent producer gets its id', async () => {
  const topic = 'story-loading';
  const groupId = 'story-loading-group';
  await setup(topic, 3);
  const rules = applyPreset(h.kafka.chaos, resolvePreset('coordinator-loading'));
  const producer = h.client.producer({ idempotent: true, maxInFlightRequests: 1 });
  await producer.connect();
  try {
    await producer.send({ topic, messages: [{ value: 'm3' }] });
  } finally {
    await producer.disconnect();
  }
  const seen = await consumeCommitted(groupId, topic, 4);
  expect(seen).toEqual(values(4));
  // Each warm-up error was answered as many times as the preset says.
  expect(rules.map((r) => h.kafka.chaos.rule(r.id)!.fired)).toEqual([1, 2, 2, 2]);
});
