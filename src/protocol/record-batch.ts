// Record batches (magic 2) kept as the raw bytes the producer sent.
//
// The produce path only splits the records blob into batches, reads the
// 61-byte header, checks the CRC and stamps baseOffset and
// partitionLeaderEpoch in place (both lie outside the CRC, so the client's
// bytes stay valid). Fetch serves the stored buffers as they are. Records are
// decoded only for inspection (decodeRecords). Layout and CRC scope: see
// protocol/kafka-3.9/README.md, "Record batch v2 (magic 2) layout".

import { createRequire } from 'node:module';
import { Compression, decompress } from './compression.js';
import { crc32c } from './crc32c.js';

// node:zlib on first use: most runs compress nothing (src/protocol/compression.ts).
let zlib: typeof import('node:zlib') | undefined;
const gzipModule = () => (zlib ??= createRequire(import.meta.url)('node:zlib') as typeof import('node:zlib'));

export { Compression };

// Field offsets inside a batch (DefaultRecordBatch.java names).
const BASE_OFFSET_OFFSET = 0;
const LENGTH_OFFSET = 8;
const PARTITION_LEADER_EPOCH_OFFSET = 12;
const MAGIC_OFFSET = 16;
const CRC_OFFSET = 17;
const ATTRIBUTES_OFFSET = 21;
const LAST_OFFSET_DELTA_OFFSET = 23;
const BASE_TIMESTAMP_OFFSET = 27;
const MAX_TIMESTAMP_OFFSET = 35;
const PRODUCER_ID_OFFSET = 43;
const PRODUCER_EPOCH_OFFSET = 51;
const BASE_SEQUENCE_OFFSET = 53;
const RECORDS_COUNT_OFFSET = 57;

/** baseOffset + batchLength: the part of every batch or message outside batchLength. */
const LOG_OVERHEAD = 12;
/** Bytes needed to read the magic byte, which sits at 16 in every message format. */
const HEADER_SIZE_UP_TO_MAGIC = 17;
/** Smallest legal message (v0); Kafka calls anything shorter corrupt before looking at magic. */
const RECORD_OVERHEAD_V0 = 14;

export const RECORD_BATCH_OVERHEAD = 61;
export const CONTROL_BATCH_SIZE = 78;
export const MAGIC_VALUE_V2 = 2;

export const COMPRESSION_CODEC_MASK = 0x07;
export const TIMESTAMP_TYPE_MASK = 0x08;
export const TRANSACTIONAL_FLAG_MASK = 0x10;
export const CONTROL_FLAG_MASK = 0x20;
export const DELETE_HORIZON_FLAG_MASK = 0x40;

export const NO_PRODUCER_ID = -1;
export const NO_PRODUCER_EPOCH = -1;
export const NO_SEQUENCE = -1;
export const NO_PARTITION_LEADER_EPOCH = -1;
export const NO_TIMESTAMP = -1;

const TWO_32 = 4294967296;

export interface RecordBatchHeader {
  baseOffset: number;
  batchLength: number;
  partitionLeaderEpoch: number;
  magic: number;
  crc: number;
  attributes: number;
  lastOffsetDelta: number;
  baseTimestamp: number;
  maxTimestamp: number;
  producerId: number;
  producerEpoch: number;
  baseSequence: number;
  recordsCount: number;
}

export interface KafkaRecord {
  offset: number;
  timestamp: number;
  key: Buffer | null;
  value: Buffer | null;
  headers: { key: string; value: Buffer | null }[];
}

/** A batch whose records cannot be decoded (Kafka's CorruptRecordException). */
export class CorruptRecordError extends Error {
  override name = 'CorruptRecordError';
}

// int64 as a JS number: exact within ±2^53, which covers offsets, producer
// ids and timestamps; -1 reads as -1.
function readInt64(buf: Buffer, at: number): number {
  return buf.readInt32BE(at) * TWO_32 + buf.readUInt32BE(at + 4);
}

function writeInt64(buf: Buffer, at: number, value: number): void {
  if (!Number.isSafeInteger(value)) throw new RangeError(`int64 out of safe range: ${value}`);
  const hi = Math.floor(value / TWO_32);
  buf.writeInt32BE(hi, at);
  buf.writeUInt32BE(value - hi * TWO_32, at + 4);
}

