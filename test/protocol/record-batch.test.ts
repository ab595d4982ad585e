import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import { Compression, DecompressionError, decompress } from '../../src/protocol/compression.js';
import {
  CONTROL_BATCH_SIZE,
  CorruptRecordError,
  RECORD_BATCH_OVERHEAD,
  buildControlBatch,
  buildRecordBatch,
  compressionOf,
  decodeRecords,
  incrementSequence,
  isControlBatch,
  isTransactional,
  lastOffset,
  lastSequence,
  readBatchHeader,
  readControlType,
  setBaseOffset,
  setPartitionLeaderEpoch,
  splitBatches,
  updateCrc,
  validateBatchHeader,
  verifyCrc,
  type KafkaRecord,
  type RecordBatchHeader,
  type RecordInput,
} from '../../src/protocol/record-batch.js';
import { captureFiles, capturesDir } from '../support/captures.js';

// --- independent implementations from kafkajs 2.2.4 and the codec libraries ---

const require = createRequire(import.meta.url);
const kafkajsCrc32C = require('kafkajs/src/protocol/recordBatch/crc32C') as (buf: Buffer) => number;
type KafkajsCodec = { compress(encoder: { buffer: Buffer }): Promise<Buffer> };
const kafkajsCodecs = require('kafkajs/src/protocol/message/compression').Codecs as Record<number, () => KafkajsCodec>;
const kafkajsProduceV7 = require('kafkajs/src/protocol/requests/produce/v7/request') as (args: object) => {
  encode(): Promise<{ buffer: Buffer }>;
};
const KafkajsDecoder = require('kafkajs/src/protocol/decoder') as new (buf: Buffer) => unknown;
type KafkajsBatch = {
  firstOffset: string;
  isControlBatch: boolean;
  inTransaction: boolean;
  producerId: string;
  producerEpoch: number;
  firstSequence: number;
  records: { offset: string; timestamp: string; key: Buffer | null; value: Buffer | null; headers: Record<string, Buffer> }[];
};
const kafkajsDecodeBatch = require('kafkajs/src/protocol/recordBatch/v0/decoder') as (d: unknown) => Promise<KafkajsBatch>;
const snappy = require('snappyjs') as { compress(b: Buffer): Buffer };
const lz4 = require('lz4js') as { compress(b: Buffer): Uint8Array };

// --- helpers ---


interface Frame {
  file: string;
  dir: 'request' | 'response';
  apiKey: number;
  apiVersion: number;
  bytes: Buffer;
}

function loadFrames(): Frame[] {
  const frames: Frame[] = [];
  for (const file of captureFiles) {
    for (const line of readFileSync(resolve(capturesDir, file), 'utf8').split('\n')) {
      if (!line.trim()) continue;
      const d = JSON.parse(line) as { dir: Frame['dir']; apiKey: number; apiVersion: number; hex: string };
      frames.push({ file, dir: d.dir, apiKey: d.apiKey, apiVersion: d.apiVersion, bytes: Buffer.from(d.hex, 'hex') });
    }
  }
  return frames;
}

/** A minimal reader for the non-flexible Produce request (v0-v8), enough to find each records blob. */
class Cursor {
  constructor(
    private readonly b: Buffer,
    public pos = 0,
  ) {}
  int16(): number {
    this.pos += 2;
    return this.b.readInt16BE(this.pos - 2);
  }
  int32(): number {
    this.pos += 4;
    return this.b.readInt32BE(this.pos - 4);
  }
  string(): string | null {
    const n = this.int16();
    if (n < 0) return null;
    this.pos += n;
    return this.b.toString('utf8', this.pos - n, this.pos);
  }
  bytes(): Buffer | null {
    const n = this.int32();
    if (n < 0) return null;
    this.pos += n;
    return this.b.subarray(this.pos - n, this.pos);
  }
  get end(): boolean {
    return this.pos === this.b.length;
  }
}

interface ProducePartition {
  topic: string;
  partition: number;
  records: Buffer;
}

function parseProduceBody(c: Cursor, version: number): ProducePartition[] {
  if (version >= 3) c.string(); // transactional_id
  c.int16(); // acks
  c.int32(); // timeout
  const out: ProducePartition[] = [];
  for (let t = c.int32(); t > 0; t--) {
    const topic = c.string()!;
    for (let p = c.int32(); p > 0; p--) {
      const partition = c.int32();
      const records = c.bytes();
      if (records) out.push({ topic, partition, records });
    }
  }
  if (!c.end) throw new Error('produce body not consumed exactly');
  return out;
}

function parseProduceRequest(frame: Buffer, version: number): ProducePartition[] {
  const c = new Cursor(frame, 4); // size prefix
  c.int16(); // api key
  c.int16(); // api version
  c.int32(); // correlation id
  c.string(); // client id
  return parseProduceBody(c, version);
}

