// Upstream mode's answer rewrite on bytes (src/chaos/upstream-answers.ts):
// which answers carry broker addresses and where, re-encoding them, and the
// ApiVersions cap. The same paths run end to end in test/e2e/upstream*.test.ts.
import { ApiKey, apiSchemas } from '../../src/protocol/messages/index.js';
import { Reader } from '../../src/protocol/primitives.js';
import { responseFrame } from '../../src/chaos/response-frame.js';
import { capApiVersions, carriesAddresses, decodeAnswer, encodeAnswer } from '../../src/chaos/upstream-answers.js';

const unprefixed = (b: Buffer) => b.subarray(4);

function decodeApiVersions(prefixed: Buffer, version: number) {
  const r = new Reader(prefixed.subarray(4));
  r.int32();
  return apiSchemas.get(ApiKey.ApiVersions)!.readResponse(r, version) as { apiKeys: { apiKey: number; minVersion: number; maxVersion: number }[] };
}

test('which answers may carry addresses', () => {
  expect(carriesAddresses(ApiKey.Metadata, 0)).toBe(true);
  expect(carriesAddresses(ApiKey.FindCoordinator, 4)).toBe(true);
  expect(carriesAddresses(ApiKey.DescribeCluster, 1)).toBe(true);
  expect(carriesAddresses(ApiKey.Produce, 9)).toBe(false);
  expect(carriesAddresses(ApiKey.Produce, 10)).toBe(true);
  expect(carriesAddresses(ApiKey.Fetch, 15)).toBe(false);
  expect(carriesAddresses(ApiKey.Fetch, 16)).toBe(true);
  expect(carriesAddresses(ApiKey.OffsetCommit, 8)).toBe(false);
});

test('Metadata at every version: the brokers are found, changed and re-encoded; topic ids are learned from v10', () => {
  const api = apiSchemas.get(ApiKey.Metadata)!;
  for (let v = api.minVersion; v <= api.maxVersion; v++) {
    const frame = responseFrame(ApiKey.Metadata, v, 77, {
      brokers: [{ nodeId: 4, host: 'kafka-4.internal', port: 9092, rack: null }],
      clusterId: 'c1',
      controllerId: 4,
      topics: [{ errorCode: 0, name: 'orders', topicId: '0123456789abcdef0123456789abcdef'.replace(/^(.{8})(.{4})(.{4})(.{4})/, '$1-$2-$3-$4-'), isInternal: false, partitions: [] }],
    });
    const answer = decodeAnswer(unprefixed(frame), ApiKey.Metadata, v)!;
    expect(answer.endpoints.map((e) => [e.nodeId, e.host, e.port])).toEqual([[4, 'kafka-4.internal', 9092]]);
    answer.endpoints[0]!.set('127.0.0.1', 30004);
    const again = decodeAnswer(unprefixed(encodeAnswer(answer)), ApiKey.Metadata, v)!;
    expect(again.correlationId).toBe(77);
    expect(again.endpoints.map((e) => [e.nodeId, e.host, e.port])).toEqual([[4, '127.0.0.1', 30004]]);
    expect(again.metadata!.topics).toEqual(v >= 10 ? [{ topicId: '01234567-89ab-cdef-0123-456789abcdef', name: 'orders' }] : []);
  }
});

test('FindCoordinator: an unknown coordinator (node -1) and errored entries are left alone', () => {
  const v1 = decodeAnswer(unprefixed(responseFrame(ApiKey.FindCoordinator, 1, 1, { errorCode: 15, nodeId: -1, host: '', port: -1 })), ApiKey.FindCoordinator, 1)!;
  expect(v1.endpoints).toEqual([]);
  const v4 = decodeAnswer(
    unprefixed(
      responseFrame(ApiKey.FindCoordinator, 4, 1, {
        coordinators: [
          { key: 'a', nodeId: 2, host: 'b2', port: 9094, errorCode: 0, errorMessage: null },
          { key: 'b', nodeId: -1, host: '', port: -1, errorCode: 15, errorMessage: 'not yet' },
        ],
      }),
    ),
    ApiKey.FindCoordinator,
    4,
  )!;
  expect(v4.endpoints.map((e) => e.nodeId)).toEqual([2]);
});

test('DescribeCluster controllers (endpointType 2) are not rewritten', () => {
  const frame = responseFrame(ApiKey.DescribeCluster, 1, 1, { endpointType: 2, clusterId: 'c', controllerId: 3000, brokers: [{ brokerId: 3000, host: 'ctl', port: 9093, rack: null }] });
  expect(decodeAnswer(unprefixed(frame), ApiKey.DescribeCluster, 1)!.endpoints).toEqual([]);
});

test('a frame that does not decode is reported as null, not guessed at', () => {
  expect(decodeAnswer(Buffer.from([0, 0, 0, 1, 0, 0, 0]), ApiKey.Metadata, 9)).toBeNull();
});

test('ApiVersions: versions past the codecs are capped, unknown APIs and error answers are left alone', () => {
  const metadataMax = apiSchemas.get(ApiKey.Metadata)!.maxVersion;
  const frame = responseFrame(ApiKey.ApiVersions, 3, 5, {
    errorCode: 0,
    apiKeys: [
      { apiKey: ApiKey.Metadata, minVersion: 0, maxVersion: metadataMax + 1 },
      { apiKey: ApiKey.Produce, minVersion: 3, maxVersion: 5 },
      { apiKey: 31000, minVersion: 0, maxVersion: 7 },
    ],
  });
  const capped = capApiVersions(unprefixed(frame), 3)!;
  expect(decodeApiVersions(capped, 3).apiKeys).toEqual([
    { apiKey: ApiKey.Metadata, minVersion: 0, maxVersion: metadataMax },
    { apiKey: ApiKey.Produce, minVersion: 3, maxVersion: 5 },
    { apiKey: 31000, minVersion: 0, maxVersion: 7 },
  ]);
  expect(capped.readInt32BE(4)).toBe(5);
  expect(capApiVersions(unprefixed(responseFrame(ApiKey.ApiVersions, 3, 5, { errorCode: 0, apiKeys: [{ apiKey: 3, minVersion: 0, maxVersion: 9 }] })), 3)).toBeNull();
  expect(capApiVersions(unprefixed(responseFrame(ApiKey.ApiVersions, 0, 5, { errorCode: 35, apiKeys: [] })), 3)).toBeNull();
});