/** Reads the fixed header; the caller guarantees 61 bytes from `at` (splitBatches does). */
export function readBatchHeader(buf: Buffer, at = 0): RecordBatchHeader {
  return {
    baseOffset: readInt64(buf, at + BASE_OFFSET_OFFSET),
    batchLength: buf.readInt32BE(at + LENGTH_OFFSET),
    partitionLeaderEpoch: buf.readInt32BE(at + PARTITION_LEADER_EPOCH_OFFSET),
    magic: buf.readInt8(at + MAGIC_OFFSET),
    crc: buf.readUInt32BE(at + CRC_OFFSET),
    attributes: buf.readInt16BE(at + ATTRIBUTES_OFFSET),
    lastOffsetDelta: buf.readInt32BE(at + LAST_OFFSET_DELTA_OFFSET),
    baseTimestamp: readInt64(buf, at + BASE_TIMESTAMP_OFFSET),
    maxTimestamp: readInt64(buf, at + MAX_TIMESTAMP_OFFSET),
    producerId: readInt64(buf, at + PRODUCER_ID_OFFSET),
    producerEpoch: buf.readInt16BE(at + PRODUCER_EPOCH_OFFSET),
    baseSequence: buf.readInt32BE(at + BASE_SEQUENCE_OFFSET),
    recordsCount: buf.readInt32BE(at + RECORDS_COUNT_OFFSET),
  };
}

export type BatchError = 'CORRUPT_MESSAGE' | 'INVALID_RECORD' | 'UNSUPPORTED_MAGIC';

export interface SplitBatches {
  /** Whole batches, each a zero-copy view into the records blob; every one is ≥ 61 bytes. */
  batches: Buffer[];
  error?: BatchError;
  /** Bytes of a partial batch at the end that the walk ignored (Kafka ignores them too). */
  ignoredBytes?: number;
}

/**
 * Cuts the records blob of one Produce partition into batches, following
 * Kafka's ByteBufferLogInputStream so that bad input gets Kafka's answer:
 * - batchLength below 14, magic outside 0..2, or a magic-2 batch shorter
 *   than its 61-byte header: CORRUPT_MESSAGE;
 * - magic 0 or 1 (an old MessageSet): UNSUPPORTED_MAGIC, for the caller to
 *   map (Kafka answers Produce v3+ with INVALID_RECORD);
 * - a partial batch at the end ends the walk and is ignored, as in Kafka;
 *   if no whole batch remains the answer is INVALID_RECORD ("at least one
 *   record batch per partition").
 * The CRC is not checked here (verifyCrc); neither is Kafka's v3+ rule of
 * exactly one batch per partition (the caller sees batches.length).
 */
export function splitBatches(records: Buffer): SplitBatches {
  const batches: Buffer[] = [];
  let at = 0;
  while (at < records.length) {
    const remaining = records.length - at;
    if (remaining < LOG_OVERHEAD) break;
    const length = records.readInt32BE(at + LENGTH_OFFSET);
    if (length < RECORD_OVERHEAD_V0) return { batches, error: 'CORRUPT_MESSAGE' };
    if (remaining < HEADER_SIZE_UP_TO_MAGIC) break;
    const magic = records.readInt8(at + MAGIC_OFFSET);
    if (magic < 0 || magic > MAGIC_VALUE_V2) return { batches, error: 'CORRUPT_MESSAGE' };
    if (magic < MAGIC_VALUE_V2) return { batches, error: 'UNSUPPORTED_MAGIC' };
    const size = LOG_OVERHEAD + length;
    if (size < RECORD_BATCH_OVERHEAD) return { batches, error: 'CORRUPT_MESSAGE' };
    if (remaining < size) break;
    batches.push(records.subarray(at, at + size));
    at += size;
  }
  const ignoredBytes = records.length - at;
  const result: SplitBatches = { batches };
  if (ignoredBytes > 0) result.ignoredBytes = ignoredBytes;
  if (batches.length === 0) result.error = 'INVALID_RECORD';
  return result;
}