/** Magic-2 batches found by scanning: magic byte 2, a length that fits, and a CRC that verifies. */
function scanBatches(buf: Buffer): Buffer[] {
  const found: Buffer[] = [];
  for (let at = 0; at + RECORD_BATCH_OVERHEAD <= buf.length; at++) {
    if (buf[at + 16] !== 2) continue;
    const size = buf.readInt32BE(at + 8) + 12;
    if (size < RECORD_BATCH_OVERHEAD || at + size > buf.length) continue;
    const batch = buf.subarray(at, at + size);
    if (verifyCrc(batch)) {
      found.push(batch);
      at += size - 1;
    }
  }
  return found;
}

/** The capture corpus's messages: key k<i>, value "v<i> golden golden …" (or txn<i> …), one header hk=hv. */
function expectGolden(records: KafkaRecord[], h: RecordBatchHeader): void {
  expect(records).toHaveLength(h.recordsCount);
  records.forEach((r, i) => {
    expect(r.offset).toBe(h.baseOffset + i);
    const key = r.key!.toString();
    expect(key).toMatch(/^k[0-4]$/);
    const value = r.value!.toString();
    expect(value).toMatch(new RegExp(`^(v|txn)${key[1]}( golden)+ ?$`));
    expect(value.length).toBeGreaterThan(50);
    expect(r.headers).toEqual([{ key: 'hk', value: Buffer.from('hv') }]);
    expect(r.timestamp).toBeGreaterThanOrEqual(h.baseTimestamp);
    // sarama 1.22 leaves maxTimestamp at -1 (a real broker rewrites it on append).
    if (h.maxTimestamp !== -1) expect(r.timestamp).toBeLessThanOrEqual(h.maxTimestamp);
  });
}

/** Produce v7 as kafkajs 2.2.4 encodes it, with `compress` plugged in as its codec; returns the records blob. */
async function kafkajsRecords(
  compression: Compression,
  messages: { key: string; value: string; headers?: Record<string, string>; timestamp: number }[],
  compress?: (raw: Buffer) => Buffer,
): Promise<Buffer> {
  if (compress) kafkajsCodecs[compression] = () => ({ compress: async (enc) => compress(enc.buffer) });
  const req = kafkajsProduceV7({
    acks: -1,
    timeout: 30000,
    compression,
    producerId: 4321,
    producerEpoch: 1,
    topicData: [{ topic: 'golden', partitions: [{ partition: 0, firstSequence: 7, messages }] }],
  });
  const parts = parseProduceBody(new Cursor((await req.encode()).buffer), 7);
  expect(parts).toHaveLength(1);
  return parts[0]!.records;
}

/** xerial snappy-java framing (what the Java client and librdkafka send). */
function xerialSnappy(raw: Buffer, blockSize = 32 * 1024): Buffer {
  const parts = [Buffer.from('82534e41505059000000000100000001', 'hex')];
  for (let i = 0; i < raw.length; i += blockSize) {
    const block = Buffer.from(snappy.compress(raw.subarray(i, i + blockSize)));
    const len = Buffer.alloc(4);
    len.writeInt32BE(block.length);
    parts.push(len, block);
  }
  return Buffer.concat(parts);
}

function rng(seed: number): () => number {
  let x = seed >>> 0 || 1;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) / 4294967296;
  };
}

const T0 = 1700000000000;

// kafkajs's Produce v7 encoder with the `zstd -19` CLI (zstd 1.5.4, reading
// stdin: no content size in the frame, with checksum) as its codec.
const ZSTD_BATCH =
  '0000000000000000000000840000000002ba78c5500004000000040000018bcfe568000000018bcfe5680400000000000010e100010000000000000005' +
  '28b52ffd0468350200c2c30c12b0eb0cf0e43bb09e0f03727c5db52d6c56066935dd63a055740b7156cf6d9b55738790206af39bc35bca4146ca6ab9' +
  '3313c40500051207807200940327a0c18a8a1d09faa1c9';

const sample: RecordInput[] = [
  { key: 'k0', value: 'v0 golden', headers: [{ key: 'hk', value: 'hv' }], timestamp: T0 },
  { key: null, value: 'no key', timestamp: T0 + 5 },
  { key: 'tombstone', value: null, timestamp: T0 - 3 }, // earlier than the first: negative delta
  { key: Buffer.alloc(0), value: Buffer.alloc(0), headers: [{ key: 'ünï', value: null }, { key: '', value: Buffer.from([0, 255]) }], timestamp: T0 + 2 ** 40 },
  { key: 'big', value: Buffer.alloc(300, 0x61), timestamp: T0 + 1 },
];

function expectSample(records: KafkaRecord[], baseOffset = 0): void {
  expect(records).toHaveLength(sample.length);
  records.forEach((r, i) => {
    const s = sample[i]!;
    const asBuf = (v: Buffer | string | null | undefined) => (v == null ? null : Buffer.from(v));
    expect(r.offset).toBe(baseOffset + i);
    expect(r.timestamp).toBe(s.timestamp);
    expect(r.key).toEqual(asBuf(s.key));
    expect(r.value).toEqual(asBuf(s.value));
    expect(r.headers).toEqual((s.headers ?? []).map((h) => ({ key: h.key, value: asBuf(h.value) })));
  });
}

const frames = loadFrames();
const produceRequests = frames.filter((f) => f.dir === 'request' && f.apiKey === 0);

// --- tests ---

