// The zombie producer (DESIGN.md): a transactional id is fenced (as a new
// instance's InitProducerId would do) while the old instance is inside a
// transaction. Its commit fails, and read_committed readers never see its
// records.
import { startCluster, type RunningCluster } from '../../src/index.js';
import { createTopics, fetchPartition, kafkajs, messages } from '../support/kafkajs.js';

let kafka: RunningCluster;
beforeAll(async () => {
  kafka = await startCluster({ brokers: 3, seed: 8 });
});
afterAll(() => kafka.stop());

test('fence on EndTxn: the old transactional producer fails to commit, and its records are aborted', async () => {
  const topic = 'zombie';
  const transactionalId = 'zombie-tx';
  const client = kafkajs(kafka.bootstrap);
  await createTopics(client, { topic, numPartitions: 1, replicationFactor: 3 });
  const producer = client.producer({ transactionalId, idempotent: true, maxInFlightRequests: 1 });
  await producer.connect();
  try {
    const ok = await producer.transaction();
    await ok.send({ topic, messages: messages(2, 'ok-') });
    await ok.commit();

    const rule = kafka.chaos.addRule({ match: { api: 'EndTxn', transactionalId }, trigger: { type: 'first', n: 1 }, action: { type: 'fence', transactionalId } });
    const epoch = kafka.cluster.transactions.get(transactionalId)!.producerEpoch;
    const zombie = await producer.transaction();
    await zombie.send({ topic, messages: messages(2, 'zombie-') });
    const failure = await zombie.commit().then(
      () => null,
      (err) => err,
    );
    expect(failure).not.toBeNull();
    expect(['PRODUCER_FENCED', 'INVALID_PRODUCER_EPOCH']).toContain(failure.type ?? failure.cause?.type);
    expect(kafka.chaos.rule(rule.id)!.fired).toBe(1);
    expect(kafka.chaos.events().find((e) => e.ruleId === rule.id)).toMatchObject({ action: 'fence', api: 'EndTxn', detail: { transactionalId, result: 'NONE' } });
    expect(kafka.cluster.transactions.get(transactionalId)!.producerEpoch).toBeGreaterThan(epoch);
  } finally {
    await producer.disconnect().catch(() => undefined);
  }
  // The log: ok-0 ok-1 COMMIT zombie-0 zombie-1 ABORT. The coordinator aborted the zombie's
  // transaction when it fenced it; read_committed readers skip exactly that range.
  const log = await fetchPartition(client, topic, 0);
  const zombies = log.filter((m) => m.value?.startsWith('zombie-')).map((m) => Number(m.offset));
  expect(zombies).toEqual([3, 4]);
  const p = kafka.cluster.partition(topic, 0)!;
  expect(p.producers.aborted).toEqual([expect.objectContaining({ firstOffset: 3, lastOffset: 5 })]);
  expect(p.lastStableOffset).toBe(p.highWatermark);
});
