// Idempotent and transactional producers with kafkajs over real sockets.
import type { Consumer, EachMessagePayload, KafkaMessage } from 'kafkajs';
import { startCluster, type RunningCluster } from '../../src/index.js';
import { consumeUntil, createTopics, fetchPartition, kafkajs, messages } from '../support/kafkajs.js';

let kafka: RunningCluster;
beforeAll(async () => {
  kafka = await startCluster({ brokers: 3, groupInitialRebalanceDelayMs: 0 } as never);
});
afterAll(() => kafka.stop());

/** Consumes a topic from the beginning until `count` messages arrived (or the deadline). */
async function consumeAll(groupId: string, topic: string, count: number, readUncommitted: boolean, timeoutMs = 15_000): Promise<KafkaMessage[]> {
  const consumer: Consumer = kafkajs(kafka.bootstrap).consumer({ groupId, readUncommitted, sessionTimeout: 6000, heartbeatInterval: 500, maxWaitTimeInMs: 100 });
  const got: KafkaMessage[] = [];
  const each = ({ message }: EachMessagePayload) => {
    got.push(message);
    return got.length >= count;
  };
  await consumeUntil(consumer, topic, each, timeoutMs);
  return got;
}

test('an idempotent producer with 5 requests in flight writes 10,000 messages once each, in order', async () => {
  const client = kafkajs(kafka.bootstrap);
  await createTopics(client, { topic: 'idem', numPartitions: 1, replicationFactor: 3 });
  const producer = client.producer({ idempotent: true, maxInFlightRequests: 5 });
  await producer.connect();
  await Promise.all(Array.from({ length: 100 }, (_, b) => producer.send({ topic: 'idem', acks: -1, messages: messages(100, `b${String(b).padStart(3, '0')}-`) })));
  await producer.disconnect();
  const got = await fetchPartition(client, 'idem', 0);
  expect(got).toHaveLength(10_000);
  expect(new Set(got.map((m) => m.value)).size).toBe(10_000);
  expect(got.map((m) => Number(m.offset))).toEqual(Array.from({ length: 10_000 }, (_, i) => i));
  const p = kafka.cluster.partition('idem', 0)!;
  const [entry] = p.producers.producers();
  expect(entry).toMatchObject({ producerEpoch: 0, currentTxnFirstOffset: null });
  expect(entry!.batches.at(-1)!.lastSeq).toBe(9_999);
});

test('read_committed sees only committed transactions; read_uncommitted sees aborted ones too', async () => {
  const client = kafkajs(kafka.bootstrap);
  await createTopics(client, { topic: 'txn', numPartitions: 2, replicationFactor: 3 });
  const producer = client.producer({ transactionalId: 'txn-basic', maxInFlightRequests: 1, idempotent: true });
  await producer.connect();
  const committed = await producer.transaction();
  await committed.send({ topic: 'txn', messages: messages(10, 'commit-') });
  await committed.commit();
  const aborted = await producer.transaction();
  await aborted.send({ topic: 'txn', messages: messages(7, 'abort-') });
  await aborted.abort();
  const last = await producer.transaction();
  await last.send({ topic: 'txn', messages: messages(3, 'after-') });
  await last.commit();
  await producer.disconnect();

  const readCommitted = await consumeAll('rc', 'txn', 13, false);
  expect(readCommitted.map((m) => m.value!.toString()).sort()).toEqual([...messages(10, 'commit-'), ...messages(3, 'after-')].map((m) => m.value).sort());
  const readUncommitted = await consumeAll('ru', 'txn', 20, true);
  expect(readUncommitted).toHaveLength(20);
  expect(readUncommitted.filter((m) => m.value!.toString().startsWith('abort-'))).toHaveLength(7);

  const desc = kafka.cluster.transactions.get('txn-basic')!;
  expect(desc).toMatchObject({ state: 'CompleteCommit', producerEpoch: 0 });
});