describe('captured Produce requests from five real clients', () => {
  const v2 = produceRequests.filter((f) => f.apiVersion >= 3);
  const legacy = produceRequests.filter((f) => f.apiVersion < 3);

  test('every magic-2 records blob is one whole batch that verifies, passes Kafka’s checks and decodes to the golden records', () => {
    let batches = 0;
    let gzip = 0;
    const clients = new Set<string>();
    for (const f of v2) {
      for (const p of parseProduceRequest(f.bytes, f.apiVersion)) {
        const split = splitBatches(p.records);
        expect(split).toEqual({ batches: [p.records] });
        const batch = split.batches[0]!;
        const h = readBatchHeader(batch);
        expect(h.magic).toBe(2);
        expect(h.batchLength + 12).toBe(batch.length);
        expect(h.crc).toBe(kafkajsCrc32C(batch.subarray(21)));
        expect(verifyCrc(batch)).toBe(true);
        expect(validateBatchHeader(h)).toBeNull();
        expectGolden(decodeRecords(batch), h);
        batches++;
        if (compressionOf(h.attributes) === Compression.Gzip) gzip++;
        clients.add(f.file);
      }
    }
    // The corpus is fixed: 27 magic-2 batches, 8 of them gzip, from all five clients.
    expect(batches).toBe(27);
    expect(gzip).toBe(8);
    expect(clients.size).toBe(5);
  });

  test('transactional and idempotent batches carry their producer fields', () => {
    const headers = v2.flatMap((f) => parseProduceRequest(f.bytes, f.apiVersion)).map((p) => readBatchHeader(p.records));
    const txn = headers.filter((h) => isTransactional(h.attributes));
    expect(txn.length).toBe(2); // kafkajs and confluent-kafka-python, both gzip
    for (const h of txn) {
      expect(compressionOf(h.attributes)).toBe(Compression.Gzip);
      expect(h.producerId).toBeGreaterThan(0);
      expect(lastSequence(h)).toBe(h.baseSequence + h.lastOffsetDelta);
    }
    const plain = headers.filter((h) => h.producerId === -1);
    expect(plain.length).toBeGreaterThan(0);
    for (const h of plain) expect(isControlBatch(h.attributes)).toBe(false);
  });

  test('sarama 1.22 sends maxTimestamp -1; the other clients send the largest record timestamp', () => {
    for (const f of v2) {
      for (const p of parseProduceRequest(f.bytes, f.apiVersion)) {
        const h = readBatchHeader(p.records);
        const max = Math.max(...decodeRecords(p.records).map((r) => r.timestamp));
        expect([f.file, h.maxTimestamp]).toEqual([f.file, f.file.startsWith('sarama') ? -1 : max]);
      }
    }
  });

  test('magic 0 and 1 message sets (Produce v0-v2) are recognised as UNSUPPORTED_MAGIC', () => {
    const magics = new Set<number>();
    let blobs = 0;
    for (const f of legacy) {
      for (const p of parseProduceRequest(f.bytes, f.apiVersion)) {
        magics.add(p.records[16]!);
        expect(splitBatches(p.records)).toEqual({ batches: [], error: 'UNSUPPORTED_MAGIC' });
        blobs++;
      }
    }
    expect(blobs).toBeGreaterThanOrEqual(10);
    expect([...magics].sort()).toEqual([0, 1]);
  });
});

describe('captured Fetch responses', () => {
  test('served batches verify and decode to the golden records', () => {
    let found = 0;
    for (const f of frames.filter((x) => x.dir === 'response' && x.apiKey === 1)) {
      for (const batch of scanBatches(f.bytes)) {
        const h = readBatchHeader(batch);
        expectGolden(decodeRecords(batch), h);
        found++;
      }
    }
    expect(found).toBeGreaterThanOrEqual(10);
  });
});

