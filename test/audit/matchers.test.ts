// The delivery matchers and withFault, in process: their pass and failure
// messages against a real cluster (in process and over the control API).
// The nested jest run in matchers-project.test.ts registers them from
// setupFilesAfterEnv, as a user's project would.
import type { Kafka } from 'kafkajs';
import { startCluster, ControlClient, type ProcessedRecord, type RunningCluster } from '../../src/index.js';
import { deliveryMatchers } from '../../src/jest/matchers.js';
import { withFault } from '../../src/jest/index.js';
import { kafkajs } from '../support/kafkajs.js';

expect.extend(deliveryMatchers);

let kafka: RunningCluster;
let client: Kafka;
beforeAll(async () => {
  kafka = await startCluster({ brokers: 1, seed: 3, topics: [{ name: 'orders', partitions: 1 }, { name: 'refunds', partitions: 1 }] });
  client = kafkajs(kafka.bootstrap, 'billing-1');
  const producer = client.producer({ idempotent: false });
  await producer.connect();
  // The first Produce is stored and its answer lost: the retry stores o-1 and o-2 again.
  await withFault({ id: 'lost-ack', match: { api: 'Produce', topic: 'orders' }, trigger: { type: 'nth', n: 1 }, action: { type: 'drop-response' } },
    () => producer.send({ topic: 'orders', acks: -1, messages: [{ key: 'o-1', value: '1' }, { key: 'o-2', value: '2' }] }),
    { on: kafka.chaos });
  await producer.send({ topic: 'refunds', acks: -1, messages: ['r-1', 'r-2', 'r-3'].map((key) => ({ key, value: key })) });
  await producer.disconnect();
});
afterAll(() => kafka.stop());

const at = (offset: number, topic = 'refunds'): ProcessedRecord => ({ topic, partition: 0, offset, consumer: 'c1' });

/** The failure message a matcher gives (the assertion must fail). */
async function failure(p: Promise<unknown>): Promise<string> {
  const err = await p.then(() => undefined, (e: unknown) => e);
  expect(err).toBeInstanceOf(Error);
  return (err as Error).message;
}

test('withFault added the rule, saw it fire, and removed it', () => {
  expect(kafka.chaos.rules()).toEqual([]);
  expect(kafka.chaos.events().filter((e) => e.ruleId === 'lost-ack')).toHaveLength(1);
});

test('all four pass on a clean run, in process and over the control API', async () => {
  const processed = [at(0), at(1), at(2)];
  await expect(processed).toHaveNoDuplicates({ cluster: kafka });
  await expect(processed).toHaveNoLoss({ cluster: kafka });
  await expect(processed).toBeInPartitionOrder({ cluster: kafka });
  await expect(processed).toBeDeliveredExactlyOnce({ cluster: kafka });
  await expect(['r-1', 'r-2', 'r-3']).toBeDeliveredExactlyOnce({ cluster: kafka.controlUrl, topic: 'refunds' });
  await expect(['r-1', 'r-2', 'r-3']).toBeDeliveredExactlyOnce({ cluster: new ControlClient(kafka.controlUrl), topic: 'refunds' });
});

test('toHaveNoDuplicates: a processed-twice record and a stored-twice id, each with the fault before it', async () => {
  const msg = await failure(expect([at(0), at(1), at(0)]).toHaveNoDuplicates({ cluster: kafka }));
  expect(msg).toContain('expected no duplicates (refunds; 3 processed, 3 stored), but:');
  expect(msg).toContain("duplicate: record 'r-1' of refunds-0 (offset 0) was processed twice by c1 (items 0, 2), with no fault before it");

  const stored = await failure(expect(['o-1', 'o-2']).toHaveNoDuplicates({ cluster: kafka.controlUrl, topic: 'orders' }));
  expect(stored).toMatch(/duplicate: record 'o-1' is stored twice \(orders-0@0, orders-0@2\), after the drop-response fault fired on Produce to orders-0 from client billing-1 \(rule lost-ack, event \d+\)/);
  // Only what was processed: the consumer deduplicated, so this passes.
  await expect(['o-1', 'o-2']).toHaveNoDuplicates({ cluster: kafka, topic: 'orders', in: 'processing' });
});

test('toHaveNoLoss with acknowledged: an id the client acknowledged and the log never stored fails it, in process and over the control API', async () => {
  const acknowledged = ['r-1', { id: 'r-9', topic: 'refunds', partition: 0, producer: 'billing-1' }];
  for (const cluster of [kafka, kafka.controlUrl]) {
    const loss = await failure(expect(['r-1', 'r-2', 'r-3']).toHaveNoLoss({ cluster, topic: 'refunds', acknowledged }));
    expect(loss).toContain("lost-write: record 'r-9' of refunds-0 was acknowledged to producer billing-1 but is stored nowhere in refunds");
  }
  await expect(['r-1', 'r-2', 'r-3']).toHaveNoLoss({ cluster: kafka, topic: 'refunds', acknowledged: ['r-1', 'r-3'] });
});

test('toHaveNoLoss and toBeInPartitionOrder name the records', async () => {
  const processed = [at(0), at(2)];
  const loss = await failure(expect(processed).toHaveNoLoss({ cluster: kafka }));
  expect(loss).toContain("lost-write: record 'r-2' of refunds-0 (offset 1) was acknowledged but never processed, though offset 2 of that partition was");
  const order = await failure(expect(processed).toBeInPartitionOrder({ cluster: kafka }));
  expect(order).toContain('poll-skip: c1 skipped offset 1 of refunds-0, going from offset 0 to 2 (item 1)');
  expect(order).not.toContain('lost-write'); // each matcher lists its own kinds
  await expect(processed).toHaveNoDuplicates({ cluster: kafka });
});

test('.not, unmatched items, and a function idFrom over HTTP', async () => {
  await expect([at(0), at(0)]).not.toHaveNoDuplicates({ cluster: kafka });
  const notMsg = await failure(expect([at(0), at(1), at(2)]).not.toBeDeliveredExactlyOnce({ cluster: kafka }));
  expect(notMsg).toBe('expected exactly-once delivery to fail, but the audit (refunds; 3 processed, 3 stored) found nothing');
  const unmatched = await failure(expect(['r-1', 'r-2', 'r-3', 'nope']).toHaveNoLoss({ cluster: kafka, topic: 'refunds' }));
  expect(unmatched).toContain("processed items that match nothing in the log:\n  item 3: id 'nope' is not stored in the audited topics (refunds)");
  await expect(expect(['r-1']).toHaveNoLoss({ cluster: kafka.controlUrl, idFrom: (r) => r.key })).rejects.toThrow(/idFrom: a function works only with an in-process cluster/);
  await expect(expect('r-1').toHaveNoLoss({ cluster: kafka })).rejects.toThrow(/expect\(\) takes the processed items/);
});

test('withFault over the control API removes a rule that never fired, and fails naming its counts', async () => {
  const control = new ControlClient(kafka.controlUrl);
  const never = withFault({ id: 'idle', match: { api: 'DeleteTopics' }, action: { type: 'delay', ms: 10 } }, async () => 'done', { on: control, timeoutMs: 200 });
  await expect(never).rejects.toThrow(/idle fired 0 of 1 times within 200 ms/);
  expect(await control.faults()).toEqual([]);
  // A block that throws: the rule still goes, and the block's error is the one reported.
  await expect(withFault({ id: 'boom', action: { type: 'delay', ms: 1 } }, () => Promise.reject(new Error('the block failed')), { on: control })).rejects.toThrow('the block failed');
  expect(await control.faults()).toEqual([]);
});
