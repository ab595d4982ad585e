// Decompression of record batch payloads, for inspection only: the produce
// and fetch paths never decompress (batches are stored as sent). Pure-JS
// decoders so that no native build is needed in CI.

import { createRequire } from 'node:module';
import { gunzipSync } from 'node:zlib';
import { decompress as zstdDecompress } from 'fzstd';

// snappyjs and lz4js ship no type declarations: load them through require
// with the narrow shape we use, instead of adding ambient module stubs.
const require = createRequire(import.meta.url);
const snappy = require('snappyjs') as { uncompress(data: Uint8Array, maxLength?: number): Uint8Array };
const lz4 = require('lz4js') as {
  decompress(data: Uint8Array, maxSize?: number): Uint8Array | number[];
  decompressBound(data: Uint8Array): number;
};

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
// kafkajs-snappy and sarama may send raw snappy.
const XERIAL_MAGIC = Buffer.from([0x82, 0x53, 0x4e, 0x41, 0x50, 0x50, 0x59, 0x00]);
const XERIAL_HEADER_SIZE = 16;

function asBuffer(data: Uint8Array | number[]): Buffer {
  if (Buffer.isBuffer(data)) return data;
  if (data instanceof Uint8Array) return Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  return Buffer.from(data);
}

function snappyRaw(data: Uint8Array): Buffer {
  return asBuffer(snappy.uncompress(data, MAX_DECOMPRESSED_BYTES));
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

function lz4Decompress(data: Buffer): Buffer {
  // Kafka (magic 2) uses the standard LZ4 frame format. lz4js sizes its
  // output from the frame (declared content size, or blocks x block size):
  // refuse an absurd size before it allocates.
  const bound = lz4.decompressBound(data);
  if (!(bound <= MAX_DECOMPRESSED_BYTES)) throw new DecompressionError('lz4: payload too large');
  return asBuffer(lz4.decompress(data, bound));
}

/** Decompresses one batch payload (the bytes after the 61-byte header). */
export function decompress(codec: Compression, data: Buffer): Buffer {
  try {
    switch (codec) {
      case Compression.None:
        return data;
      case Compression.Gzip:
        return gunzipSync(data, { maxOutputLength: MAX_DECOMPRESSED_BYTES });
      case Compression.Snappy:
        return snappyDecompress(data);
      case Compression.Lz4:
        return lz4Decompress(data);
      case Compression.Zstd:
        return asBuffer(zstdDecompress(data));
      default:
        throw new DecompressionError(`unknown compression codec ${codec as number}`);
    }
  } catch (e) {
    if (e instanceof DecompressionError) throw e;
    throw new DecompressionError(`${Compression[codec] ?? codec}: ${(e as Error).message}`, { cause: e });
  }
}