describe('buildRecordBatch', () => {
  test.each([
    ['uncompressed', Compression.None],
    ['gzip', Compression.Gzip],
  ] as const)('%s: build → split → verify → decode round trip', (_name, compression) => {
    const a = buildRecordBatch(sample, { compression });
    const b = buildRecordBatch(sample.slice(0, 2), { compression, producerId: 99, producerEpoch: 3, baseSequence: 10 });
    const split = splitBatches(Buffer.concat([a, b]));
    expect(split.error).toBeUndefined();
    expect(split.batches.map((x) => x.length)).toEqual([a.length, b.length]);
    expect(split.batches.every(verifyCrc)).toBe(true);
    const h = readBatchHeader(split.batches[0]!);
    expect(h).toMatchObject({
      baseOffset: 0,
      magic: 2,
      partitionLeaderEpoch: -1,
      attributes: compression,
      lastOffsetDelta: sample.length - 1,
      recordsCount: sample.length,
      baseTimestamp: T0,
      maxTimestamp: T0 + 2 ** 40,
      producerId: -1,
      producerEpoch: -1,
      baseSequence: -1,
    });
    expect(validateBatchHeader(h)).toBeNull();
    expectSample(decodeRecords(split.batches[0]!));
    expect(readBatchHeader(split.batches[1]!)).toMatchObject({ producerId: 99, producerEpoch: 3, baseSequence: 10, recordsCount: 2 });
  });

  test('kafkajs decodes what we build (uncompressed, gzip, transactional)', async () => {
    for (const compression of [Compression.None, Compression.Gzip] as const) {
      const batch = buildRecordBatch(sample, { compression, producerId: 2 ** 40 + 5, producerEpoch: 2, baseSequence: 9, transactional: true, baseOffset: 100 });
      const k = await kafkajsDecodeBatch(new KafkajsDecoder(batch));
      expect(k).toMatchObject({ firstOffset: '100', inTransaction: true, isControlBatch: false, producerId: String(2 ** 40 + 5), producerEpoch: 2, firstSequence: 9 });
      expect(k.records.map((r) => [r.offset, r.timestamp, r.key, r.value])).toEqual(
        sample.map((s, i) => [String(100 + i), String(s.timestamp), s.key == null ? null : Buffer.from(s.key), s.value == null ? null : Buffer.from(s.value)]),
      );
      expect(k.records[0]!.headers).toEqual({ hk: Buffer.from('hv') });
    }
  });

  test('records without a timestamp take opts.timestamp; an empty batch is refused', () => {
    const batch = buildRecordBatch([{ value: 'a' }, { value: 'b' }], { timestamp: 1234 });
    expect(decodeRecords(batch).map((r) => r.timestamp)).toEqual([1234, 1234]);
    expect(() => buildRecordBatch([])).toThrow(RangeError);
  });
});

describe('compressed batches written by kafkajs 2.2.4', () => {
  const messages = [0, 1, 2, 3, 4].map((i) => ({ key: `k${i}`, value: `v${i} ` + 'golden '.repeat(8), headers: { hk: 'hv' }, timestamp: T0 + i }));

  function expectMessages(records: KafkaRecord[]): void {
    expect(records.map((r) => [r.offset, r.timestamp, r.key?.toString(), r.value?.toString(), r.headers])).toEqual(
      messages.map((m, i) => [i, m.timestamp, m.key, m.value, [{ key: 'hk', value: Buffer.from('hv') }]]),
    );
  }

  test.each([
    ['gzip (kafkajs built-in)', Compression.Gzip, undefined],
    ['snappy, raw (as kafkajs-snappy sends)', Compression.Snappy, (raw: Buffer) => snappy.compress(raw)],
    ['snappy, xerial framing (as the Java client and librdkafka send)', Compression.Snappy, (raw: Buffer) => xerialSnappy(raw)],
    ['snappy, xerial framing with several blocks', Compression.Snappy, (raw: Buffer) => xerialSnappy(raw, 100)],
    ['lz4 frame', Compression.Lz4, (raw: Buffer) => Buffer.from(lz4.compress(raw))],
  ] as const)('%s', async (_name, codec, compress) => {
    const records = await kafkajsRecords(codec, messages, compress);
    const { batches, error } = splitBatches(records);
    expect(error).toBeUndefined();
    expect(batches).toHaveLength(1);
    const batch = batches[0]!;
    expect(verifyCrc(batch)).toBe(true);
    const h = readBatchHeader(batch);
    expect(compressionOf(h.attributes)).toBe(codec);
    expect(h).toMatchObject({ producerId: 4321, producerEpoch: 1, baseSequence: 7, recordsCount: 5 });
    expect(lastSequence(h)).toBe(11);
    expectMessages(decodeRecords(batch));
  });

  test('zstd (fixture compressed by the zstd CLI)', () => {
    const batch = Buffer.from(ZSTD_BATCH, 'hex');
    expect(splitBatches(batch)).toEqual({ batches: [batch] });
    expect(verifyCrc(batch)).toBe(true);
    expect(compressionOf(readBatchHeader(batch).attributes)).toBe(Compression.Zstd);
    const records = decodeRecords(batch);
    expect(records.map((r) => [r.offset, r.timestamp, r.key?.toString(), r.value?.toString()])).toEqual(
      [0, 1, 2, 3, 4].map((i) => [i, T0 + i, `k${i}`, `z${i} ` + 'golden '.repeat(8)]),
    );
    expect(records.every((r) => r.headers[0]?.value?.toString() === 'hv')).toBe(true);
  });
});

