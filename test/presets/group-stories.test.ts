// The built-in presets about consumer groups, applied as they stand to a
// running cluster while kafkajs members consume: what each `expect` promises
// is asserted on what the members processed and on the group's committed
// offsets. Producer presets: stories.test.ts.
import { applyPreset, resolvePreset } from '../../src/presets/index.js';
import { groupHarness } from '../support/group-harness.js';
import { createTopics, messages } from '../support/kafkajs.js';

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

/**
 * A member as an application makes it, with kafkajs' default heartbeat (every
 * 3 s), and a probe rule that records each of the group's Heartbeats as an
 * event: a fault whose event comes before the first Heartbeat fired before
 * the member's first heartbeat interval was over.
 */
async function defaultMember(groupId: string, topic: string, seen: string[]) {
  h.kafka.chaos.addRule({ id: `${groupId}-heartbeats`, match: { api: 'Heartbeat', groupId }, action: { type: 'delay', ms: 0 } });
  const c = h.client.consumer({ groupId, maxWaitTimeInMs: 100, retry: { retries: 20, initialRetryTime: 50, maxRetryTime: 500 } });
  await c.connect();
  await c.subscribe({ topic, fromBeginning: true });
  await c.run({ eachMessage: async ({ message }) => void seen.push(message.value!.toString()) });
  return c;
}
const bounded = (p: Promise<unknown>) => Promise.race([p.catch(() => {}), new Promise((r) => setTimeout(r, 3000).unref())]);
const beforeFirstHeartbeat = (ruleId: string, groupId: string) => {
  const events = h.kafka.chaos.events();
  const fault = events.find((e) => e.ruleId === ruleId)!;
  const heartbeat = events.find((e) => e.ruleId === `${groupId}-heartbeats`);
  return fault !== undefined && (heartbeat === undefined || fault.seq < heartbeat.seq);
};

test('redelivery: the group\'s first commit finds its member evicted and is not stored, so what it processed comes again, before its first Heartbeat', async () => {
  const topic = 'story-redelivery';
  const groupId = 'story-redelivery-group';
  await setup(topic, 5);
  const [evict] = applyPreset(h.kafka.chaos, resolvePreset({ name: 'redelivery', params: { group: groupId } }));
  const seen: string[] = [];
  const c = await defaultMember(groupId, topic, seen);
  try {
    await until('the redelivered messages', () => seen.length >= 10);
    await until('the commit caught up', () => committed(groupId, topic) === 5);
    expect(seen).toEqual([...values(5), ...values(5)]);
    expect(h.kafka.chaos.rule(evict!.id)).toMatchObject({ fired: 1 });
    expect(h.kafka.chaos.events().find((e) => e.ruleId === evict!.id)).toMatchObject({ api: 'OffsetCommit', detail: { groupId, result: 'evicted' } });
    expect(beforeFirstHeartbeat(evict!.id, groupId)).toBe(true);
  } finally {
    await bounded(c.disconnect());
  }
});

test('redelivery aimed at one group leaves the others alone', async () => {
  const topic = 'story-redelivery-aimed';
  await setup(topic, 3);
  const [evict] = applyPreset(h.kafka.chaos, resolvePreset('redelivery?group=/^app-/'));
  const seen = await consumeCommitted('checker-group', topic, 3);
  expect(seen).toEqual(values(3));
  expect(h.kafka.chaos.rule(evict!.id)).toMatchObject({ fired: 0, matched: 0 });
});

test('rebalance-storm: the member is evicted on its group\'s first three commits or heartbeats, rejoins each time, and every record is processed', async () => {
  const topic = 'story-storm';
  const groupId = 'story-storm-group';
  await setup(topic, 10);
  const [rule] = applyPreset(h.kafka.chaos, resolvePreset({ name: 'rebalance-storm', params: { group: groupId } }));
  const seen: string[] = [];
  const c = await defaultMember(groupId, topic, seen);
  try {
    await h.kafka.chaos.waitForFired(rule!.id, 3, 20_000);
    expect(beforeFirstHeartbeat(rule!.id, groupId)).toBe(true);
    await until('the commit caught up', () => committed(groupId, topic) === 10, 20_000);
    const evictions = h.kafka.chaos.events().filter((e) => e.ruleId === rule!.id);
    expect(evictions.map((e) => e.detail)).toEqual(Array(3).fill(expect.objectContaining({ groupId, result: 'evicted' })));
    // Nothing was skipped; what an evicted member had processed was delivered again.
    expect([...new Set(seen)].sort()).toEqual(values(10).sort());
    expect(seen.length).toBeGreaterThan(10);
  } finally {
    await bounded(c.disconnect());
  }
});

test('stalled-produce: the output of a client that consumes in a group is held, so an input committed before its acknowledgement has no output', async () => {
  const input = 'story-stalled-in';
  const output = 'story-stalled-out';
  const groupId = 'story-stalled-group';
  await setup(input, 3); // the test's own producer, before any consumer joined: not held
  await createTopics(h.client, { topic: output, numPartitions: 1, replicationFactor: 1 });
  const [rule] = applyPreset(h.kafka.chaos, resolvePreset('stalled-produce'));
  expect(h.kafka.chaos.rule(rule!.id)).toMatchObject({ fired: 0 });
  const producer = h.client.producer();
  await producer.connect();
  const outputs: Promise<unknown>[] = [];
  // The buggy transform: it sends its output and lets kafkajs commit the input without waiting for the answer.
  const c = h.client.consumer({ groupId, maxWaitTimeInMs: 100 });
  await c.connect();
  await c.subscribe({ topic: input, fromBeginning: true });
  await c.run({ eachMessage: async ({ message }) => void outputs.push(producer.send({ topic: output, messages: [{ value: message.value }] }).catch(() => {})) });
  try {
    await until('the input committed', () => committed(groupId, input) === 3);
    await h.kafka.chaos.waitForFired(rule!.id, 1, 10_000);
    expect(h.kafka.chaos.events().find((e) => e.ruleId === rule!.id)).toMatchObject({ api: 'Produce', topic: output, clientId: 'preset-story' });
    // Every input is committed, and none of its outputs is in the log.
    expect(h.kafka.cluster.partition(output, 0)!.logEndOffset).toBe(0);
  } finally {
    await bounded(c.disconnect());
    h.kafka.chaos.clearRules(); // releases the held output
    await Promise.all(outputs.map(bounded));
    await bounded(producer.disconnect());
  }
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