test('sendOffsets commits the input offsets atomically with the output', async () => {
  const client = kafkajs(kafka.bootstrap);
  const admin = client.admin();
  await admin.connect();
  await admin.createTopics({ topics: [{ topic: 'ctp-in', numPartitions: 1 }, { topic: 'ctp-out', numPartitions: 1 }] });
  const seed = client.producer();
  await seed.connect();
  await seed.send({ topic: 'ctp-in', messages: messages(5, 'in-') });
  await seed.disconnect();

  const producer = client.producer({ transactionalId: 'ctp', maxInFlightRequests: 1, idempotent: true });
  await producer.connect();
  const tx = await producer.transaction();
  await tx.send({ topic: 'ctp-out', messages: messages(5, 'out-') });
  await tx.sendOffsets({ consumerGroupId: 'ctp-group', topics: [{ topic: 'ctp-in', partitions: [{ partition: 0, offset: '5' }] }] });
  // Pending: neither the offsets nor the output are visible yet.
  expect(kafka.cluster.groups.committedOffset('ctp-group', 'ctp-in', 0)).toBeUndefined();
  expect(kafka.cluster.partition('ctp-out', 0)!.lastStableOffset).toBe(0);
  await tx.commit();
  const offsets = await admin.fetchOffsets({ groupId: 'ctp-group', topics: ['ctp-in'] });
  expect(offsets[0]!.partitions).toEqual([expect.objectContaining({ partition: 0, offset: '5' })]);
  expect(kafka.cluster.partition('ctp-out', 0)!.lastStableOffset).toBe(6); // 5 records + the COMMIT marker

  // An aborted transaction leaves the committed offsets alone.
  const tx2 = await producer.transaction();
  await tx2.sendOffsets({ consumerGroupId: 'ctp-group', topics: [{ topic: 'ctp-in', partitions: [{ partition: 0, offset: '2' }] }] });
  await tx2.abort();
  expect((await admin.fetchOffsets({ groupId: 'ctp-group', topics: ['ctp-in'] }))[0]!.partitions[0]!.offset).toBe('5');
  await producer.disconnect();
  await admin.disconnect();
});

test('a second producer with the same transactional id fences the first', async () => {
  const client = kafkajs(kafka.bootstrap);
  const zombie = client.producer({ transactionalId: 'fenced-id', maxInFlightRequests: 1, idempotent: true, retry: { retries: 1, initialRetryTime: 50 } });
  await zombie.connect();
  const open = await zombie.transaction();
  await open.send({ topic: 'fence', messages: messages(2, 'zombie-') });

  const successor = client.producer({ transactionalId: 'fenced-id', maxInFlightRequests: 1, idempotent: true });
  await successor.connect(); // InitProducerId: bumps the epoch, aborting the zombie's transaction
  const tx = await successor.transaction();
  await tx.send({ topic: 'fence', messages: messages(1, 'successor-') });
  await tx.commit();

  await expect(open.send({ topic: 'fence', messages: messages(1, 'late-') })).rejects.toThrow(/epoch|fenced/i);
  await expect(open.commit()).rejects.toThrow();
  await successor.disconnect();
  await zombie.disconnect().catch(() => {});

  const p = kafka.cluster.partition('fence', 0)!;
  expect(p.producers.aborted).toHaveLength(1); // the zombie's two records were aborted
  const txn = kafka.cluster.transactions.get('fenced-id')!;
  expect(txn.producerEpoch).toBe(2); // +1 by the fence (never handed out), +1 for the successor
});

test('a transaction left open past its timeout is aborted by the coordinator, and its producer fenced', async () => {
  const client = kafkajs(kafka.bootstrap);
  const producer = client.producer({ transactionalId: 'slow', transactionTimeout: 300, maxInFlightRequests: 1, idempotent: true, retry: { retries: 1, initialRetryTime: 50 } });
  await producer.connect();
  const tx = await producer.transaction();
  await tx.send({ topic: 'timeouts', messages: messages(3, 'slow-') });
  const aborted = new Promise((r) => kafka.cluster.transactions.once('aborted', r));
  await expect(aborted).resolves.toMatchObject({ transactionalId: 'slow', reason: 'timeout' });
  expect(kafka.cluster.transactions.get('slow')!.state).toBe('CompleteAbort');
  await expect(tx.commit()).rejects.toThrow();
  await producer.disconnect().catch(() => {});
  expect(kafka.cluster.partition('timeouts', 0)!.producers.aborted).toHaveLength(1);
});
