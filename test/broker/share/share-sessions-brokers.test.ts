// Share sessions on a cluster of three: each broker keeps its own share
// session cache (Kafka 4.4's BrokerServer makes one ShareSessionCache per
// broker), so a member that fetches from two leaders has two sessions, each
// with its own epoch and partitions; closing one gives back only the records
// of the partitions its broker leads (SharePartitionManager#releaseSession
// reaches the share partitions of that broker only). franz-go fetches from
// every leader at once and sent its epochs apart, answered
// INVALID_SHARE_SESSION_EPOCH and partitions it did not ask for while the
// cluster shared one cache.
import { ManualClock, startCluster, type RunningCluster } from '../../../src/index.js';
import { ApiKey } from '../../../src/protocol/messages/index.js';
import { ErrorCode } from '../../../src/protocol/errors.js';
import { buildRecordBatch, decodeRecords, splitBatches } from '../../../src/protocol/record-batch.js';
import { WireClient } from '../../support/wire-client.js';

let kafka: RunningCluster;
let clock: ManualClock;
const clients: WireClient[] = [];
beforeAll(async () => {
  clock = new ManualClock();
  kafka = await startCluster({ brokers: 3, clock, kafkaVersion: '4.4', proxy: false });
});
afterAll(async () => {
  for (const c of clients) c.close();
  await kafka.stop();
});

async function connectTo(nodeId: number): Promise<WireClient> {
  const c = await WireClient.connect(kafka.brokers.get(nodeId)!);
  clients.push(c);
  return c;
}

/** A topic of two partitions on two different leaders. */
function twoLeaders(name: string): { id: string; leaders: [number, number] } {
  const r = kafka.cluster.createTopic(name, { numPartitions: 2, replicationFactor: 1 });
  if (!r.ok) throw new Error(r.message);
  const t = kafka.cluster.topic(name)!;
  kafka.cluster.groupConfigs.set('multi', 'share.auto.offset.reset', 'earliest');
  const leaders: [number, number] = [t.partitions[0]!.leader, t.partitions[1]!.leader];
  expect(leaders[0]).not.toBe(leaders[1]);
  return { id: t.topicId, leaders };
}

async function produce(c: WireClient, topic: string, partition: number, values: string[]): Promise<void> {
  const records = buildRecordBatch(values.map((v) => ({ key: null, value: v })), { timestamp: clock.now() });
  const res = await c.request(ApiKey.Produce, 11, { transactionalId: null, acks: -1, timeoutMs: 5000, topicData: [{ name: topic, partitionData: [{ index: partition, records }] }] });
  expect(res.responses[0].partitionResponses[0].errorCode).toBe(0);
}

function shareFetch(c: WireClient, memberId: string, epoch: number, topicId: string, partitions: number[]) {
  return c.request(ApiKey.ShareFetch, 2, {
    groupId: 'multi',
    memberId,
    shareSessionEpoch: epoch,
    maxWaitMs: 0,
    minBytes: 1,
    maxBytes: 1 << 20,
    maxRecords: 500,
    batchSize: 500,
    shareAcquireMode: 0,
    isRenewAck: false,
    topics: partitions.length === 0 ? [] : [{ topicId, partitions: partitions.map((p) => ({ partitionIndex: p, partitionMaxBytes: 0, acknowledgementBatches: [] })) }],
    forgottenTopicsData: [],
  });
}

function values(res: { responses: { partitions: { partitionIndex: number; records: Buffer }[] }[] }): Record<number, string[]> {
  const out: Record<number, string[]> = {};
  for (const p of res.responses.flatMap((t) => t.partitions)) {
    out[p.partitionIndex] = splitBatches(p.records)
      .batches.flatMap((b) => decodeRecords(b))
      .map((r) => r.value!.toString());
  }
  return out;
}

test('a member has a session on each leader: its own epochs and partitions, and closing one gives back only what that broker leads', async () => {
  const { id, leaders } = twoLeaders('multi-t');
  const [a, b] = [await connectTo(leaders[0]), await connectTo(leaders[1])];
  await produce(a, 'multi-t', 0, ['p0-a']);
  await produce(b, 'multi-t', 1, ['p1-a']);

  // Opened on both leaders; the second does not replace the first.
  expect(values(await shareFetch(a, 'm', 0, id, [0]))).toEqual({ 0: ['p0-a'] });
  const onB = await shareFetch(b, 'm', 0, id, [0, 1]);
  expect(onB.errorCode).toBe(ErrorCode.NONE);
  expect(onB.responses[0].partitions.find((p: { partitionIndex: number }) => p.partitionIndex === 0).errorCode).toBe(ErrorCode.NOT_LEADER_OR_FOLLOWER);
  expect(kafka.cluster.shares.sessionsOn(leaders[0]).get('multi', 'm')?.epoch).toBe(1);

  // Each session goes on at its own epoch and reads only its own partitions.
  await produce(a, 'multi-t', 0, ['p0-b']);
  const nextA = await shareFetch(a, 'm', 1, id, []);
  expect(nextA.errorCode).toBe(ErrorCode.NONE);
  expect(values(nextA)).toEqual({ 0: ['p0-b'] });

  // B's session held partition 0 too (not led there): closing it releases nothing of partition 0.
  b.close();
  await new Promise((r) => setTimeout(r, 50));
  expect(kafka.cluster.shares.sessionsOn(leaders[1]).get('multi', 'm')).toBeUndefined();
  expect(kafka.cluster.shares.sessionsOn(leaders[0]).get('multi', 'm')?.epoch).toBe(2);
  const other = await shareFetch(a, 'n', 0, id, [0]);
  expect(other.responses[0].partitions[0].acquiredRecords).toEqual([]);
  // And B's own partition went back.
  const b2 = await connectTo(leaders[1]);
  expect(values(await shareFetch(b2, 'n', 0, id, [1]))).toEqual({ 1: ['p1-a'] });
});
