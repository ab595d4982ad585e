// How Fetch answers a partition it cannot read, as a real 3.9.1 and 4.0.2
// answer (test/conformance): empty records either way; an unknown topic
// (KafkaApis' own check) carries an empty aborted list, a read error from
// the log (OFFSET_OUT_OF_RANGE) none.
import { startCluster, type RunningCluster } from '../../../src/index.js';
import { ApiKey } from '../../../src/protocol/messages/index.js';
import { ErrorCode } from '../../../src/protocol/errors.js';
import { WireClient } from '../../support/wire-client.js';

let kafka: RunningCluster;
let c: WireClient;
beforeAll(async () => {
  kafka = await startCluster({ brokers: 1, topics: [{ name: 'known', partitions: 1 }] });
  c = await WireClient.connect(kafka.bootstrap);
});
afterAll(async () => {
  c.close();
  await kafka.stop();
});

const fetch = (topic: string, fetchOffset: number) =>
  c
    .request(ApiKey.Fetch, 12, {
      replicaId: -1,
      maxWaitMs: 0,
      minBytes: 0,
      maxBytes: 1 << 20,
      isolationLevel: 0,
      sessionId: 0,
      sessionEpoch: -1,
      topics: [{ topic, partitions: [{ partition: 0, currentLeaderEpoch: -1, fetchOffset, lastFetchedEpoch: -1, logStartOffset: -1, partitionMaxBytes: 1 << 20 }] }],
      forgottenTopicsData: [],
      rackId: '',
    })
    .then((r: any) => r.responses[0].partitions[0]);

test('an unknown topic: empty records and an empty aborted list', async () => {
  const p = await fetch('missing', 0);
  expect(p.errorCode).toBe(ErrorCode.UNKNOWN_TOPIC_OR_PARTITION);
  expect(p.abortedTransactions).toEqual([]);
  expect(Buffer.from(p.records)).toHaveLength(0);
});

test('an offset past the log end: empty records and no aborted list', async () => {
  const p = await fetch('known', 5);
  expect(p.errorCode).toBe(ErrorCode.OFFSET_OUT_OF_RANGE);
  expect(p.abortedTransactions).toBeNull();
  expect(Buffer.from(p.records)).toHaveLength(0);
});