/** The stored CRC matches CRC-32C over [attributes, end). */
export function verifyCrc(batch: Buffer): boolean {
  return batch.readUInt32BE(CRC_OFFSET) === crc32c(batch, ATTRIBUTES_OFFSET, batch.length);
}

/** Recomputes the CRC in place: needed after changing anything from attributes on. */
export function updateCrc(batch: Buffer): void {
  batch.writeUInt32BE(crc32c(batch, ATTRIBUTES_OFFSET, batch.length), CRC_OFFSET);
}

/** Outside the CRC: the client's CRC stays valid. */
export function setBaseOffset(batch: Buffer, offset: number): void {
  writeInt64(batch, BASE_OFFSET_OFFSET, offset);
}

/** Outside the CRC: the client's CRC stays valid. */
export function setPartitionLeaderEpoch(batch: Buffer, epoch: number): void {
  batch.writeInt32BE(epoch, PARTITION_LEADER_EPOCH_OFFSET);
}

export function isTransactional(attributes: number): boolean {
  return (attributes & TRANSACTIONAL_FLAG_MASK) !== 0;
}

export function isControlBatch(attributes: number): boolean {
  return (attributes & CONTROL_FLAG_MASK) !== 0;
}

export function compressionOf(attributes: number): Compression {
  return attributes & COMPRESSION_CODEC_MASK;
}

export function isLogAppendTime(attributes: number): boolean {
  return (attributes & TIMESTAMP_TYPE_MASK) !== 0;
}

export function lastOffset(header: RecordBatchHeader): number {
  return header.baseOffset + header.lastOffsetDelta;
}

/** Sequence numbers wrap from 2^31-1 to 0 (DefaultRecordBatch.incrementSequence). */
export function incrementSequence(sequence: number, increment: number): number {
  if (sequence > 0x7fffffff - increment) return increment - (0x7fffffff - sequence) - 1;
  return sequence + increment;
}

/** Sequence of the batch's last record, or -1 when the batch has none. */
export function lastSequence(header: RecordBatchHeader): number {
  if (header.baseSequence === NO_SEQUENCE) return NO_SEQUENCE;
  return incrementSequence(header.baseSequence, header.lastOffsetDelta);
}

/**
 * Kafka's header checks on a batch from a client, all answered with
 * INVALID_RECORD: baseOffset 0 (UnifiedLog.analyzeAndValidateRecords, which
 * checks it before the CRC), then LogValidator.validateBatch. Header only, so
 * cheap enough for every produce. Returns Kafka's message (without the
 * partition Kafka appends), or null when the batch is acceptable.
 */
export function validateBatchHeader(h: RecordBatchHeader): string | null {
  if (h.baseOffset !== 0) return `The baseOffset of the record batch should be 0, but it is ${h.baseOffset}`;
  const countFromOffsets = h.lastOffsetDelta + 1;
  if (countFromOffsets <= 0) return `Batch has an invalid offset range: [${h.baseOffset}, ${lastOffset(h)}]`;
  if (h.recordsCount <= 0) return `Invalid reported count for record batch: ${h.recordsCount}`;
  if (countFromOffsets !== h.recordsCount) {
    return `Inconsistent batch offset range [${h.baseOffset}, ${lastOffset(h)}] and count of records ${h.recordsCount}`;
  }
  if (isControlBatch(h.attributes)) return 'Clients are not allowed to write control records';
  if (h.producerId >= 0 && h.baseSequence < 0) {
    return `Invalid sequence number ${h.baseSequence} in record batch with producerId ${h.producerId}`;
  }
  return null;
}

// ---------------------------------------------------------------------------
// Records inside a batch: zigzag varints, for inspection and for building.

class VarReader {
  pos = 0;
  constructor(private readonly buf: Buffer) {}

  get atEnd(): boolean {
    return this.pos >= this.buf.length;
  }

  private byte(): number {
    if (this.pos >= this.buf.length) throw new CorruptRecordError('record ends early');
    return this.buf[this.pos++]!;
  }

