// Faults of kafkajs 2.2.4 that kafkaesque exposes (docs/clients.md), each
// shown over real sockets, with the delivery audit naming it. These tests
// pass while kafkajs has the fault: when one fails, kafkajs may have fixed
// it, and docs/clients.md must say so.
//   (a) a send() spanning partitions led by two brokers: one broker's part is
//       refused, its partition moves to the broker that already answered, and
//       the retry never resends it (tulios/kafkajs#1303) — acknowledged, lost;
//       one partition of a broker's part refused after the others were
//       stored: the retry resends them all — duplicates without idempotence;
//   (b) concurrent send() calls on one idempotent producer under lost-ack:
//       the failed batch's sequence numbers are handed back while the other
//       send takes them, so the broker takes one batch for a retry of the
//       other: one batch lost, the other stored twice;
//   (c) an idempotent producer's connect() gives up on the first ECONNRESET
//       of its Metadata or InitProducerId request, though kafkajs calls the
//       error retriable;
//   (d) a transaction's commit() sends EndTxn once, with no retry: a lost
//       answer fails commit() though the coordinator committed, and a
//       retriable error (CONCURRENT_TRANSACTIONS) fails it too.
import { Kafka, logLevel, type KafkaJSError, type RecordMetadata } from 'kafkajs';
import { auditDelivery, startCluster, type RunningCluster } from '../../src/index.js';
import { findPreset, applyPreset } from '../../src/presets/index.js';
import type { AcknowledgedItem } from '../../src/audit/types.js';
import { fetchPartition } from '../support/kafkajs.js';
import { moveToAnsweredBroker, outageCluster, readEverything, refuseOnePartition, twoPartitionTopic } from '../support/known-faults.js';

let kafka: RunningCluster;
beforeAll(async () => {
  kafka = await startCluster({ brokers: 3, seed: 20 });
});
afterEach(() => kafka.chaos.clearRules());
afterAll(() => kafka.stop());

const client = (clientId: string, on = kafka) => new Kafka({ clientId, brokers: on.bootstrap.split(','), logLevel: logLevel.NOTHING, retry: { retries: 5, initialRetryTime: 50 } });

/** Four records, two to each partition (named, so that the application knows where each went). */
const spanning = (prefix: string) => [0, 1, 2, 3].map((i) => ({ key: `${prefix}-${i}`, value: 'v', partition: i % 2 }));

