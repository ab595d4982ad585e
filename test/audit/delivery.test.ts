// The delivery audit end to end: kafkajs producers and consumers through the
// chaos proxy, the audit in process and over the control API.
//   - a non-idempotent producer whose first Produce answer is dropped stores
//     a duplicate, preceded by the drop-response event;
//   - a consumer that seeks over records skips them (poll skip);
//   - a read_uncommitted consumer processes an aborted transaction (aborted read).
import type { Consumer, EachMessagePayload, Kafka } from 'kafkajs';
import { auditDelivery, startCluster, ControlClient, ControlError, type ProcessedRecord, type RunningCluster } from '../../src/index.js';
import { consumeUntil, createTopics, kafkajs } from '../support/kafkajs.js';

let kafka: RunningCluster;
let client: Kafka;
beforeAll(async () => {
  kafka = await startCluster({ brokers: 3, seed: 6, groupInitialRebalanceDelayMs: 0 });
  client = kafkajs(kafka.bootstrap, 'audit-e2e');
});
afterEach(() => kafka.chaos.clearRules());
afterAll(() => kafka.stop());

async function createTopic(topic: string) {
  await createTopics(client, { topic, numPartitions: 1, replicationFactor: 3 });
}

/**
 * A consumer group member reading `topic` from the beginning, recording each
 * record it processes, until `done` says so (or 15 s pass); then it leaves.
 */
async function processAll(topic: string, o: { groupId: string; done: (seen: ProcessedRecord[]) => boolean; readUncommitted?: boolean; onMessage?: (offset: number, c: Consumer) => void }) {
  const consumer = kafkajs(kafka.bootstrap, o.groupId).consumer({ groupId: o.groupId, readUncommitted: o.readUncommitted ?? false, maxWaitTimeInMs: 100 });
  const seen: ProcessedRecord[] = [];
  const each = ({ partition, message }: EachMessagePayload) => {
    seen.push({ topic, partition, offset: Number(message.offset), consumer: o.groupId });
    o.onMessage?.(Number(message.offset), consumer);
    return o.done(seen);
  };
  await consumeUntil(consumer, topic, each, 15_000);
  return seen;
}

test('a lost Produce answer and a non-idempotent retry: the audit names the duplicate and the drop-response fault before it', async () => {
  await createTopic('orders');
  const producer = kafkajs(kafka.bootstrap, 'billing-1').producer({ idempotent: false });
  await producer.connect();
  const rule = kafka.chaos.addRule({ id: 'lost-ack', match: { api: 'Produce', topic: 'orders' }, trigger: { type: 'nth', n: 1 }, action: { type: 'drop-response' } });
  await producer.send({ topic: 'orders', acks: -1, messages: ['o-1', 'o-2', 'o-3'].map((key) => ({ key, value: `order ${key}` })) });
  await producer.disconnect();
  expect(kafka.chaos.rule(rule.id)).toMatchObject({ fired: 1 });

  const processed = await processAll('orders', { groupId: 'shipping', done: (s) => s.length >= 6 });
  expect(processed.map((p) => p.offset)).toEqual([0, 1, 2, 3, 4, 5]);
  const report = auditDelivery(kafka, { topics: ['orders'], idFrom: 'key', processed });
  const dropEvent = kafka.chaos.events().find((e) => e.ruleId === 'lost-ack')!;
  expect(report.counts).toMatchObject({ records: 6, unacknowledged: 3, duplicate: 6, 'lost-write': 0, unseen: 0 });
  const stored = report.anomalies.filter((a) => a.in === 'log');
  expect(stored.map((a) => [a.id, a.offsets])).toEqual([['o-1', [0, 3]], ['o-2', [1, 4]], ['o-3', [2, 5]]]);
  for (const a of stored) expect(a.precededBy).toEqual([dropEvent]);
  expect(stored[0]!.message).toBe(`record 'o-1' is stored twice (orders-0@0, orders-0@3), after the drop-response fault fired on Produce to orders-0 from client billing-1 (rule lost-ack, event ${dropEvent.seq})`);
  const twice = report.anomalies.filter((a) => a.in === 'processing');
  expect(twice.map((a) => a.message.split(', after')[0])).toEqual([
    "record 'o-1' of orders-0 (offsets 0, 3) was processed twice by shipping (items 0, 3)",
    "record 'o-2' of orders-0 (offsets 1, 4) was processed twice by shipping (items 1, 4)",
    "record 'o-3' of orders-0 (offsets 2, 5) was processed twice by shipping (items 2, 5)",
  ]);

  // The same audit over the control API.
  const control = new ControlClient(kafka.controlUrl);
  const overHttp = await control.audit({ topics: ['orders'], idFrom: 'key', processed });
  expect(overHttp).toEqual(JSON.parse(JSON.stringify(report)));
  // Processed once each (a consumer that deduplicates by id): only the stored duplicates remain.
  const deduped = await control.audit({ topics: ['orders'], processed: ['o-1', 'o-2', 'o-3'] });
  expect(deduped.anomalies.map((a) => `${a.kind} ${a.in} ${a.id}`)).toEqual(['duplicate log o-1', 'duplicate log o-2', 'duplicate log o-3']);
  const refused = await control.audit({ processed: [{ topic: 'orders', partition: 0, offset: -3 }] }).catch((e: unknown) => e);
  expect(refused).toBeInstanceOf(ControlError);
  expect(refused).toMatchObject({ status: 400, error: 'bad_parameter', field: 'processed[0].offset' });
  expect((refused as ControlError).message).toBe('POST /v1/audit: processed[0].offset: expected a whole number >= 0');
  const noFunctions = await control.request('POST /v1/audit', { body: { processed: [], idFrom: 'value' as never } }).catch((e: unknown) => e);
  expect(noFunctions).toMatchObject({ status: 400, field: 'idFrom' });
});

