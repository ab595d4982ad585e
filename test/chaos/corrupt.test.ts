// corrupt: the action's outcome as a value, and the rewrites the proxy core
// applies on bytes (src/chaos/rewrite.ts), without sockets.
import { chaosActions } from '../../src/chaos/actions/index.js';
import { SeededRandom } from '../../src/chaos/random.js';
import { responseFrame } from '../../src/chaos/response-frame.js';
import { rewriteRequest, rewriteResponse, type FrameRewrite } from '../../src/chaos/rewrite.js';
import { ApiKey, apiSchemas } from '../../src/protocol/messages/index.js';
import { readHeader, responseHeaderVersion } from '../../src/protocol/headers.js';
import { Reader, readTaggedFields } from '../../src/protocol/primitives.js';
import { buildRecordBatch, buildControlBatch, decodeRecords, readBatchHeader, splitBatches, verifyCrc } from '../../src/protocol/record-batch.js';
import { modelCluster } from '../support/cluster.js';
import { engine, produceBody, proxied } from './helpers.js';

function fire(params: Record<string, unknown>, request: ReturnType<typeof proxied>, seed = 1) {
  const module = chaosActions.get('corrupt')!;
  return module.fire(module.parse({ type: 'corrupt', ...params }, { nodeIds: [0] }), { request, cluster: modelCluster().cluster, random: new SeededRandom(seed).fork('rule-1') });
}

const fetchRequest = () => proxied(ApiKey.Fetch, 12, { topics: [] });

test('on Produce it flips the request batches’ CRCs; on Fetch it rewrites the answer; elsewhere it forwards untouched', () => {
  expect(fire({}, proxied(ApiKey.Produce, 9, produceBody()))).toEqual({
    outcome: { request: { kind: 'forward', rewrite: [{ type: 'corrupt-crc' }] } },
    detail: { mode: 'crc', direction: 'request' },
  });
  expect(fire({ mode: 'crc' }, fetchRequest()).outcome).toEqual({ request: { kind: 'forward' }, response: { kind: 'forward', rewrite: [{ type: 'corrupt-crc' }] } });
  const value = fire({ mode: 'value' }, fetchRequest()).outcome.response as { rewrite: FrameRewrite[] };
  expect(value.rewrite).toEqual([{ type: 'corrupt-value', seed: expect.any(Number) }]);
  // The garbage comes from the rule's seeded stream.
  expect(fire({ mode: 'value' }, fetchRequest()).outcome.response).toEqual(value);
  expect(fire({ mode: 'value' }, fetchRequest(), 2).outcome.response).not.toEqual(value);
  expect(fire({}, proxied(ApiKey.Metadata, 9, { topics: null }))).toEqual({ outcome: { request: { kind: 'forward' } }, detail: { mode: 'crc', skipped: 'nothing to corrupt in Metadata' } });
  expect(fire({ mode: 'value' }, proxied(ApiKey.Produce, 9, produceBody())).outcome).toEqual({ request: { kind: 'forward' } });
});

test('refuses an unknown mode, naming action.mode', () => {
  const { chaos } = engine();
  expect(() => chaos.addRule({ action: { type: 'corrupt', mode: 'bits' } })).toThrow(expect.objectContaining({ field: 'action.mode' }));
});

test('rewriteRequest: every batch of a Produce gets a bad CRC, nothing else changes', () => {
  const req = proxied(ApiKey.Produce, 9, produceBody('t', 0));
  const out = rewriteRequest(req.frame, ApiKey.Produce, 9, [{ type: 'corrupt-crc' }]);
  expect(out).not.toBe(req.frame);
  expect(out.length).toBe(req.frame.length);
  const r = new Reader(out);
  readHeader(r, apiSchemas.get(ApiKey.Produce)!, 9);
  const body = apiSchemas.get(ApiKey.Produce)!.readRequest(r, 9) as any;
  const batch = body.topicData[0].partitionData[0].records as Buffer;
  expect(verifyCrc(batch)).toBe(false);
  expect(decodeRecords(batch)[0]!.value!.toString()).toBe('x');
  // The original frame is untouched, and other APIs pass as they are.
  const original = new Reader(req.frame);
  readHeader(original, apiSchemas.get(ApiKey.Produce)!, 9);
  expect(verifyCrc((apiSchemas.get(ApiKey.Produce)!.readRequest(original, 9) as any).topicData[0].partitionData[0].records)).toBe(true);
  const meta = proxied(ApiKey.Metadata, 9, { topics: null });
  expect(rewriteRequest(meta.frame, ApiKey.Metadata, 9, [{ type: 'corrupt-crc' }])).toBe(meta.frame);
});

