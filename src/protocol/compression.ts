// Decompression of record batch payloads, for inspection only: the produce
// and fetch paths never decompress (batches are stored as sent). No native
// code, so nothing to build in CI: node's zlib (gzip), snappyjs, fzstd, and
// an LZ4 frame decoder of our own. Every length in a payload comes from a
// client, so each decoder is bounded and fails with a DecompressionError.

import { createRequire } from 'node:module';

// Each codec is loaded when a payload first needs it (synchronously, by
// require): most runs decompress nothing, and loading zlib, snappyjs and
// fzstd cost every start ~10 ms. snappyjs ships no type declarations: the
// narrow shape we use is declared here, instead of an ambient module stub.
const require = createRequire(import.meta.url);
type Snappy = { uncompress(data: Uint8Array, maxLength?: number): Uint8Array };
let zlib: typeof import('node:zlib') | undefined;
let snappy: Snappy | undefined;
let fzstd: typeof import('fzstd') | undefined;
const gunzip = () => (zlib ??= require('node:zlib') as typeof import('node:zlib'));
const snappyjs = () => (snappy ??= require('snappyjs') as Snappy);
const zstd = () => (fzstd ??= require('fzstd') as typeof import('fzstd'));

/** Codec ids as stored in bits 0-2 of the batch attributes. */
export enum Compression {
  None = 0,
  Gzip = 1,
  Snappy = 2,
  Lz4 = 3,
  Zstd = 4,
}

/**
 * Ceiling on a decompressed payload. Lengths inside compressed streams come
 * from the client; a garbage one must fail, not allocate gigabytes.
 */
export const MAX_DECOMPRESSED_BYTES = 256 * 1024 * 1024;

export class DecompressionError extends Error {
  override name = 'DecompressionError';
}

// xerial snappy-java's stream header: magic, then version and min compatible
// version (int32 each). The Java client and librdkafka write this framing;
// kafkajs-snappy sends raw snappy (and reads both).
const XERIAL_MAGIC = Buffer.from([0x82, 0x53, 0x4e, 0x41, 0x50, 0x50, 0x59, 0x00]);
const XERIAL_HEADER_SIZE = 16;

function asBuffer(data: Uint8Array): Buffer {
  return Buffer.isBuffer(data) ? data : Buffer.from(data.buffer, data.byteOffset, data.byteLength);
}

function snappyRaw(data: Uint8Array): Buffer {
  return asBuffer(snappyjs().uncompress(data, MAX_DECOMPRESSED_BYTES));
}

function snappyDecompress(data: Buffer): Buffer {
  if (data.length < XERIAL_HEADER_SIZE || !data.subarray(0, XERIAL_MAGIC.length).equals(XERIAL_MAGIC)) {
    return snappyRaw(data);
  }
  // Xerial framing: after the header, blocks of [int32 length][raw snappy].
  const parts: Buffer[] = [];
  let total = 0;
  for (let at = XERIAL_HEADER_SIZE; at < data.length; ) {
    if (at + 4 > data.length) throw new DecompressionError('snappy: truncated xerial block length');
    const size = data.readInt32BE(at);
    at += 4;
    if (size < 0 || at + size > data.length) throw new DecompressionError('snappy: xerial block overruns the payload');
    const part = snappyRaw(data.subarray(at, at + size));
    total += part.length;
    if (total > MAX_DECOMPRESSED_BYTES) throw new DecompressionError('snappy: payload too large');
    parts.push(part);
    at += size;
  }
  return parts.length === 1 ? parts[0]! : Buffer.concat(parts, total);
}

// LZ4 frame format (what Kafka uses for magic 2), decoded here rather than
// with lz4js: lz4js does no bounds checks, and one flipped byte can send it
// copying for tens of seconds. This decoder checks every length and offset.
const LZ4_MAGIC = 0x184d2204;
const LZ4_BLOCK_MAX = [0, 0, 0, 0, 64 << 10, 256 << 10, 1 << 20, 4 << 20];