describe('decompress', () => {
  const raw = Buffer.from('golden '.repeat(100));

  test('none returns the same bytes without copying', () => {
    expect(decompress(Compression.None, raw)).toBe(raw);
  });

  test('raw and xerial-framed snappy both decode', () => {
    expect(decompress(Compression.Snappy, Buffer.from(snappy.compress(raw)))).toEqual(raw);
    expect(decompress(Compression.Snappy, xerialSnappy(raw, 64))).toEqual(raw);
  });

  test.each([
    ['gzip', Compression.Gzip],
    ['snappy', Compression.Snappy],
    ['lz4', Compression.Lz4],
    ['zstd', Compression.Zstd],
  ] as const)('%s garbage gives a DecompressionError', (_name, codec) => {
    expect(() => decompress(codec, Buffer.from('definitely not compressed data'))).toThrow(DecompressionError);
  });

  // LZ4 frames by hand: magic, FLG, BD, [content size], header checksum, blocks, end mark.
  function lz4Frame(flg: number, bd: number, blocks: Buffer[], extraHeader = Buffer.alloc(0), trailer = Buffer.alloc(0)): Buffer {
    return Buffer.concat([Buffer.from('04224d18', 'hex'), Buffer.from([flg, bd]), extraHeader, Buffer.from([0x00]), ...blocks, Buffer.alloc(4), trailer]);
  }
  function lz4Block(body: Buffer, uncompressed = false, checksum = false): Buffer {
    const size = Buffer.alloc(4);
    size.writeUInt32LE((body.length | (uncompressed ? 0x80000000 : 0)) >>> 0);
    return Buffer.concat([size, body, checksum ? Buffer.alloc(4) : Buffer.alloc(0)]);
  }
  // literals "abc", then a match of 9 at offset 3 (overlapping its own output), then literal "!"
  const abc = Buffer.from([0x35, 0x61, 0x62, 0x63, 0x03, 0x00, 0x10, 0x21]);

  test('lz4: overlapping matches, stored blocks, checksums and content size are handled', () => {
    expect(decompress(Compression.Lz4, lz4Frame(0x60, 0x40, [lz4Block(abc)]))).toEqual(Buffer.from('abcabcabcabc!'));
    const flags = 0x40 | 0x20 | 0x10 | 0x08 | 0x04; // independent blocks, block + content checksums, content size
    const size = Buffer.alloc(8);
    size.writeUInt32LE(17);
    const frame = lz4Frame(flags, 0x40, [lz4Block(Buffer.from('1234'), true, true), lz4Block(abc, false, true)], size, Buffer.alloc(4));
    expect(decompress(Compression.Lz4, frame)).toEqual(Buffer.from('1234abcabcabcabc!'));
  });

  test('lz4: a match may reach into the previous block (linked blocks)', () => {
    const second = Buffer.from([0x04, 0x0d, 0x00, 0x10, 0x5a]); // match 8 at offset 13, then "Z"
    expect(decompress(Compression.Lz4, lz4Frame(0x40, 0x40, [lz4Block(abc), lz4Block(second)]))).toEqual(Buffer.from('abcabcabcabc!abcabcabZ'));
  });

  test.each([
    ['offset 0', Buffer.from([0x15, 0x61, 0x00, 0x00, 0x10, 0x21]), /match offset out of range/],
    ['offset before the output', Buffer.from([0x15, 0x61, 0x02, 0x00, 0x10, 0x21]), /match offset out of range/],
    ['literals past the block', Buffer.from([0x50, 0x61]), /literals overrun/],
    ['truncated literal length', Buffer.from([0xf0, 0xff]), /truncated literal length/],
    ['truncated offset', Buffer.from([0x15, 0x61, 0x01]), /truncated match offset/],
    ['a block decoding past 64 KiB', Buffer.concat([Buffer.from([0x1f, 0x61, 0x01, 0x00]), Buffer.alloc(300, 0xff), Buffer.from([0x00])]), /past its maximum size/],
  ] as const)('lz4: %s is refused', (_name, body, message) => {
    expect(() => decompress(Compression.Lz4, lz4Frame(0x60, 0x40, [lz4Block(body)]))).toThrow(message);
  });

  test('lz4: bad frames are refused', () => {
    expect(() => decompress(Compression.Lz4, lz4Frame(0x60, 0x40, [lz4Block(abc)]).subarray(0, 12))).toThrow(/block overruns|truncated/);
    expect(() => decompress(Compression.Lz4, lz4Frame(0x60, 0x40, [lz4Block(abc)]).subarray(0, 21))).toThrow(/truncated block header/);
    expect(() => decompress(Compression.Lz4, lz4Frame(0x60, 0x10, [lz4Block(abc)]))).toThrow(/invalid block size/);
    expect(() => decompress(Compression.Lz4, lz4Frame(0x80, 0x40, [lz4Block(abc)]))).toThrow(/frame version/);
    expect(() => decompress(Compression.Lz4, lz4Frame(0x60, 0x40, [lz4Block(Buffer.alloc(70000), true)]))).toThrow(/overruns/);
  });

  test('zstd: a frame claiming a huge window is refused before allocating', () => {
    // Frame header: magic, FHD 0x00 (no content size, not single segment), window descriptor 0x98 (512 MiB).
    expect(() => decompress(Compression.Zstd, Buffer.from('28b52ffd0098000000', 'hex'))).toThrow(/zstd: payload too large/);
  });

  test('a truncated xerial block gives a DecompressionError', () => {
    const framed = xerialSnappy(raw);
    expect(() => decompress(Compression.Snappy, framed.subarray(0, framed.length - 3))).toThrow(DecompressionError);
  });

  test('codecs 5-7 are refused', () => {
    expect(() => decompress(5 as Compression, raw)).toThrow(/unknown compression codec 5/);
  });
});