/** A Fetch answer of one partition: a data batch of 2 records at offset 5, then a commit marker. */
function fetchAnswer(version: number): Buffer {
  const data = buildRecordBatch([{ key: 'k0', value: 'hello' }, { key: 'k1', value: 'world', headers: [{ key: 'h', value: 'v' }] }], { baseOffset: 5, partitionLeaderEpoch: 3, timestamp: 1000 });
  const marker = buildControlBatch({ type: 'COMMIT', producerId: 9, producerEpoch: 0, baseOffset: 7, timestamp: 1000, coordinatorEpoch: 0 });
  const body = { responses: [{ topic: 't', topicId: '00000000-0000-0000-0000-000000000000', partitions: [{ partitionIndex: 0, highWatermark: 8, lastStableOffset: 8, records: Buffer.concat([data, marker]) }] }] };
  return responseFrame(ApiKey.Fetch, version, 77, body).subarray(4);
}

function batchesOf(prefixed: Buffer, version: number): Buffer[] {
  const api = apiSchemas.get(ApiKey.Fetch)!;
  const r = new Reader(prefixed.subarray(4));
  expect(r.int32()).toBe(77);
  if (responseHeaderVersion(api, version) >= 1) readTaggedFields(r, () => false);
  const body = api.readResponse(r, version) as any;
  return splitBatches(body.responses[0].partitions[0].records).batches;
}

test.each([4, 12])('rewriteResponse corrupt-crc: Fetch v%i batches keep their bytes but for the CRC', (version) => {
  const frame = fetchAnswer(version);
  const out = rewriteResponse(frame, ApiKey.Fetch, version, [{ type: 'corrupt-crc' }]);
  expect(out.readInt32BE(0)).toBe(frame.length);
  const batches = batchesOf(out, version);
  expect(batches.map(verifyCrc)).toEqual([false, false]);
  expect(batchesOf(rewriteResponse(frame, ApiKey.Fetch, version, []), version).map(verifyCrc)).toEqual([true, true]);
});

test.each([4, 12])('rewriteResponse corrupt-value: Fetch v%i data batches keep offsets, keys, headers and a valid CRC; values are garbage', (version) => {
  const frame = fetchAnswer(version);
  const out = rewriteResponse(frame, ApiKey.Fetch, version, [{ type: 'corrupt-value', seed: 7 }]);
  const [data, marker] = batchesOf(out, version);
  expect(verifyCrc(data!)).toBe(true);
  expect(readBatchHeader(data!)).toMatchObject({ baseOffset: 5, partitionLeaderEpoch: 3, lastOffsetDelta: 1 });
  const records = decodeRecords(data!);
  expect(records.map((r) => [r.offset, r.key!.toString(), r.headers.map((h) => h.key), r.timestamp])).toEqual([
    [5, 'k0', [], 1000],
    [6, 'k1', ['h'], 1000],
  ]);
  expect(records.map((r) => r.value!.length)).toEqual([5, 5]);
  expect(records[0]!.value!.toString()).not.toBe('hello');
  expect(readBatchHeader(marker!).baseOffset).toBe(7);
  expect(verifyCrc(marker!)).toBe(true);
  // The same seed, the same garbage.
  expect(rewriteResponse(frame, ApiKey.Fetch, version, [{ type: 'corrupt-value', seed: 7 }]).equals(out)).toBe(true);
});
