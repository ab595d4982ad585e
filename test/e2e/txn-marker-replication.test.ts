// A transaction marker counts once it is replicated, as the coordinator's
// WriteTxnMarkers append is acks=all in Kafka. With followers lagging, a
// leader move right after a commit truncates the new leader's log below the
// COMMIT marker: the coordinator must write it again to the new leader
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
    // Until the marker is replicated again, the transaction is not complete.
    expect(kafka.cluster.transactions.get('ledger-writer')!.state).toBe('PrepareCommit');
    const completed = await new Promise<boolean>((resolve) => {
      const t = setTimeout(() => resolve(false), 5000);
      kafka.cluster.transactions.once('completed', () => {
        clearTimeout(t);
        resolve(true);
      });
    });
    expect(completed).toBe(true);
    expect([p.lastStableOffset, p.highWatermark, p.logEndOffset]).toEqual([markerOffset + 1, markerOffset + 1, markerOffset + 1]);
  } finally {
    kafka.cluster.setReplicationLag(0);
    await producer.disconnect();
  }
}, 20_000);
