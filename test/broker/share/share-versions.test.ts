// Every version of each share-group API the 4.4 profile serves is answered
// (a response that decodes, on a connection that stays open); then random
// and mutated share frames never take the broker down, and a well-formed
// share member still gets its records.
import { startCluster, type RunningCluster } from '../../../src/index.js';
import { ApiKey } from '../../../src/protocol/messages/index.js';
import { buildRecordBatch } from '../../../src/protocol/record-batch.js';
import { WireClient } from '../../support/wire-client.js';
import { shareFrames, shareRequests } from '../../support/share-frames.js';
import { mutate, rng } from '../../../bench/lib/fuzz-frames.mjs';

let kafka: RunningCluster;
let c: WireClient;
let topicId: string;
beforeAll(async () => {
  kafka = await startCluster({ brokers: 1, kafkaVersion: '4.4', proxy: false, logLevel: 'silent', topics: [{ name: 'golden', partitions: 2 }] });
  topicId = kafka.cluster.topic('golden')!.topicId;
  c = await WireClient.connect(kafka.bootstrap);
});
afterAll(async () => {
  c.close();
  await kafka.stop();
});

test('each share-group API at every version is answered', async () => {
  for (const [name, apiKey, version, body] of shareRequests('golden', topicId)) {
    const res = await c.request(apiKey, version, body);
    expect([name, version, res !== undefined, c.closed]).toEqual([name, version, true, false]);
  }
});

const seconds = Number(process.env.FUZZ_SECONDS ?? 2);
const seed = Number(process.env.FUZZ_SEED ?? Date.now() % 2 ** 31);

test(`mutated share frames never take the broker down (${seconds}s, seed ${seed})`, async () => {
  const seeds = shareFrames('golden', topicId);
  const random = rng(seed);
  const deadline = Date.now() + seconds * 1000;
  let frames = 0;
  let f = await WireClient.connect(kafka.bootstrap);
  while (Date.now() < deadline) {
    if (f.closed) f = await WireClient.connect(kafka.bootstrap);
    f.writeRaw(mutate(seeds, random));
    if (++frames % 8 === 0) await new Promise((r) => setImmediate(r));
  }
  f.close();
  expect(frames).toBeGreaterThan(100);
  // A well-formed member still gets what is produced.
  kafka.cluster.groupConfigs.set('after-fuzz', 'share.auto.offset.reset', 'earliest');
  const ok = await WireClient.connect(kafka.bootstrap);
  await ok.request(ApiKey.Produce, 11, { transactionalId: null, acks: -1, timeoutMs: 5000, topicData: [{ name: 'golden', partitionData: [{ index: 1, records: buildRecordBatch([{ value: 'after' }]) }] }] });
  const res = await ok.request(ApiKey.ShareFetch, 1, { groupId: 'after-fuzz', memberId: 'm', shareSessionEpoch: 0, maxWaitMs: 0, minBytes: 1, maxBytes: 1 << 20, maxRecords: 10, batchSize: 10, topics: [{ topicId, partitions: [{ partitionIndex: 1, acknowledgementBatches: [] }] }], forgottenTopicsData: [] });
  expect(res.responses[0].partitions[0].acquiredRecords.length).toBe(1);
  ok.close();
}, seconds * 1000 + 20_000);