describe('(a) a send() that spans partitions led by several brokers', () => {
  test('one broker refuses its part and the partition moves to a broker that already answered: send() resolves, the records are stored nowhere', async () => {
    const topic = 'span-loss';
    twoPartitionTopic(kafka, topic, [0, 1]);
    const producer = client('span-loss-producer').producer({ idempotent: true });
    await producer.connect();
    moveToAnsweredBroker(kafka, topic);
    const messages = spanning('l');
    let metadata: RecordMetadata[];
    try {
      metadata = await producer.send({ topic, acks: -1, messages });
    } finally {
      await producer.disconnect();
    }
    expect(kafka.chaos.rule('move-p1-to-node-0')!.fired).toBe(1);
    // The answer speaks for partition 0 only; partition 1 was never resent.
    expect(metadata.map((m) => [m.partition, m.errorCode])).toEqual([[0, 0]]);
    expect(kafka.cluster.partition(topic, 0)!.highWatermark).toBe(2);
    expect(kafka.cluster.partition(topic, 1)!.highWatermark).toBe(0);

    const acknowledged: AcknowledgedItem[] = messages.map((m) => ({ id: m.key, topic, partition: m.partition, producer: 'span-loss-producer' }));
    const report = auditDelivery(kafka, { topics: [topic], processed: await readEverything(kafka, topic), acknowledged });
    expect(report.anomalies.map((a) => `${a.kind} ${a.id}`)).toEqual(['lost-write l-1', 'lost-write l-3']);
    expect(report.anomalies[0]!.message).toMatch(/^record 'l-1' of span-loss-1 was acknowledged to producer span-loss-producer but is stored nowhere in span-loss, after the delay fault fired on Produce to span-loss-1 from client span-loss-producer \(rule node-1-answers-last, event \d+\) and \d+ earlier events$/);
    // The move, then the answer held back; earlier cluster events may come first.
    expect(report.anomalies[0]!.precededBy.map((e) => (e.kind === 'fault' ? e.action : e.kind)).slice(-3)).toEqual(['leader-changed', 'move-leader', 'delay']);
  });

  test('the broker-outage preset: a leader stops under the first send, its partitions move to brokers that answered, and their records are lost', async () => {
    const outage = await outageCluster();
    // Who leads each partition when the preset stops a leader under the first send.
    const leaderAtStart = outage.cluster.topic('orders')!.partitions.map((p) => p.leader);
    const acknowledged: AcknowledgedItem[] = [];
    try {
      const producer = client('outage-producer', outage).producer({ idempotent: true });
      await producer.connect();
      for (let s = 0; s < 10; s++) {
        const messages = Array.from({ length: 12 }, (_, i) => ({ key: `s${s}-${i}`, value: 'v', partition: i % 6 }));
        await producer.send({ topic: 'orders', acks: -1, messages });
        acknowledged.push(...messages.map((m) => ({ id: m.key, topic: 'orders', partition: m.partition })));
      }
      await producer.disconnect();
      const report = auditDelivery(outage, { topics: ['orders'], processed: await readEverything(outage, 'orders'), acknowledged });
      // Every send resolved; the records the stopped node's partitions held in the first send are stored nowhere.
      const stopped = outage.chaos.events().find((e) => e.kind === 'node-stopped')!.nodeId;
      const ledByStopped = leaderAtStart.flatMap((leader, p) => (leader === stopped ? [p] : []));
      expect(ledByStopped).toHaveLength(2);
      const lost = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11].filter((i) => ledByStopped.includes(i % 6));
      expect(report.anomalies.map((a) => `${a.kind} ${a.id}`)).toEqual(lost.map((i) => `lost-write s0-${i}`));
      // The sends wait out the preset's 500 ms follower lag, so the node may be back (its start-node fault) before the last one.
      expect(report.anomalies[0]!.message).toMatch(/^record 's0-\d+' of orders-\d was acknowledged to the producer but is stored nowhere in orders, after /);
      expect(report.anomalies[0]!.precededBy.map((e) => e.kind)).toEqual(expect.arrayContaining(['node-stopped', 'leader-changed', 'fault']));
      expect(report.anomalies[0]!.precededBy.some((e) => e.kind === 'fault' && e.action === 'stop-node')).toBe(true);
    } finally {
      await outage.stop();
    }
  });

  test('one partition of a broker\'s part refused after the others were stored: the retry resends them all, and without idempotence they are stored twice', async () => {
    const topic = 'span-dup';
    twoPartitionTopic(kafka, topic, [0, 0]);
    const producer = client('span-dup-producer').producer({ idempotent: false });
    await producer.connect();
    refuseOnePartition(kafka, topic);
    const messages = spanning('d');
    try {
      await producer.send({ topic, acks: -1, messages });
    } finally {
      await producer.disconnect();
    }
    expect(kafka.chaos.rule('move-p1-to-node-1')!.fired).toBe(1);
    expect(kafka.cluster.partition(topic, 0)!.highWatermark).toBe(4); // d-0, d-2 twice
    expect(kafka.cluster.partition(topic, 1)!.highWatermark).toBe(2);

    const report = auditDelivery(kafka, { topics: [topic], processed: await readEverything(kafka, topic), acknowledged: messages.map((m) => m.key) });
    expect(report.anomalies.map((a) => `${a.kind}(${a.in}) ${a.id} ${a.topic}-${a.partition} [${a.offsets.join(',')}]`)).toEqual([
      'duplicate(log) d-0 span-dup-0 [0,2]',
      'duplicate(log) d-2 span-dup-0 [1,3]',
      'duplicate(processing) d-0 span-dup-0 [0,2]', // and a consumer that reads everything processes them twice
      'duplicate(processing) d-2 span-dup-0 [1,3]',
    ]);
    expect(report.anomalies[0]!.message).toMatch(/^record 'd-0' is stored twice \(span-dup-0@0, span-dup-0@2\), after the move-leader fault fired on Produce to span-dup/);
  });
});

test('(b) concurrent send() calls on one idempotent producer under lost-ack: one batch lost, the other stored twice', async () => {
  // kafkajs's retry timing is its own (Math.random jitter), so the scenario runs a bounded number of
  // times and must show the fault at least once. It showed in 20 of 20 runs when this test was written.
  const attempts = Number(process.env.KNOWN_FAULTS_ATTEMPTS ?? 5);
  const faulty: { kinds: string[]; messages: string[] }[] = [];
  for (let attempt = 0; attempt < attempts; attempt++) {
    const topic = `concurrent-${attempt}`;
    kafka.cluster.createTopic(topic, { numPartitions: 1, replicationFactor: 3 });
    const clientId = `concurrent-${attempt}`;
    const producer = client(clientId).producer({ idempotent: true });
    await producer.connect();
    applyPreset(kafka.chaos, findPreset('lost-ack')!);
    const batches = [0, 1].map((b) => [0, 1].map((i) => ({ key: `b${b}-${i}-${attempt}`, value: 'v' })));
    let results: RecordMetadata[][];
    try {
      results = await Promise.all(batches.map((messages) => producer.send({ topic, acks: -1, messages })));
    } finally {
      await producer.disconnect();
      kafka.chaos.clearRules();
    }
    // Where kafkajs says each record went: its batch's base offset, plus its place in the batch.
    const acknowledged = batches.flatMap((messages, b) => messages.map((m, i) => ({ id: m.key, topic, partition: 0, offset: Number(results[b]![0]!.baseOffset) + i, producer: clientId })));
    const report = auditDelivery(kafka, { topics: [topic], processed: await readEverything(kafka, topic), acknowledged });
    const inLog = report.anomalies.filter((a) => a.in !== 'processing');
    if (inLog.length) faulty.push({ kinds: inLog.map((a) => `${a.kind} ${a.id!.slice(0, 2)}`).sort(), messages: inLog.map((a) => a.message) });
  }
  expect(faulty.length).toBeGreaterThan(0);
  // Whenever it shows, it is that fault: both records of one batch lost, both of the other stored twice.
  for (const { kinds, messages } of faulty) {
    const [lost, doubled] = [kinds.filter((k) => k.startsWith('lost-write ')), kinds.filter((k) => k.startsWith('duplicate '))];
    expect([lost.length, doubled.length, kinds.length]).toEqual([2, 2, 4]);
    expect(lost[0]!.slice(-2)).not.toBe(doubled[0]!.slice(-2));
    expect(messages).toEqual(expect.arrayContaining([
      expect.stringMatching(/^record 'b\d-\d-\d+' was acknowledged to producer concurrent-\d+ at concurrent-\d+-0 offset \d, which holds 'b\d-\d-\d+', but is stored nowhere/),
      expect.stringMatching(/^record 'b\d-\d-\d+' is stored twice .*, after the drop-response fault fired on Produce to concurrent-\d+-0 from client concurrent-\d+ \(rule [\w-]+, event \d+\)$/),
    ]));
  }
});