describe('in-place writes outside the CRC', () => {
  test('setBaseOffset and setPartitionLeaderEpoch keep the CRC valid and change only their bytes', () => {
    for (const offset of [0, 1, 2 ** 32 - 1, 2 ** 32, 1234567890123, Number.MAX_SAFE_INTEGER]) {
      const batch = buildRecordBatch(sample, { compression: Compression.Gzip });
      const before = Buffer.from(batch);
      setBaseOffset(batch, offset);
      setPartitionLeaderEpoch(batch, 77);
      expect(verifyCrc(batch)).toBe(true);
      expect(readBatchHeader(batch)).toMatchObject({ baseOffset: offset, partitionLeaderEpoch: 77 });
      expect(batch.subarray(16)).toEqual(before.subarray(16));
      expect(batch.subarray(8, 12)).toEqual(before.subarray(8, 12));
      expect(decodeRecords(batch)[4]!.offset).toBe(offset + 4);
    }
  });

  test('negative int64 values read back signed', () => {
    const batch = buildRecordBatch([{ value: 'x' }], { timestamp: -1 });
    setBaseOffset(batch, -1);
    expect(readBatchHeader(batch)).toMatchObject({ baseOffset: -1, baseTimestamp: -1, producerId: -1 });
    expect(batch.subarray(0, 8)).toEqual(Buffer.alloc(8, 0xff));
  });

  test('a non-integer or unsafe offset is refused rather than written wrong', () => {
    const batch = buildRecordBatch([{ value: 'x' }]);
    expect(() => setBaseOffset(batch, 1.5)).toThrow(RangeError);
    expect(() => setBaseOffset(batch, 2 ** 53)).toThrow(RangeError);
  });

  test('writes land in the batch, not in the rest of the records blob', () => {
    const a = buildRecordBatch(sample);
    const b = buildRecordBatch(sample);
    const blob = Buffer.concat([a, b]);
    const [, second] = splitBatches(blob).batches;
    setBaseOffset(second!, 5);
    expect(readBatchHeader(blob, a.length).baseOffset).toBe(5); // zero-copy view
    expect(readBatchHeader(blob, 0).baseOffset).toBe(0);
  });
});

describe('CRC scope', () => {
  const batch = buildRecordBatch(sample, { producerId: 5, baseSequence: 0 });

  test('flipping any byte from attributes to the end fails the CRC', () => {
    for (let i = 21; i < batch.length; i++) {
      const copy = Buffer.from(batch);
      copy[i]! ^= 0x01;
      expect([i, verifyCrc(copy)]).toEqual([i, false]);
    }
  });

  test('flipping a CRC byte fails it; bytes before the CRC are not covered', () => {
    for (let i = 0; i < 21; i++) {
      const copy = Buffer.from(batch);
      copy[i]! ^= 0x80;
      expect([i, verifyCrc(copy)]).toEqual([i, i < 17]);
    }
  });

  test('updateCrc repairs a batch after a change inside the CRC (e.g. LogAppendTime)', () => {
    const copy = Buffer.from(batch);
    copy.writeInt16BE(0x08, 21); // timestampType = LogAppendTime
    copy.writeInt32BE(0, 35); // maxTimestamp (high word) ...
    copy.writeInt32BE(424242, 39); // ... = 424242
    expect(verifyCrc(copy)).toBe(false);
    updateCrc(copy);
    expect(verifyCrc(copy)).toBe(true);
    // LogAppendTime: every record reads the batch's maxTimestamp.
    expect(decodeRecords(copy).map((r) => r.timestamp)).toEqual(sample.map(() => 424242));
  });
});