test('the same lost answer with an idempotent producer: one copy, acknowledged by the retry, delivered exactly once', async () => {
  await createTopic('invoices');
  const producer = kafkajs(kafka.bootstrap, 'billing-2').producer({ idempotent: true, maxInFlightRequests: 1 });
  await producer.connect();
  kafka.chaos.addRule({ id: 'lost-ack-2', match: { api: 'Produce', topic: 'invoices' }, trigger: { type: 'nth', n: 1 }, action: { type: 'drop-response' } });
  await producer.send({ topic: 'invoices', acks: -1, messages: ['i-1', 'i-2'].map((key) => ({ key, value: key })) });
  await producer.disconnect();
  expect(kafka.chaos.rule('lost-ack-2')).toMatchObject({ fired: 1 });
  const processed = await processAll('invoices', { groupId: 'accounting', done: (s) => s.length >= 2 });
  expect(auditDelivery(kafka, { topics: ['invoices'], processed })).toMatchObject({ ok: true, counts: { records: 2, unacknowledged: 0 } });
  // Had the consumer missed i-2, it would be a loss: the retry's answer acknowledged it.
  expect(auditDelivery(kafka, { topics: ['invoices'], processed: ['i-1'] }).anomalies.map((a) => `${a.kind} ${a.id}`)).toEqual(['unseen i-2']);
});

test('a consumer that seeks over records: poll skip, and the skipped records are lost writes', async () => {
  await createTopic('skips');
  const producer = client.producer();
  await producer.connect();
  await producer.send({ topic: 'skips', acks: -1, messages: Array.from({ length: 6 }, (_, i) => ({ key: `s-${i}`, value: String(i) })) });
  await producer.disconnect();
  let sought = false;
  const processed = await processAll('skips', {
    groupId: 'skipper',
    done: (s) => s.some((p) => p.offset === 5),
    // The bug under test: after offset 1 the consumer jumps to offset 4.
    onMessage: (offset, c) => {
      if (offset === 1 && !sought) {
        sought = true;
        c.seek({ topic: 'skips', partition: 0, offset: '4' });
      }
    },
  });
  const report = auditDelivery(kafka, { processed });
  expect(report.topics).toEqual(['skips']);
  const kinds = report.anomalies.map((a) => `${a.kind} ${a.id} [${a.offsets.join(',')}]`);
  expect(kinds).toContain('poll-skip s-4 [2,3]');
  expect(kinds).toContain('lost-write s-2 [2]');
  expect(kinds).toContain('lost-write s-3 [3]');
  expect(report.anomalies.find((a) => a.kind === 'poll-skip')!.message).toMatch(/^skipper skipped 2 offsets 2, 3 of skips-0, going from offset 1 to 4/);
});

test('read_uncommitted processes an aborted transaction: aborted read; read_committed does not', async () => {
  await createTopic('payments');
  const producer = kafkajs(kafka.bootstrap, 'payments-app').producer({ transactionalId: 'payments-tx', idempotent: true, maxInFlightRequests: 1 });
  await producer.connect();
  const aborted = await producer.transaction();
  await aborted.send({ topic: 'payments', messages: [{ key: 'p-1', value: 'x' }, { key: 'p-2', value: 'y' }] });
  await aborted.abort();
  const committed = await producer.transaction();
  await committed.send({ topic: 'payments', messages: [{ key: 'p-3', value: 'z' }] });
  await committed.commit();
  await producer.disconnect();

  const dirty = await processAll('payments', { groupId: 'dirty-reader', readUncommitted: true, done: (s) => s.length >= 3 });
  const report = auditDelivery(kafka, { topics: ['payments'], processed: dirty });
  expect(report.anomalies.map((a) => `${a.kind} ${a.id}`)).toEqual(['aborted-read p-1', 'aborted-read p-2']);
  expect(report.counts.aborted).toBe(2);
  expect(report.anomalies[0]!.message).toMatch(/^record 'p-1' of payments-0 \(offset 0\) of an aborted transaction was processed by dirty-reader/);

  const clean = await processAll('payments', { groupId: 'clean-reader', done: (s) => s.length >= 1 });
  expect(clean.map((p) => p.offset)).toEqual([3]); // the marker sits at offset 2
  expect(auditDelivery(kafka, { topics: ['payments'], processed: clean })).toMatchObject({ ok: true });
});
