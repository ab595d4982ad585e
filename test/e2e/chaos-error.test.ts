// The `error` action through the proxy. The out-of-order story (DESIGN.md):
// the 3rd of 5 in-flight batches of an idempotent producer is answered
// OUT_OF_ORDER_SEQUENCE_NUMBER before the broker sees it.
//
// kafkajs never pipelines idempotent Produce requests to a broker (its
// eosManager holds a per-broker lock around each one), so its "in flight"
// are concurrent send() calls: the one that meets the error fails
// (kafkajs treats the code as not retriable) and rolls its sequence numbers
// back, so the next batches follow without a gap. The raw-client test below
// pipelines five requests on one connection as the Java client and
// librdkafka do (max.in.flight=5): the broker then answers the 4th and 5th
// OUT_OF_ORDER_SEQUENCE_NUMBER itself, and resending from the failed one
// in sequence order completes the partition in order.
import { startCluster, type RunningCluster } from '../../src/index.js';
import { ApiKey } from '../../src/protocol/messages/index.js';
import { ErrorCode } from '../../src/protocol/errors.js';
import { buildRecordBatch } from '../../src/protocol/record-batch.js';
import { createTopics, fetchPartition, kafkajs, messages } from '../support/kafkajs.js';
import { WireClient, decodeResponse } from '../support/wire-client.js';

let kafka: RunningCluster;
beforeAll(async () => {
  kafka = await startCluster({ brokers: 3, seed: 2 });
});
afterEach(() => kafka.chaos.clearRules());
afterAll(() => kafka.stop());

async function topicWithProducer(topic: string, idempotent: boolean) {
  const client = kafkajs(kafka.bootstrap);
  await createTopics(client, { topic, numPartitions: 1, replicationFactor: 3 });
  const producer = client.producer({ idempotent, maxInFlightRequests: idempotent ? 1 : undefined });
  await producer.connect();
  return { client, producer };
}

test('kafkajs, 5 concurrent idempotent sends, OUT_OF_ORDER_SEQUENCE_NUMBER on the 3rd: nothing acknowledged is lost or doubled, and a resend completes the partition', async () => {
  const topic = 'oos-kafkajs';
  const { client, producer } = await topicWithProducer(topic, true);
  try {
    kafka.chaos.addRule({ id: 'oos', match: { api: 'Produce', topic }, trigger: { type: 'nth', n: 3 }, action: { type: 'error', code: 'OUT_OF_ORDER_SEQUENCE_NUMBER' } });
    const batches = [0, 1, 2, 3, 4].map((b) => messages(4, `b${b}-`));
    const results = await Promise.allSettled(batches.map((m) => producer.send({ topic, acks: -1, messages: m })));
    const failed = results.flatMap((r, i) => (r.status === 'rejected' ? [i] : []));
    expect(failed).toHaveLength(1);
    expect((results[failed[0]!] as PromiseRejectedResult).reason).toMatchObject({ type: 'OUT_OF_ORDER_SEQUENCE_NUMBER' });
    expect(kafka.chaos.rule('oos')).toMatchObject({ matched: 5, fired: 1 });

    // Each acknowledged batch sits whole, in order, at the offset its ack gave; the failed one is absent.
    const log = await fetchPartition(client, topic, 0);
    expect(log.map((m) => Number(m.offset))).toEqual(Array.from({ length: 16 }, (_, i) => i));
    results.forEach((r, i) => {
      if (r.status !== 'fulfilled') return;
      const base = Number(r.value[0]!.baseOffset);
      expect(log.slice(base, base + 4).map((m) => m.value)).toEqual(batches[i]!.map((m) => m.value));
    });
    // kafkajs rolled its sequence back: the broker's last sequence is what it acknowledged, no gap.
    const state = kafka.cluster.partition(topic, 0)!.producers.producers();
    expect(state).toHaveLength(1);
    expect(state[0]!.batches.at(-1)!.lastSeq).toBe(15);

    // The application resends the failed batch: complete, each message once.
    await producer.send({ topic, acks: -1, messages: batches[failed[0]!]! });
    const after = (await fetchPartition(client, topic, 0)).map((m) => m.value);
    expect(after.slice(0, 16)).toEqual(log.map((m) => m.value));
    expect(after.slice(16)).toEqual(batches[failed[0]!]!.map((m) => m.value));
    expect([...after].sort()).toEqual(batches.flat().map((m) => m.value).sort());
  } finally {
    await producer.disconnect();
  }
});