describe('splitBatches on bad input', () => {
  const a = buildRecordBatch(sample);
  const b = buildRecordBatch(sample.slice(0, 1));
  const blob = Buffer.concat([a, b]);

  test('every truncation of two batches gives an answer, never a throw', () => {
    for (let n = 0; n <= blob.length; n++) {
      const result = splitBatches(blob.subarray(0, n));
      if (n < a.length) {
        // No whole batch: Kafka answers "at least one record batch" with INVALID_RECORD.
        expect([n, result.batches.length, result.error]).toEqual([n, 0, 'INVALID_RECORD']);
        expect(result.ignoredBytes).toBe(n === 0 ? undefined : n);
      } else if (n < blob.length) {
        // A partial batch after a whole one is ignored, as Kafka does.
        expect([n, result.batches.length, result.error, result.ignoredBytes]).toEqual([n, 1, undefined, n === a.length ? undefined : n - a.length]);
      } else {
        expect(result).toEqual({ batches: [a, b] });
      }
    }
  });

  function withLength(length: number, magic = 2): Buffer {
    const copy = Buffer.from(a);
    copy.writeInt32BE(length, 8);
    copy[16] = magic;
    return copy;
  }

  test.each([
    ['negative', -1, 'CORRUPT_MESSAGE'],
    ['below the v0 minimum of 14', 13, 'CORRUPT_MESSAGE'],
    ['too small for the 61-byte header', 48, 'CORRUPT_MESSAGE'],
    ['larger than the blob', 0x7fffffff, 'INVALID_RECORD'],
  ] as const)('a garbage batchLength (%s) gives %s', (_name, length, error) => {
    const result = splitBatches(withLength(length));
    expect(result.batches).toEqual([]);
    expect(result.error).toBe(error);
  });

  test.each([
    [3, 'CORRUPT_MESSAGE'],
    [0xff, 'CORRUPT_MESSAGE'],
    [0, 'UNSUPPORTED_MAGIC'],
    [1, 'UNSUPPORTED_MAGIC'],
  ] as const)('magic byte %i gives %s', (magic, error) => {
    expect(splitBatches(withLength(a.length - 12, magic))).toEqual({ batches: [], error });
  });

  test('a bad second batch keeps the first', () => {
    const second = Buffer.from(b);
    second[16] = 1;
    expect(splitBatches(Buffer.concat([a, second]))).toEqual({ batches: [a], error: 'UNSUPPORTED_MAGIC' });
  });

  test('random bytes and random corruptions never throw from split, verify or control reads, and decode throws only its own errors', async () => {
    const random = rng(20240601);
    const seeds = [
      a,
      buildRecordBatch(sample, { compression: Compression.Gzip }),
      await kafkajsRecords(Compression.Snappy, [{ key: 'k', value: 'golden '.repeat(20), timestamp: T0 }], (raw) => xerialSnappy(raw, 40)),
      await kafkajsRecords(Compression.Lz4, [{ key: 'k', value: 'golden '.repeat(20), timestamp: T0 }], (raw) => Buffer.from(lz4.compress(raw))),
      Buffer.from(ZSTD_BATCH, 'hex'),
      buildControlBatch({ producerId: 1, producerEpoch: 0, type: 'COMMIT', coordinatorEpoch: 0, timestamp: T0 }),
    ];
    let decodeErrors = 0;
    for (let i = 0; i < 3000; i++) {
      const seed = seeds[i % seeds.length]!;
      let input: Buffer;
      if (i % 10 === 0) {
        input = Buffer.from(Array.from({ length: Math.floor(random() * 200) }, () => Math.floor(random() * 256)));
      } else {
        input = Buffer.from(seed);
        for (let k = 1 + Math.floor(random() * 3); k > 0; k--) input[Math.floor(random() * input.length)] = Math.floor(random() * 256);
        if (random() < 0.2) input = input.subarray(0, Math.floor(random() * input.length));
      }
      const { batches } = splitBatches(input);
      for (const batch of batches) {
        expect(batch.length).toBeGreaterThanOrEqual(RECORD_BATCH_OVERHEAD);
        verifyCrc(batch);
        readControlType(batch);
        try {
          decodeRecords(batch);
        } catch (e) {
          decodeErrors++;
          if (!(e instanceof CorruptRecordError || e instanceof DecompressionError)) throw e;
        }
      }
    }
    expect(decodeErrors).toBeGreaterThan(0);
  });
});

describe('control batches', () => {
  const marker = {
    producerId: 4321,
    producerEpoch: 7,
    type: 'COMMIT',
    coordinatorEpoch: 9,
    timestamp: T0,
    baseOffset: 42,
    partitionLeaderEpoch: 3,
  } as const;

  test('bytes match the documented 78-byte layout', () => {
    const batch = buildControlBatch(marker);
    const crc = kafkajsCrc32C(batch.subarray(21)).toString(16).padStart(8, '0');
    const expected =
      '000000000000002a' + // baseOffset 42
      '00000042' + // batchLength 66
      '00000003' + // partitionLeaderEpoch
      '02' + // magic
      crc +
      '0030' + // attributes: control | transactional, no compression, CreateTime
      '00000000' + // lastOffsetDelta
      '0000018bcfe56800' + // baseTimestamp
      '0000018bcfe56800' + // maxTimestamp
      '00000000000010e1' + // producerId 4321
      '0007' + // producerEpoch
      'ffffffff' + // baseSequence -1
      '00000001' + // recordsCount
      '20' + // record length 16 (zigzag varint)
      '00' + // attributes
      '00' + // timestampDelta 0
      '00' + // offsetDelta 0
      '08' + '0000' + '0001' + // key: 4 bytes, version 0, type 1 (COMMIT)
      '0c' + '0000' + '00000009' + // value: 6 bytes, version 0, coordinatorEpoch 9
      '00'; // no headers
    expect(batch.length).toBe(CONTROL_BATCH_SIZE);
    expect(batch.toString('hex')).toBe(expected);
    expect(verifyCrc(batch)).toBe(true);
  });

  test('ABORT has type 0 in its key', () => {
    const batch = buildControlBatch({ ...marker, type: 'ABORT' });
    expect(decodeRecords(batch)[0]!.key).toEqual(Buffer.from('00000000', 'hex'));
    expect(readControlType(batch)).toBe('ABORT');
  });

  test('header fields: control + transactional, baseSequence -1, one record', () => {
    const h = readBatchHeader(buildControlBatch(marker));
    expect(h).toMatchObject({ batchLength: 66, lastOffsetDelta: 0, baseSequence: -1, recordsCount: 1, producerId: 4321, producerEpoch: 7 });
    expect(isControlBatch(h.attributes) && isTransactional(h.attributes)).toBe(true);
    expect(lastSequence(h)).toBe(-1);
    expect(validateBatchHeader({ ...h, baseOffset: 0 })).toBe('Clients are not allowed to write control records');
  });

  test('kafkajs reads it as a control batch with our key and value', async () => {
    const k = await kafkajsDecodeBatch(new KafkajsDecoder(buildControlBatch(marker)));
    expect(k).toMatchObject({ isControlBatch: true, inTransaction: true, firstOffset: '42', producerId: '4321' });
    expect(k.records).toHaveLength(1);
    expect(k.records[0]!.key).toEqual(Buffer.from('00000001', 'hex'));
    expect(k.records[0]!.value).toEqual(Buffer.from('000000000009', 'hex'));
  });

  test('readControlType: COMMIT, ABORT, other types as numbers, null otherwise', () => {
    expect(readControlType(buildControlBatch(marker))).toBe('COMMIT');
    expect(readControlType(buildControlBatch({ ...marker, type: 'ABORT' }))).toBe('ABORT');
    const kraft = buildControlBatch(marker);
    kraft.writeInt16BE(4, 61 + 5 + 2); // key type → 4 (SNAPSHOT_FOOTER)
    updateCrc(kraft);
    expect(readControlType(kraft)).toBe(4);
    const badVersion = buildControlBatch(marker);
    badVersion.writeInt16BE(-1, 61 + 5);
    expect(readControlType(badVersion)).toBeNull();
    expect(readControlType(buildRecordBatch(sample))).toBeNull();
    expect(readControlType(buildControlBatch(marker).subarray(0, 70))).toBeNull();
  });
});

