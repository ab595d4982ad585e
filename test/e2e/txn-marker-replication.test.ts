// A transaction marker must survive a leader move: Kafka's coordinator
// writes it acks=all and retries it on the new leader. With followers
// lagging, a leader move right after a commit truncates the new leader's log
// below the COMMIT marker: the coordinator must write it again there
// (TransactionMarkerChannelManager retries NOT_LEADER_OR_FOLLOWER), or the
// partition keeps an open transaction forever and read_committed consumers
// stall at its last stable offset. kafkajs's transactional producer, over
// real sockets, then a leader election in the cluster.
import { startCluster, type RunningCluster } from '../../src/index.js';
import { kafkajs } from '../support/kafkajs.js';

let kafka: RunningCluster;
beforeAll(async () => {
  kafka = await startCluster({ brokers: 3, topics: [{ name: 'ledger', partitions: 1, replicationFactor: 3 }] });
});
afterAll(() => kafka.stop());

test('a COMMIT marker truncated away by a leader move is written again; the last stable offset reaches the end', async () => {
  const producer = kafkajs(kafka.bootstrap, 'marker-replication').producer({ transactionalId: 'ledger-writer', idempotent: true, maxInFlightRequests: 1 });
  await producer.connect();
  try {
    const p = kafka.cluster.partition('ledger', 0)!;
    const txn = await producer.transaction();
    await txn.send({ topic: 'ledger', acks: -1, messages: [{ value: 'entry-1' }] });
    // From here the followers copy 300 ms late: the marker is on the leader alone for a while.
    kafka.cluster.setReplicationLag(300);
    await txn.commit();
    const markerOffset = p.logEndOffset - 1;
    expect(p.highWatermark).toBeLessThanOrEqual(markerOffset);
    const follower = p.replicas.find((r) => r !== p.leader)!;
    const change = kafka.cluster.electLeader('ledger', 0, { nodeId: follower });
    expect(change.ok && change.value.truncatedFrom).toBe(markerOffset);
    // The new leader got the marker again: its log ends with a COMMIT of the producer, and nothing stays open.
    const last = p.log.batchesFrom(p.logEndOffset - 1)[0]!;
    expect([last.baseOffset, last.bytes.readInt16BE(21) & 0x20, Number(last.bytes.readBigInt64BE(43))]).toEqual([markerOffset, 0x20, kafka.cluster.transactions.get('ledger-writer')!.producerId]);
    // Once the followers have it (300 ms), the last stable offset reaches the end.
    const stable = await new Promise<boolean>((resolve) => {
      const t = setTimeout(() => (off(), resolve(false)), 3000);
      const off = p.onChange(() => {
        if (p.lastStableOffset === p.logEndOffset) (clearTimeout(t), off(), resolve(true));
      });
    });
    expect(stable).toBe(true);
    // And a read_committed consumer reads the record.
    const consumer = kafkajs(kafka.bootstrap, 'marker-replication-reader').consumer({ groupId: 'ledger-readers', readUncommitted: false, maxWaitTimeInMs: 100 });
    await consumer.connect();
    await consumer.subscribe({ topic: 'ledger', fromBeginning: true });
    const read = await new Promise<string | null>((resolve) => {
      const t = setTimeout(() => resolve(null), 8000);
      void consumer.run({ eachMessage: async ({ message }) => {
        clearTimeout(t);
        resolve(message.value!.toString());
      } });
    });
    await consumer.disconnect();
    expect(read).toBe('entry-1');
  } finally {
    kafka.cluster.setReplicationLag(0);
    await producer.disconnect();
  }
}, 20_000);
