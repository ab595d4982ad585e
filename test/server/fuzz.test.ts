// Fuzzing the request path: random and mutated frames built from real client
// traffic (test/fixtures/captures, bench/lib/fuzz-frames.mjs) are thrown at a listener for a
// bounded time. The process must stay up and a well-formed client must keep
// working. FUZZ_SECONDS sets the duration (default 3), FUZZ_SEED the seed.
import { startCluster, type RunningCluster } from '../../src/index.js';
import { WireClient } from '../support/wire-client.js';
import { fetchPartition, kafkajs, messages } from '../support/kafkajs.js';
import { mutate, requestFrames, rng } from '../../bench/lib/fuzz-frames.mjs';
import { adminFrames } from '../support/admin-frames.js';

const seconds = Number(process.env.FUZZ_SECONDS ?? 3);
const seed = Number(process.env.FUZZ_SEED ?? Date.now() % 2 ** 31);

// The vendored request frames (FUZZ_CAPTURES=test/fixtures/captures for every request of the full captures),
// and the admin APIs no capture holds, at every version.
const seeds = [...requestFrames(process.env.FUZZ_CAPTURES), ...adminFrames()];

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
      c.writeRaw(mutate(seeds, random));
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