  varint(): number {
    let u = 0;
    for (let shift = 0; shift < 35; shift += 7) {
      const b = this.byte();
      u |= (b & 0x7f) << shift;
      if (b < 0x80) return (u >>> 1) ^ -(u & 1);
    }
    throw new CorruptRecordError('varint longer than 5 bytes');
  }

  // Accumulates in a double: exact up to 2^53, enough for timestamp deltas.
  varlong(): number {
    let u = 0;
    for (let shift = 0; shift < 70; shift += 7) {
      const b = this.byte();
      u += (b & 0x7f) * 2 ** shift;
      if (b < 0x80) return u % 2 === 0 ? u / 2 : -(u + 1) / 2;
    }
    throw new CorruptRecordError('varlong longer than 10 bytes');
  }

  skip(n: number): void {
    if (this.pos + n > this.buf.length) throw new CorruptRecordError('record ends early');
    this.pos += n;
  }

  /** Zero-copy view; -1 is null. */
  bytes(): Buffer | null {
    const n = this.varint();
    if (n < 0) {
      if (n !== -1) throw new CorruptRecordError(`negative length ${n}`);
      return null;
    }
    const start = this.pos;
    this.skip(n);
    return this.buf.subarray(start, this.pos);
  }
}

function payloadOf(batch: Buffer, h: RecordBatchHeader): Buffer {
  if (h.magic !== MAGIC_VALUE_V2) throw new CorruptRecordError(`unsupported magic ${h.magic}`);
  const end = LOG_OVERHEAD + h.batchLength;
  if (end > batch.length || end < RECORD_BATCH_OVERHEAD) throw new CorruptRecordError('batchLength does not fit the buffer');
  return decompress(compressionOf(h.attributes), batch.subarray(RECORD_BATCH_OVERHEAD, end));
}

function readRecord(r: VarReader, h: RecordBatchHeader): KafkaRecord {
  const length = r.varint();
  if (length < 0) throw new CorruptRecordError(`negative record length ${length}`);
  const end = r.pos + length;
  r.skip(1); // attributes: unused
  const timestampDelta = r.varlong();
  const offsetDelta = r.varint();
  const key = r.bytes();
  const value = r.bytes();
  const headerCount = r.varint();
  if (headerCount < 0) throw new CorruptRecordError(`negative header count ${headerCount}`);
  const headers: KafkaRecord['headers'] = [];
  for (let i = 0; i < headerCount; i++) {
    const k = r.bytes();
    if (k === null) throw new CorruptRecordError('null header key');
    headers.push({ key: k.toString('utf8'), value: r.bytes() });
  }
  if (r.pos !== end) throw new CorruptRecordError(`record length ${length} does not match its fields`);
  // LogAppendTime: every record carries the broker's time, kept in maxTimestamp.
  const timestamp = isLogAppendTime(h.attributes) ? h.maxTimestamp : h.baseTimestamp + timestampDelta;
  return { offset: h.baseOffset + offsetDelta, timestamp, key, value, headers };
}

/**
 * Decompresses and decodes every record; for inspection only. Keys, values
 * and header values are views into the batch (or into the decompressed
 * payload): copy them to keep them past the batch. Throws
 * CorruptRecordError or DecompressionError on malformed input.
 */
export function decodeRecords(batch: Buffer): KafkaRecord[] {
  const h = readBatchHeader(batch);
  const r = new VarReader(payloadOf(batch, h));
  const records: KafkaRecord[] = [];
  for (let i = 0; i < h.recordsCount; i++) records.push(readRecord(r, h));
  if (!r.atEnd) throw new CorruptRecordError(`bytes left after ${h.recordsCount} records`);
  return records;
}

// ---------------------------------------------------------------------------
// Building batches: transaction markers (the broker writes them) and plain
// batches (tests, and the chaos layer's corrupt action).

class VarWriter {
  private buf = Buffer.allocUnsafe(256);
  pos = 0;

  private ensure(n: number): void {
    if (this.pos + n <= this.buf.length) return;
    const next = Buffer.allocUnsafe(Math.max(this.buf.length * 2, this.pos + n));
    this.buf.copy(next, 0, 0, this.pos);
    this.buf = next;
  }

  byte(b: number): void {
    this.ensure(1);
    this.buf[this.pos++] = b;
  }

