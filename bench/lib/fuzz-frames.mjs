// Frames for fuzzing: real clients' requests (test/fixtures/captures, vendored
// so that a fresh clone needs nothing beside it), mutated the ways a broken
// client or a hostile peer breaks them. Shared by bench/fuzz.mjs and
// test/server/fuzz.test.ts. Plain JS so that the bench runs without a build
// step of its own; the types are in fuzz-frames.d.mts.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const vendoredCaptures = fileURLToPath(new URL('../../test/fixtures/captures/requests.jsonl', import.meta.url));

/** mulberry32: small, seedable, good enough to pick mutations. */
export function rng(seed) {
  let s = seed | 0;
  return () => {
    s = (s + 0x6d2b79f5) | 0;
    let t = Math.imul(s ^ (s >>> 15), 1 | s);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * The request frames (size prefix included): the vendored ones, or every
 * request in the *.jsonl files of `dir` (the full captures, e.g.
 * test/fixtures/captures) when given.
 */
export function requestFrames(dir) {
  // requests.jsonl is the digest of the captures beside it: reading both would count its frames twice.
  const files = dir ? readdirSync(dir).filter((f) => f.endsWith('.jsonl') && f !== 'requests.jsonl').map((f) => join(dir, f)) : [vendoredCaptures];
  return files
    .flatMap((f) => readFileSync(f, 'utf8').split('\n').filter(Boolean))
    .map((l) => JSON.parse(l))
    .filter((l) => l.dir === undefined || l.dir === 'request')
    .map((l) => Buffer.from(l.hex, 'hex'));
}

/** One frame from `seeds`, mutated one way (or, one time in eight, left whole between the broken ones). */
export function mutate(seeds, random) {
  const frame = Buffer.from(seeds[Math.floor(random() * seeds.length)]);
  const body = () => 4 + Math.floor(random() * (frame.length - 4));
  switch (Math.floor(random() * 8)) {
    case 0: // flip a few bytes anywhere in the body (lengths, counts, CRCs, records)
      for (let i = 0, n = 1 + Math.floor(random() * 4); i < n; i++) frame[body()] = Math.floor(random() * 256);
      return frame;
    case 1: {
      // truncate the body, keeping a consistent size prefix
      const cut = frame.subarray(0, body());
      cut.writeInt32BE(cut.length - 4, 0);
      return cut;
    }
    case 2: // size prefix that disagrees with the body
      frame.writeInt32BE(Math.floor(random() * (frame.length * 2)), 0);
      return frame;
    case 3: // unknown or random api key
      frame.writeInt16BE(Math.floor(random() * 200) - 50, 4);
      return frame;
    case 4: // random version of a known api
      frame.writeInt16BE(Math.floor(random() * 20), 6);
      return frame;
    case 5: {
      // a length field blown up to a huge value
      const at = body();
      if (at + 4 <= frame.length) frame.writeInt32BE(0x7fffff00, at);
      return frame;
    }
    case 6: {
      // pure noise with a valid size prefix
      const noise = Buffer.alloc(4 + Math.floor(random() * 300));
      for (let i = 4; i < noise.length; i++) noise[i] = Math.floor(random() * 256);
      noise.writeInt32BE(noise.length - 4, 0);
      return noise;
    }
    default:
      return frame;
  }
}
