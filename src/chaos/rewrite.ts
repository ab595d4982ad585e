// Frame rewrites: what a rule does to the bytes of a request or of an answer
// it lets through, as data (a FrameRewrite in a forward outcome), applied by
// the proxy core with the pure functions here. No sockets: every rewrite is
// unit-testable on bytes. A rewrite of an answer needs the whole answer, so
// it turns off cut-through forwarding for it (proxy-connection.ts).
//
//   corrupt-crc    every record batch's CRC is flipped (Produce request:
//                  the broker answers CORRUPT_MESSAGE; Fetch answer: a
//                  client that checks CRCs refuses the batch)
//   fetch-offsets  Fetch request: the named partitions' fetch offsets are
//                  set (moved back by duplicate-fetch), the request re-encoded
//   corrupt-value  Fetch answer: each data batch is re-encoded with the same
//                  offsets, timestamps, keys and headers, garbage values and
//                  a valid CRC (deserialisation paths)
import { ApiKey, apiSchemas } from '../protocol/messages/index.js';
import { encodeRequest, readHeader, responseHeaderVersion } from '../protocol/headers.js';
import { Reader, readTaggedFields } from '../protocol/primitives.js';
import {
  buildRecordBatch,
  decodeRecords,
  isControlBatch,
  isTransactional,
  readBatchHeader,
  splitBatches,
} from '../protocol/record-batch.js';
import { responseFrame } from './response-frame.js';
import { SeededRandom } from './random.js';

export type FrameRewrite =
  | { type: 'corrupt-crc' }
  | { type: 'corrupt-value'; seed: number }
  /** Positions in the request's topics and their partitions, and the offset to fetch from instead. */
  | { type: 'fetch-offsets'; offsets: { topicIndex: number; partitionIndex: number; fetchOffset: number }[] };

/** Where the CRC sits in a magic-2 batch. */
const CRC_OFFSET = 17;

type AnyBody = Record<string, any>;

function flipCrcs(records: Buffer | null): number {
  if (!records || records.length === 0) return 0;
  const { batches } = splitBatches(records);
  for (const b of batches) b.writeUInt32BE(~b.readUInt32BE(CRC_OFFSET) >>> 0, CRC_OFFSET);
  return batches.length;
}

/** The records blob of every partition of a decoded Produce request or Fetch answer. */
function recordsOf(apiKey: number, body: AnyBody): { holder: AnyBody; records: Buffer | null }[] {
  if (apiKey === ApiKey.Produce) return body.topicData.flatMap((t: AnyBody) => t.partitionData.map((p: AnyBody) => ({ holder: p, records: p.records })));
  if (apiKey === ApiKey.Fetch) return body.responses.flatMap((t: AnyBody) => t.partitions.map((p: AnyBody) => ({ holder: p, records: p.records })));
  return [];
}

/**
 * A request frame (without its size prefix) as the broker should see it.
 * Returns the frame itself when nothing applies or it cannot be decoded.
 */
export function rewriteRequest(frame: Buffer, apiKey: number, version: number, rewrites: readonly FrameRewrite[]): Buffer {
  const offsets = rewrites.flatMap((w) => (w.type === 'fetch-offsets' ? w.offsets : []));
  if (apiKey === ApiKey.Fetch && offsets.length) return refetch(frame, version, offsets);
  const api = apiSchemas.get(apiKey);
  if (!api || apiKey !== ApiKey.Produce || !rewrites.some((w) => w.type === 'corrupt-crc')) return frame;
  // The byte views the reader hands out point into this copy: flipping them in place rewrites it.
  const copy = Buffer.from(frame);
  try {
    const r = new Reader(copy);
    readHeader(r, api, version);
    const body = api.readRequest(r, version) as AnyBody;
    for (const { records } of recordsOf(apiKey, body)) flipCrcs(records);
    return copy;
  } catch {
    return frame;
  }
}

function refetch(frame: Buffer, version: number, offsets: Extract<FrameRewrite, { type: 'fetch-offsets' }>['offsets']): Buffer {
  const api = apiSchemas.get(ApiKey.Fetch)!;
  try {
    const r = new Reader(frame);
    const header = readHeader(r, api, version);
    const body = api.readRequest(r, version) as AnyBody;
    for (const o of offsets) {
      const p = body.topics[o.topicIndex]?.partitions[o.partitionIndex];
      if (p) p.fetchOffset = o.fetchOffset;
    }
    return encodeRequest(ApiKey.Fetch, version, header.correlationId, header.clientId, body);
  } catch {
    return frame;
  }
}

/** Garbage of the same length as the value (at least one byte), from the seeded stream. */
function garbage(random: SeededRandom, length: number): Buffer {
  const out = Buffer.allocUnsafe(Math.max(1, length));
  for (let i = 0; i < out.length; i++) out[i] = random.int(255);
  return out;
}

function garbleBatches(records: Buffer | null, random: SeededRandom): Buffer | null {
  if (!records || records.length === 0) return records;
  const { batches, ignoredBytes } = splitBatches(records);
  const out = batches.map((batch) => {
    const h = readBatchHeader(batch);
    if (isControlBatch(h.attributes)) return batch;
    let decoded;
    try {
      decoded = decodeRecords(batch);
    } catch {
      return batch;
    }
    // Offsets are kept: records carry offset deltas 0..n-1, so a batch with gaps (compaction) is left alone.
    if (decoded.length !== h.lastOffsetDelta + 1) return batch;
    return buildRecordBatch(
      decoded.map((rec) => ({ key: rec.key, value: garbage(random, rec.value?.length ?? 0), headers: rec.headers, timestamp: rec.timestamp })),
      {
        baseOffset: h.baseOffset,
        partitionLeaderEpoch: h.partitionLeaderEpoch,
        producerId: h.producerId,
        producerEpoch: h.producerEpoch,
        baseSequence: h.baseSequence,
        transactional: isTransactional(h.attributes),
      },
    );
  });
  if (ignoredBytes) out.push(records.subarray(records.length - ignoredBytes));
  return Buffer.concat(out);
}

/**
 * A response frame (without its size prefix) as the client should see it;
 * returned with its size prefix, ready for the socket. The frame itself
 * (prefixed) when nothing applies or it cannot be decoded.
 */
export function rewriteResponse(frame: Buffer, apiKey: number, version: number, rewrites: readonly FrameRewrite[]): Buffer {
  const prefixed = () => {
    const out = Buffer.allocUnsafe(frame.length + 4);
    out.writeInt32BE(frame.length, 0);
    frame.copy(out, 4);
    return out;
  };
  const api = apiSchemas.get(apiKey);
  if (!api || apiKey !== ApiKey.Fetch || rewrites.length === 0) return prefixed();
  const copy = prefixed();
  try {
    const r = new Reader(copy.subarray(4));
    const correlationId = r.int32();
    if (responseHeaderVersion(api, version) >= 1) readTaggedFields(r, () => false);
    const body = api.readResponse(r, version) as AnyBody;
    const parts = recordsOf(apiKey, body);
    if (rewrites.some((w) => w.type === 'corrupt-crc')) for (const { records } of parts) flipCrcs(records);
    const value = rewrites.find((w): w is Extract<FrameRewrite, { type: 'corrupt-value' }> => w.type === 'corrupt-value');
    if (!value) return copy;
    const random = new SeededRandom(value.seed);
    for (const p of parts) p.holder.records = garbleBatches(p.records, random);
    return responseFrame(apiKey, version, correlationId, body);
  } catch {
    return prefixed();
  }
}