  varint(v: number): void {
    let u = ((v << 1) ^ (v >> 31)) >>> 0;
    while (u >= 0x80) {
      this.byte((u & 0x7f) | 0x80);
      u >>>= 7;
    }
    this.byte(u);
  }

  varlong(v: number): void {
    let u = v >= 0 ? v * 2 : -v * 2 - 1;
    while (u >= 0x80) {
      this.byte((u % 0x80) | 0x80);
      u = Math.floor(u / 0x80);
    }
    this.byte(u);
  }

  raw(b: Buffer): void {
    this.ensure(b.length);
    b.copy(this.buf, this.pos);
    this.pos += b.length;
  }

  bytes(b: Buffer | null): void {
    if (b === null) return this.varint(-1);
    this.varint(b.length);
    this.raw(b);
  }

  result(): Buffer {
    return this.buf.subarray(0, this.pos);
  }
}

/** The header fields a builder chooses; length, magic and CRC follow from the bytes. */
type HeaderFields = Omit<RecordBatchHeader, 'batchLength' | 'magic' | 'crc'>;

/** Header + payload, with batchLength and CRC filled in. */
function assembleBatch(f: HeaderFields, payload: Buffer): Buffer {
  const batch = Buffer.alloc(RECORD_BATCH_OVERHEAD + payload.length);
  writeInt64(batch, BASE_OFFSET_OFFSET, f.baseOffset);
  batch.writeInt32BE(batch.length - LOG_OVERHEAD, LENGTH_OFFSET);
  batch.writeInt32BE(f.partitionLeaderEpoch, PARTITION_LEADER_EPOCH_OFFSET);
  batch.writeInt8(MAGIC_VALUE_V2, MAGIC_OFFSET);
  batch.writeInt16BE(f.attributes, ATTRIBUTES_OFFSET);
  batch.writeInt32BE(f.lastOffsetDelta, LAST_OFFSET_DELTA_OFFSET);
  writeInt64(batch, BASE_TIMESTAMP_OFFSET, f.baseTimestamp);
  writeInt64(batch, MAX_TIMESTAMP_OFFSET, f.maxTimestamp);
  writeInt64(batch, PRODUCER_ID_OFFSET, f.producerId);
  batch.writeInt16BE(f.producerEpoch, PRODUCER_EPOCH_OFFSET);
  batch.writeInt32BE(f.baseSequence, BASE_SEQUENCE_OFFSET);
  batch.writeInt32BE(f.recordsCount, RECORDS_COUNT_OFFSET);
  payload.copy(batch, RECORD_BATCH_OVERHEAD);
  updateCrc(batch);
  return batch;
}

export type ControlType = 'ABORT' | 'COMMIT';

export interface ControlBatchOptions {
  producerId: number;
  producerEpoch: number;
  type: ControlType;
  coordinatorEpoch: number;
  timestamp: number;
  baseOffset?: number;
  partitionLeaderEpoch?: number;
}

/** A transaction end marker exactly as Kafka writes it (EndTransactionMarker): 78 bytes. */
export function buildControlBatch(o: ControlBatchOptions): Buffer {
  const w = new VarWriter();
  w.varint(16); // record body size, fixed for this layout
  w.byte(0); // attributes
  w.varlong(0); // timestampDelta
  w.varint(0); // offsetDelta
  const key = Buffer.alloc(4); // version 0, then type
  key.writeInt16BE(o.type === 'COMMIT' ? 1 : 0, 2);
  w.bytes(key);
  const value = Buffer.alloc(6); // version 0, then coordinatorEpoch
  value.writeInt32BE(o.coordinatorEpoch, 2);
  w.bytes(value);
  w.varint(0); // headers
  return assembleBatch(
    {
      baseOffset: o.baseOffset ?? 0,
      partitionLeaderEpoch: o.partitionLeaderEpoch ?? NO_PARTITION_LEADER_EPOCH,
      attributes: CONTROL_FLAG_MASK | TRANSACTIONAL_FLAG_MASK,
      lastOffsetDelta: 0,
      baseTimestamp: o.timestamp,
      maxTimestamp: o.timestamp,
      producerId: o.producerId,
      producerEpoch: o.producerEpoch,
      baseSequence: NO_SEQUENCE,
      recordsCount: 1,
    },
    w.result(),
  );
}

