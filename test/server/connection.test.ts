// The connection rules, checked on the wire: ordering, acks=0, version
// handling, size limits and malformed input.
import { startCluster, type RunningCluster } from '../../src/index.js';
import { ApiKey, apiSchemas } from '../../src/protocol/messages/index.js';
import { ErrorCode } from '../../src/protocol/errors.js';
import { buildRecordBatch } from '../../src/protocol/record-batch.js';
import { brokerHandlers } from '../../src/broker/handlers/index.js';
import { HandlerRegistry } from '../../src/broker/handlers/registry.js';
import { WireClient, correlationOf, decodeResponse } from '../support/wire-client.js';

let kafka: RunningCluster;
let address: string;

beforeAll(async () => {
  kafka = await startCluster({ brokers: 1, maxRequestSize: 64 * 1024, topics: [{ name: 'wire', partitions: 1 }] });
  address = kafka.bootstrap;
});
afterAll(() => kafka.stop());

const produceBody = (acks: number, topic = 'wire') => ({
  acks,
  timeoutMs: 1000,
  topicData: [{ name: topic, partitionData: [{ index: 0, records: buildRecordBatch([{ value: Buffer.from('x') }]) }] }],
});

test('responses come back in request order: a request behind a waiting Fetch is answered after it', async () => {
  const c = await WireClient.connect(address);
  const end = kafka.cluster.partition('wire', 0)!.logEndOffset;
  // A fetch at the log end parks for 300 ms; the metadata request behind it is read once the fetch is answered.
  const fetchId = c.send(ApiKey.Fetch, 11, { maxWaitMs: 300, minBytes: 1, maxBytes: 1 << 20, isolationLevel: 0, sessionEpoch: -1, topics: [{ topic: 'wire', partitions: [{ partition: 0, fetchOffset: end, partitionMaxBytes: 1 << 20 }] }] });
  const metadataId = c.send(ApiKey.Metadata, 6, { topics: [] });
  const first = await c.nextFrame();
  const second = await c.nextFrame();
  expect([correlationOf(first!), correlationOf(second!)]).toEqual([fetchId, metadataId]);
  c.close();
});

test('acks=0 produce gets no response, and the record is stored', async () => {
  const c = await WireClient.connect(address);
  const before = kafka.cluster.partition('wire', 0)!.logEndOffset;
  c.send(ApiKey.Produce, 7, produceBody(0));
  const apiVersionsId = c.send(ApiKey.ApiVersions, 2, {});
  expect(correlationOf((await c.nextFrame())!)).toBe(apiVersionsId);
  expect(kafka.cluster.partition('wire', 0)!.logEndOffset).toBe(before + 1);
  c.close();
});

test('acks=0 produce that fails closes the connection', async () => {
  const c = await WireClient.connect(address);
  c.send(ApiKey.Produce, 7, produceBody(0, 'no-such-topic'));
  expect(await c.whenClosed()).toBe(true);
});

test('ApiVersions advertises exactly the registry', async () => {
  const c = await WireClient.connect(address);
  const res = await c.request(ApiKey.ApiVersions, 3, { clientSoftwareName: 'wire-test', clientSoftwareVersion: '1.0' });
  expect(res.errorCode).toBe(0);
  expect(res.apiKeys).toEqual(new HandlerRegistry(brokerHandlers).versions());
  // librdkafka needs these exact old versions in range to enable its features.
  const range = (k: number) => res.apiKeys.find((a: any) => a.apiKey === k);
  expect(range(ApiKey.Produce)).toMatchObject({ minVersion: 0 });
  expect(range(ApiKey.Fetch)).toMatchObject({ minVersion: 0 });
  expect(range(ApiKey.ListOffsets)).toMatchObject({ minVersion: 0 });
  c.close();
});

test('ApiVersions v3 with an invalid client software name gets INVALID_REQUEST', async () => {
  const c = await WireClient.connect(address);
  const res = await c.request(ApiKey.ApiVersions, 3, { clientSoftwareName: 'bad name!', clientSoftwareVersion: '1' });
  expect(res.errorCode).toBe(ErrorCode.INVALID_REQUEST);
  c.close();
});