describe('header helpers', () => {
  test('attribute bits', () => {
    expect(compressionOf(0x13)).toBe(Compression.Lz4);
    expect(compressionOf(0x34)).toBe(Compression.Zstd);
    expect(isTransactional(0x10)).toBe(true);
    expect(isTransactional(0x20)).toBe(false);
    expect(isControlBatch(0x20)).toBe(true);
    expect(isControlBatch(0x10)).toBe(false);
  });

  const header = (baseSequence: number, lastOffsetDelta: number): RecordBatchHeader => ({
    ...readBatchHeader(buildRecordBatch([{ value: 'x' }])),
    baseSequence,
    lastOffsetDelta,
  });

  test('lastSequence wraps past 2^31-1 to 0 like DefaultRecordBatch.incrementSequence', () => {
    expect(lastSequence(header(10, 4))).toBe(14);
    expect(lastSequence(header(-1, 4))).toBe(-1);
    expect(lastSequence(header(2147483647, 0))).toBe(2147483647);
    expect(lastSequence(header(2147483647, 1))).toBe(0);
    expect(lastSequence(header(2147483645, 4))).toBe(1); // …45, 46, 47, 0, 1
    expect(incrementSequence(2147483647, 5)).toBe(4);
  });

  test('lastOffset', () => {
    expect(lastOffset({ ...header(0, 4), baseOffset: 100 })).toBe(104);
  });

  test('validateBatchHeader applies Kafka’s client-batch checks', () => {
    const ok = readBatchHeader(buildRecordBatch(sample, { producerId: 1, baseSequence: 0 }));
    expect(validateBatchHeader(ok)).toBeNull();
    expect(validateBatchHeader({ ...ok, baseOffset: 3 })).toMatch(/should be 0, but it is 3/);
    expect(validateBatchHeader({ ...ok, lastOffsetDelta: -1 })).toMatch(/invalid offset range/);
    expect(validateBatchHeader({ ...ok, recordsCount: 0 })).toMatch(/Invalid reported count/);
    expect(validateBatchHeader({ ...ok, recordsCount: 4 })).toMatch(/Inconsistent batch offset range/);
    expect(validateBatchHeader({ ...ok, attributes: 0x20 })).toMatch(/control records/);
    expect(validateBatchHeader({ ...ok, baseSequence: -1 })).toMatch(/Invalid sequence number -1/);
    // No producer id: sequence -1 is fine (sarama and kafkajs send 0 here, both accepted).
    expect(validateBatchHeader({ ...ok, producerId: -1, baseSequence: -1 })).toBeNull();
  });
});

describe('decodeRecords on malformed batches', () => {
  test('a record length that does not match its fields is corrupt', () => {
    const batch = buildRecordBatch([{ key: 'k', value: 'v' }]);
    batch[61] = batch[61]! + 2; // first record's length varint, +1 after zigzag
    expect(() => decodeRecords(batch)).toThrow(CorruptRecordError);
  });

  test('more records declared than present is corrupt; so are trailing bytes', () => {
    const more = buildRecordBatch([{ value: 'v' }]);
    more.writeInt32BE(2, 57);
    expect(() => decodeRecords(more)).toThrow(CorruptRecordError);
    const fewer = buildRecordBatch([{ value: 'v' }, { value: 'w' }]);
    fewer.writeInt32BE(1, 57);
    expect(() => decodeRecords(fewer)).toThrow(/bytes left after 1 records/);
  });

  test('a batchLength beyond the buffer is corrupt, not a RangeError', () => {
    const batch = buildRecordBatch([{ value: 'v' }]);
    batch.writeInt32BE(batch.length, 8);
    expect(() => decodeRecords(batch)).toThrow(CorruptRecordError);
  });
});