/**
 * The marker type of a control batch: 'ABORT', 'COMMIT', another type id
 * as a number (KRaft-internal ones, which readers ignore), or null when the
 * batch is not a control batch or its key cannot be read.
 */
export function readControlType(batch: Buffer): ControlType | number | null {
  if (batch.length < RECORD_BATCH_OVERHEAD) return null;
  const h = readBatchHeader(batch);
  if (!isControlBatch(h.attributes) || h.recordsCount < 1) return null;
  try {
    const { key } = readRecord(new VarReader(payloadOf(batch, h)), h);
    // ControlRecordType.parseTypeId: int16 version (>= 0), then int16 type.
    if (key === null || key.length < 4 || key.readInt16BE(0) < 0) return null;
    const type = key.readInt16BE(2);
    return type === 0 ? 'ABORT' : type === 1 ? 'COMMIT' : type;
  } catch {
    return null;
  }
}

export interface RecordInput {
  key?: Buffer | string | null;
  value?: Buffer | string | null;
  headers?: { key: string; value: Buffer | string | null }[];
  timestamp?: number;
}

export interface BuildBatchOptions {
  producerId?: number;
  producerEpoch?: number;
  baseSequence?: number;
  transactional?: boolean;
  compression?: Compression.None | Compression.Gzip;
  baseOffset?: number;
  partitionLeaderEpoch?: number;
  /** Timestamp of records that have none (default: now). */
  timestamp?: number;
}

function toBuffer(v: Buffer | string | null | undefined): Buffer | null {
  if (v === undefined || v === null) return null;
  return typeof v === 'string' ? Buffer.from(v, 'utf8') : v;
}

/**
 * A magic-2 batch as a Java producer would write it (CreateTime, baseTimestamp
 * = the first record's timestamp). Without producerId the batch is neither
 * idempotent nor transactional (ids and sequence -1).
 */
export function buildRecordBatch(records: RecordInput[], opts: BuildBatchOptions = {}): Buffer {
  if (records.length === 0) throw new RangeError('a record batch holds at least one record');
  const now = opts.timestamp ?? Date.now();
  const timestamps = records.map((r) => r.timestamp ?? now);
  const baseTimestamp = timestamps[0]!;
  const w = new VarWriter();
  records.forEach((rec, i) => {
    const body = new VarWriter();
    body.byte(0);
    body.varlong(timestamps[i]! - baseTimestamp);
    body.varint(i);
    body.bytes(toBuffer(rec.key));
    body.bytes(toBuffer(rec.value));
    const headers = rec.headers ?? [];
    body.varint(headers.length);
    for (const hd of headers) {
      body.bytes(Buffer.from(hd.key, 'utf8'));
      body.bytes(toBuffer(hd.value));
    }
    const bytes = body.result();
    w.varint(bytes.length);
    w.raw(bytes);
  });
  const compression = opts.compression ?? Compression.None;
  const raw = w.result();
  const payload = compression === Compression.Gzip ? gzipModule().gzipSync(raw) : raw;
  const producerId = opts.producerId ?? NO_PRODUCER_ID;
  return assembleBatch(
    {
      baseOffset: opts.baseOffset ?? 0,
      partitionLeaderEpoch: opts.partitionLeaderEpoch ?? NO_PARTITION_LEADER_EPOCH,
      attributes: compression | (opts.transactional ? TRANSACTIONAL_FLAG_MASK : 0),
      lastOffsetDelta: records.length - 1,
      baseTimestamp,
      maxTimestamp: timestamps.reduce((a, b) => Math.max(a, b)),
      producerId,
      producerEpoch: opts.producerEpoch ?? (producerId === NO_PRODUCER_ID ? NO_PRODUCER_EPOCH : 0),
      baseSequence: opts.baseSequence ?? (producerId === NO_PRODUCER_ID ? NO_SEQUENCE : 0),
      recordsCount: records.length,
    },
    payload,
  );
}