test('an unsupported ApiVersions version is answered with a v0 body: UNSUPPORTED_VERSION and its range', async () => {
  const c = await WireClient.connect(address);
  const id = c.send(ApiKey.ApiVersions, 2, {});
  // Rewrite the version field to 99: the broker must not parse the body.
  await c.nextFrame();
  const frame = Buffer.alloc(4 + 10 + 9);
  frame.writeInt32BE(frame.length - 4, 0);
  frame.writeInt16BE(ApiKey.ApiVersions, 4);
  frame.writeInt16BE(99, 6);
  frame.writeInt32BE(id + 1, 8);
  frame.writeInt16BE(9, 12);
  frame.write('wire-test', 14);
  c.writeRaw(frame);
  const res = (await c.nextFrame())!;
  expect(correlationOf(res)).toBe(id + 1);
  const body = decodeResponse(res, ApiKey.ApiVersions, 0) as any;
  expect(body).toEqual({ errorCode: ErrorCode.UNSUPPORTED_VERSION, apiKeys: [{ apiKey: 18, minVersion: 0, maxVersion: 4 }], throttleTimeMs: 0, supportedFeatures: [], finalizedFeaturesEpoch: -1, finalizedFeatures: [], zkMigrationReady: false });
  c.close();
});

const registry = new HandlerRegistry(brokerHandlers);
const outside = [...apiSchemas.values()].flatMap((api) => {
  const h = registry.get(api.apiKey);
  if (!h) return [[api.name, api.apiKey, api.minVersion] as const];
  return [[api.name, api.apiKey, h.maxVersion + 1] as const, ...(h.minVersion > 0 ? [[api.name, api.apiKey, h.minVersion - 1] as const] : [])];
}).filter(([, key]) => key !== ApiKey.ApiVersions);

test.each(outside)('%s (key %i) at version %i outside the served range closes the connection', async (_name, key, version) => {
  const c = await WireClient.connect(address);
  const frame = Buffer.alloc(4 + 10);
  frame.writeInt32BE(10, 0);
  frame.writeInt16BE(key, 4);
  frame.writeInt16BE(version, 6);
  frame.writeInt32BE(1, 8);
  frame.writeInt16BE(-1, 12);
  c.writeRaw(frame);
  expect(await c.whenClosed()).toBe(true);
});

test('a frame larger than the maximum request size closes only that connection', async () => {
  const bad = await WireClient.connect(address);
  const good = await WireClient.connect(address);
  const header = Buffer.alloc(4);
  header.writeInt32BE(64 * 1024 + 1);
  bad.writeRaw(header);
  expect(await bad.whenClosed()).toBe(true);
  const res = await good.request(ApiKey.Metadata, 1, { topics: null });
  expect(res.brokers).toHaveLength(1);
  good.close();
});

test('a truncated request body closes the connection', async () => {
  const c = await WireClient.connect(address);
  const frame = Buffer.alloc(4 + 14);
  frame.writeInt32BE(14, 0);
  frame.writeInt16BE(ApiKey.Metadata, 4);
  frame.writeInt16BE(1, 6);
  frame.writeInt32BE(7, 8);
  frame.writeInt16BE(-1, 12);
  frame.writeInt32BE(5, 14); // five topics follow... but none do
  c.writeRaw(frame);
  expect(await c.whenClosed()).toBe(true);
});

test('a request split into one-byte writes is still framed correctly', async () => {
  const c = await WireClient.connect(address);
  const { encodeRequest } = await import('../../src/protocol/headers.js');
  const payload = encodeRequest(ApiKey.Metadata, 1, 42, 'slicer', { topics: null });
  const frame = Buffer.concat([Buffer.from([0, 0, 0, payload.length]), payload]);
  for (const b of frame) {
    c.writeRaw(Buffer.from([b]));
    await new Promise((r) => setImmediate(r));
  }
  expect(correlationOf((await c.nextFrame())!)).toBe(42);
  c.close();
});
