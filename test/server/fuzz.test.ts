// Fuzzing the request path: random and mutated frames built from real client
// traffic (../shared/kafka-protocol/captures) are thrown at a listener for a
// bounded time. The process must stay up and a well-formed client must keep
// working. FUZZ_SECONDS sets the duration (default 3), FUZZ_SEED the seed.
import { readFileSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { startCluster, type RunningCluster } from '../../src/index.js';
import { WireClient } from '../support/wire-client.js';
import { fetchPartition, kafkajs, messages } from '../support/kafkajs.js';

const seconds = Number(process.env.FUZZ_SECONDS ?? 3);
const seed = Number(process.env.FUZZ_SEED ?? Date.now() % 2 ** 31);

/** mulberry32: small, seedable, good enough to pick mutations. */
function rng(s: number) {
  return () => {
    s |= 0;
    s = (s + 0x6d2b79f5) | 0;
    let t = Math.imul(s ^ (s >>> 15), 1 | s);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const capturesDir = resolve(process.cwd(), '../shared/kafka-protocol/captures');
const seeds: Buffer[] = readdirSync(capturesDir)
  .filter((f) => f.endsWith('.jsonl'))
  .flatMap((f) => readFileSync(join(capturesDir, f), 'utf8').split('\n').filter(Boolean))
  .map((l) => JSON.parse(l) as { dir: string; hex: string })
  .filter((l) => l.dir === 'request')
  .map((l) => Buffer.from(l.hex, 'hex'));

function mutate(random: () => number): Buffer {
  const pick = <T>(a: T[]) => a[Math.floor(random() * a.length)]!;
  const frame = Buffer.from(pick(seeds));
  const body = () => 4 + Math.floor(random() * (frame.length - 4));
  switch (Math.floor(random() * 8)) {
    case 0: // flip a few bytes anywhere in the body (lengths, counts, CRCs, records)
      for (let i = 0, n = 1 + Math.floor(random() * 4); i < n; i++) frame[body()] = Math.floor(random() * 256);
      return frame;
    case 1: // truncate the body, keeping a consistent size prefix
    {
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
    case 5: // a length field blown up to a huge value
    {
      const at = body();
      if (at + 4 <= frame.length) frame.writeInt32BE(0x7fffff00, at);
      return frame;
    }
    case 6: // pure noise with a valid size prefix
    {
      const noise = Buffer.alloc(4 + Math.floor(random() * 300));
      for (let i = 4; i < noise.length; i++) noise[i] = Math.floor(random() * 256);
      noise.writeInt32BE(noise.length - 4, 0);
      return noise;
    }
    default: // a real frame, unmodified, between the broken ones
      return frame;
  }
}

let kafka: RunningCluster;
beforeAll(async () => {
  kafka = await startCluster({ brokers: 1, maxRequestSize: 1 << 20, topics: [{ name: 'golden', partitions: 2 }] });
});
afterAll(() => kafka.stop());

test(`random and mutated frames never take the broker down (${seconds}s, seed ${seed})`, async () => {
  const random = rng(seed);
  const deadline = Date.now() + seconds * 1000;
  let frames = 0;
  let closes = 0;
  const lanes = Array.from({ length: 4 }, async () => {
    let c = await WireClient.connect(kafka.bootstrap);
    while (Date.now() < deadline) {
      if (c.closed) {
        closes++;
        c = await WireClient.connect(kafka.bootstrap);
      }
      c.writeRaw(mutate(random));
      frames++;
      // Yield so the broker can answer or close between frames.
      if (frames % 8 === 0) await new Promise((r) => setImmediate(r));
    }
    c.close();
  });
  await Promise.all(lanes);
  process.stdout.write(`fuzz: ${frames} frames, ${closes} connections closed by the broker, seed ${seed}\n`);
  expect(frames).toBeGreaterThan(100);
  expect(closes).toBeGreaterThan(0);

  // The broker is still here and serves a well-formed client.
  const client = kafkajs(kafka.bootstrap);
  const producer = client.producer();
  await producer.connect();
  await producer.send({ topic: 'fuzz-after', acks: -1, messages: messages(10) });
  await producer.disconnect();
  expect((await fetchPartition(client, 'fuzz-after', 0)).map((m) => m.value)).toEqual(messages(10).map((m) => m.value));
}, seconds * 1000 + 30_000);