function lz4Decompress(src: Buffer): Buffer {
  const fail = (why: string): never => {
    throw new DecompressionError(`lz4: ${why}`);
  };
  if (src.length < 7 || src.readUInt32LE(0) !== LZ4_MAGIC) fail('not an LZ4 frame');
  const flg = src[4]!;
  if (flg >> 6 !== 1) fail(`unsupported frame version ${flg >> 6}`);
  const blockChecksum = (flg & 0x10) !== 0;
  const blockMax = LZ4_BLOCK_MAX[(src[5]! >> 4) & 7]!;
  if (blockMax === 0) fail('invalid block size');
  // Skip content size (8) and dictionary id (4) when present, then the header checksum.
  let i = 6 + (flg & 0x08 ? 8 : 0) + (flg & 0x01 ? 4 : 0) + 1;
  let out = Buffer.allocUnsafe(Math.min(blockMax, MAX_DECOMPRESSED_BYTES));
  let o = 0;
  const reserve = (n: number): void => {
    if (o + n <= out.length) return;
    if (o + n > MAX_DECOMPRESSED_BYTES) fail('payload too large');
    const next = Buffer.allocUnsafe(Math.min(Math.max(out.length * 2, o + n), MAX_DECOMPRESSED_BYTES));
    out.copy(next, 0, 0, o);
    out = next;
  };
  for (;;) {
    if (i + 4 > src.length) fail('truncated block header');
    const word = src.readUInt32LE(i);
    i += 4;
    if (word === 0) break; // end mark
    const size = word & 0x7fffffff;
    const end = i + size;
    if (size > blockMax || end > src.length) fail('block overruns the frame');
    const blockStart = o;
    if (word & 0x80000000) {
      reserve(size);
      src.copy(out, o, i, end);
      o += size;
    } else {
      // Sequences: token (literal length | match length), literals, 2-byte
      // offset, extra match length; the last sequence has literals only.
      while (i < end) {
        const token = src[i++]!;
        let lit = token >> 4;
        if (lit === 15) {
          for (let b = 255; b === 255; lit += b) {
            if (i >= end) fail('truncated literal length');
            b = src[i++]!;
          }
        }
        if (i + lit > end) fail('literals overrun the block');
        if (o - blockStart + lit > blockMax) fail('block decodes past its maximum size');
        reserve(lit);
        src.copy(out, o, i, i + lit);
        i += lit;
        o += lit;
        if (i === end) break;
        if (i + 2 > end) fail('truncated match offset');
        const offset = src[i]! | (src[i + 1]! << 8);
        i += 2;
        if (offset === 0 || offset > o) fail('match offset out of range');
        let len = (token & 15) + 4;
        if ((token & 15) === 15) {
          for (let b = 255; b === 255; len += b) {
            if (i >= end) fail('truncated match length');
            b = src[i++]!;
          }
        }
        if (o - blockStart + len > blockMax) fail('block decodes past its maximum size');
        reserve(len);
        // Byte by byte: a match may overlap the bytes it is producing.
        for (let m = o - offset, stop = o + len; o < stop; ) out[o++] = out[m++]!;
      }
    }
    i = end + (blockChecksum ? 4 : 0);
  }
  return out.subarray(0, o);
}

// fzstd allocates the frame's declared content size (or its window size) up
// front, up to 2 GB: read the first frame header and refuse a larger claim.
function zstdDecompress(data: Buffer): Buffer {
  if (data.length >= 6 && data.readUInt32LE(0) === 0xfd2fb528) {
    const fhd = data[4]!;
    const singleSegment = (fhd >> 5) & 1;
    const fcsFlag = fhd >> 6;
    const dictBytes = [0, 1, 2, 4][fhd & 3]!;
    const fcsBytes = fcsFlag ? 1 << fcsFlag : singleSegment;
    const at = 6 - singleSegment + dictBytes;
    let declared = 0;
    for (let k = fcsBytes - 1; k >= 0; k--) declared = declared * 256 + (data[at + k] ?? 0);
    if (fcsFlag === 1) declared += 256;
    if (!singleSegment) {
      const wd = data[5]!;
      const base = 2 ** (10 + (wd >> 3));
      declared = Math.max(declared, base + (base / 8) * (wd & 7));
    }
    if (declared > MAX_DECOMPRESSED_BYTES) throw new DecompressionError('zstd: payload too large');
  }
  return asBuffer(zstd().decompress(data));
}

/** Decompresses one batch payload (the bytes after the 61-byte header). */
export function decompress(codec: Compression, data: Buffer): Buffer {
  try {
    switch (codec) {
      case Compression.None:
        return data;
      case Compression.Gzip:
        return gunzip().gunzipSync(data, { maxOutputLength: MAX_DECOMPRESSED_BYTES });
      case Compression.Snappy:
        return snappyDecompress(data);
      case Compression.Lz4:
        return lz4Decompress(data);
      case Compression.Zstd:
        return zstdDecompress(data);
      default:
        throw new DecompressionError(`unknown compression codec ${codec as number}`);
    }
  } catch (e) {
    if (e instanceof DecompressionError) throw e;
    throw new DecompressionError(`${Compression[codec] ?? codec}: ${(e as Error).message}`, { cause: e });
  }
}