test('five pipelined batches, OUT_OF_ORDER_SEQUENCE_NUMBER on the 3rd: the broker refuses the 4th and 5th itself; resending by sequence keeps the partition in order', async () => {
  const topic = 'oos-wire';
  kafka.cluster.createTopic(topic, { numPartitions: 1, replicationFactor: 3 });
  const init = kafka.cluster.transactions.initProducerId(null, 60_000, -1, -1);
  const pid = init.producerId;
  const c = await WireClient.connect(kafka.brokers.get(kafka.cluster.partition(topic, 0)!.leader)!);
  try {
    kafka.chaos.addRule({ id: 'oos', match: { api: 'Produce', topic }, trigger: { type: 'nth', n: 3 }, action: { type: 'error', code: 'OUT_OF_ORDER_SEQUENCE_NUMBER' } });
    const batch = (b: number) => ({
      acks: -1,
      timeoutMs: 5000,
      topicData: [{ name: topic, partitionData: [{ index: 0, records: buildRecordBatch([0, 1].map((i) => ({ value: `b${b}-${i}` })), { producerId: pid, producerEpoch: 0, baseSequence: b * 2 }) }] }],
    });
    const send = (bs: number[]) => bs.map((b) => c.send(ApiKey.Produce, 9, batch(b)));
    const answers = async (ids: number[]) => {
      const out: number[] = [];
      for (const id of ids) {
        const res = decodeResponse((await c.nextFrame())!, ApiKey.Produce, 9, id) as any;
        out.push(res.responses[0].partitionResponses[0].errorCode);
      }
      return out;
    };
    // All five on the wire before any answer, as with max.in.flight.requests.per.connection=5.
    const first = await answers(send([0, 1, 2, 3, 4]));
    expect(first).toEqual([0, 0, ErrorCode.OUT_OF_ORDER_SEQUENCE_NUMBER, ErrorCode.OUT_OF_ORDER_SEQUENCE_NUMBER, ErrorCode.OUT_OF_ORDER_SEQUENCE_NUMBER]);
    // Re-queued by sequence and resent in order (the rule fired once: nth 3).
    expect(await answers(send([2, 3, 4]))).toEqual([0, 0, 0]);
    const values = (await fetchPartition(kafkajs(kafka.bootstrap), topic, 0)).map((m) => m.value);
    expect(values).toEqual([0, 1, 2, 3, 4].flatMap((b) => [`b${b}-0`, `b${b}-1`]));
    expect(kafka.chaos.rule('oos')).toMatchObject({ matched: 8, fired: 1 });
  } finally {
    c.close();
  }
});

test("when: 'after' — the broker appended; told REQUEST_TIMED_OUT, kafkajs retries: a duplicate without idempotence, none with it", async () => {
  for (const idempotent of [false, true]) {
    const topic = `after-${idempotent ? 'idem' : 'plain'}`;
    const { client, producer } = await topicWithProducer(topic, idempotent);
    try {
      const rule = kafka.chaos.addRule({ match: { api: 'Produce', topic }, trigger: { type: 'first', n: 1 }, action: { type: 'error', code: 'REQUEST_TIMED_OUT', when: 'after' } });
      await producer.send({ topic, acks: -1, messages: messages(2, 'a') });
      expect(kafka.chaos.rule(rule.id)).toMatchObject({ fired: 1, matched: 2 });
      const values = (await fetchPartition(client, topic, 0)).map((m) => m.value);
      expect(values).toEqual(idempotent ? ['a0', 'a1'] : ['a0', 'a1', 'a0', 'a1']);
    } finally {
      await producer.disconnect();
    }
  }
});

test('a top-level error: FindCoordinator answered COORDINATOR_NOT_AVAILABLE twice, the transactional producer retries and commits', async () => {
  const topic = 'coord-retry';
  const { client, producer: plain } = await topicWithProducer(topic, false);
  await plain.disconnect();
  const producer = client.producer({ transactionalId: 'coord-tx', idempotent: true, maxInFlightRequests: 1 });
  const rule = kafka.chaos.addRule({ match: { api: 'FindCoordinator', transactionalId: 'coord-tx' }, trigger: { type: 'first', n: 2 }, action: { type: 'error', code: 'COORDINATOR_NOT_AVAILABLE' } });
  await producer.connect();
  try {
    const txn = await producer.transaction();
    await txn.send({ topic, messages: messages(1, 't') });
    await txn.commit();
    expect(kafka.chaos.rule(rule.id)!.fired).toBe(2);
    // read_committed: the record, then the COMMIT marker kafkajs's raw fetch also returns.
    const p = kafka.cluster.partition(topic, 0)!;
    expect(p.lastStableOffset).toBe(p.highWatermark);
    expect((await fetchPartition(client, topic, 0, 0, 1)).map((m) => m.value)[0]).toBe('t0');
  } finally {
    await producer.disconnect();
  }
});
