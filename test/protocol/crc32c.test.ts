import { createRequire } from 'node:module';
import { crc32c } from '../../src/protocol/crc32c.js';

// kafkajs carries its own CRC-32C (a byte-at-a-time table): an independent
// implementation to compare against.
const require = createRequire(import.meta.url);
const kafkajsCrc32C = require('kafkajs/src/protocol/recordBatch/crc32C') as (buf: Buffer) => number;

// Deterministic bytes without a seed library: xorshift32.
function pseudoRandomBytes(n: number, seed: number): Buffer {
  const out = Buffer.alloc(n);
  let x = seed;
  for (let i = 0; i < n; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    out[i] = x & 0xff;
  }
  return out;
}

describe('crc32c', () => {
  test('check value of "123456789" is 0xE3069283', () => {
    expect(crc32c(Buffer.from('123456789'))).toBe(0xe3069283);
  });

  // RFC 3720 (iSCSI), appendix B.4.
  test.each([
    ['32 zero bytes', Buffer.alloc(32, 0), 0x8a9136aa],
    ['32 bytes of 0xff', Buffer.alloc(32, 0xff), 0x62a8ab43],
    ['ascending 0..31', Buffer.from(Array.from({ length: 32 }, (_, i) => i)), 0x46dd794e],
    ['descending 31..0', Buffer.from(Array.from({ length: 32 }, (_, i) => 31 - i)), 0x113fdb5c],
  ])('RFC 3720 vector: %s', (_name, buf, expected) => {
    expect(crc32c(buf)).toBe(expected);
  });

  test('empty input gives 0', () => {
    expect(crc32c(Buffer.alloc(0))).toBe(0);
  });

  test('result is unsigned', () => {
    // 0xE3069283 has the top bit set: a signed result would be negative.
    expect(crc32c(Buffer.from('123456789'))).toBeGreaterThan(0x7fffffff);
  });

  test('matches kafkajs on every length 0..300 (covers the 8-byte loop and its tail)', () => {
    const data = pseudoRandomBytes(300, 0x1234567);
    for (let n = 0; n <= 300; n++) {
      expect([n, crc32c(data.subarray(0, n))]).toEqual([n, kafkajsCrc32C(data.subarray(0, n))]);
    }
  });

  test('start and end select a range, at any alignment', () => {
    const data = pseudoRandomBytes(1000, 99);
    for (const [start, end] of [
      [0, 1000],
      [1, 1000],
      [3, 997],
      [21, 500],
      [7, 8],
      [500, 500],
    ] as const) {
      expect(crc32c(data, start, end)).toBe(kafkajsCrc32C(data.subarray(start, end)));
    }
    expect(crc32c(data, 21)).toBe(kafkajsCrc32C(data.subarray(21)));
  });

  test('a subarray view is read from its own offset, not from the parent buffer', () => {
    const data = pseudoRandomBytes(64, 7);
    expect(crc32c(data.subarray(5, 40))).toBe(crc32c(Buffer.from(data.subarray(5, 40))));
  });

  test('a 1 MiB buffer matches kafkajs', () => {
    const data = pseudoRandomBytes(1 << 20, 42);
    expect(crc32c(data)).toBe(kafkajsCrc32C(data));
  });
});

describe('native and pure-JS implementations', () => {
  test('agree on random buffers at every offset range', async () => {
    const { crc32cJs, crc32cImplementation } = await import('../../src/protocol/crc32c.js');
    expect(['native', 'js']).toContain(crc32cImplementation());
    let seed = 7;
    for (let n = 0; n < 200; n++) {
      const buf = Buffer.alloc(1 + (n * 37) % 5000);
      for (let i = 0; i < buf.length; i++) buf[i] = seed = (seed * 1103515245 + 12345) & 0xff;
      const start = n % 17 < buf.length ? n % 17 : 0;
      expect(crc32c(buf, start)).toBe(crc32cJs(buf, start));
    }
  });
});