test('(c) an idempotent producer\'s connect() is not retried after ECONNRESET, though the error is retriable; a second connect() works', async () => {
  for (const api of ['Metadata', 'InitProducerId']) {
    kafka.chaos.addRule({ id: `reset-${api}`, match: { api, clientId: `connect-${api}` }, trigger: { type: 'nth', n: 1 }, action: { type: 'close' } });
    const producer = client(`connect-${api}`).producer({ idempotent: true });
    const failed = await producer.connect().then(() => null, (e: KafkaJSError) => e);
    expect(failed).toMatchObject({ name: 'KafkaJSConnectionError', retriable: true, message: expect.stringContaining('ECONNRESET') });
    expect(kafka.chaos.rule(`reset-${api}`)!).toMatchObject({ fired: 1 });
    const fault = kafka.chaos.events().filter((e) => e.kind === 'fault' && e.ruleId === `reset-${api}`);
    expect(fault).toMatchObject([{ action: 'close', api, clientId: `connect-${api}` }]);
    await producer.connect(); // what kafkajs's retrier would have done
    await producer.disconnect();
  }
});

test("(d) commit() does not retry EndTxn: a lost answer fails it though the transaction committed; CONCURRENT_TRANSACTIONS fails it too", async () => {
  const topic = 'txn-commit-lost';
  kafka.cluster.createTopic(topic, { numPartitions: 1, replicationFactor: 3 });
  // A lost answer costs a request timeout: a short one.
  const producer = new Kafka({ clientId: 'txn-commit', brokers: kafka.bootstrap.split(','), logLevel: logLevel.NOTHING, requestTimeout: 2000, retry: { retries: 5, initialRetryTime: 50 } }).producer({ transactionalId: 'txn-commit', idempotent: true, maxInFlightRequests: 1 });
  await producer.connect();
  try {
    const lost = kafka.chaos.addRule({ match: { api: 'EndTxn' }, trigger: { type: 'nth', n: 1 }, action: { type: 'drop-response', then: 'hang' } });
    const first = await producer.transaction();
    await first.send({ topic, messages: [{ key: 'a', value: 'committed' }] });
    expect(await first.commit().then(() => null, (e: KafkaJSError) => e)).toMatchObject({ name: 'KafkaJSRequestTimeoutError' });
    expect(kafka.chaos.rule(lost.id)).toMatchObject({ fired: 1 });
    // The coordinator committed: read_committed consumers see the record the application was told failed.
    const txn = kafka.cluster.transactions.all().find((t) => t.transactionalId === 'txn-commit');
    expect(txn?.state).toBe('CompleteCommit');
    expect((await fetchPartition(client('txn-reader'), topic, 0, 0, 1)).map((m) => m.value)).toEqual(['committed']);
  } finally {
    await producer.disconnect();
  }
  const again = new Kafka({ clientId: 'txn-commit-2', brokers: kafka.bootstrap.split(','), logLevel: logLevel.NOTHING, retry: { retries: 5, initialRetryTime: 50 } }).producer({ transactionalId: 'txn-commit-2', idempotent: true, maxInFlightRequests: 1 });
  await again.connect();
  try {
    kafka.chaos.addRule({ match: { api: 'EndTxn' }, trigger: { type: 'nth', n: 1 }, action: { type: 'error', code: 'CONCURRENT_TRANSACTIONS' } });
    const second = await again.transaction();
    await second.send({ topic, messages: [{ key: 'b', value: 'open' }] });
    expect(await second.commit().then(() => null, (e: KafkaJSError) => e)).toMatchObject({ name: 'KafkaJSProtocolError', type: 'CONCURRENT_TRANSACTIONS', retriable: true });
  } finally {
    await again.disconnect();
  }
});
