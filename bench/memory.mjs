// Memory per stored MB: produces N MB of 100-byte records in batches of
// 1000 through a real socket (acks=1, raw Produce v7 frames built once and
// resent), then reports, after a full GC, how much resident memory and
// ArrayBuffer memory the broker holds per MB of stored batch bytes.
// Run: node --expose-gc bench/memory.mjs [MB=200]   (after npm run build)
import { startCluster } from '../dist/index.js';
import { buildRecordBatch } from '../dist/protocol/record-batch.js';
import { encodeRequest } from '../dist/protocol/headers.js';
import { connect } from 'node:net';

const targetMb = Number(process.argv[2] ?? 200);
if (typeof global.gc !== 'function') {
  console.error('run with node --expose-gc');
  process.exit(2);
}
const mb = (n) => (n / 1024 / 1024).toFixed(1);
const kafka = await startCluster({ brokers: 1, topics: [{ name: 'mem', partitions: 8, replicationFactor: 1 }] });
const batch = buildRecordBatch(Array.from({ length: 1000 }, (_, i) => ({ value: Buffer.alloc(100, i % 256) })));
const frames = Array.from({ length: 8 }, (_, p) => {
  const body = encodeRequest(0, 7, p, 'mem', { acks: 1, timeoutMs: 5000, topicData: [{ name: 'mem', partitionData: [{ index: p, records: batch }] }] });
  const size = Buffer.alloc(4);
  size.writeInt32BE(body.length);
  return Buffer.concat([size, body]);
});
global.gc();
const before = process.memoryUsage();
const socket = connect(Number(kafka.bootstrap.split(':')[1]), '127.0.0.1');
await new Promise((r) => socket.once('connect', r));
const count = Math.ceil((targetMb * 1024 * 1024) / batch.length);
let answered = 0;
let pending = Buffer.alloc(0);
const done = new Promise((resolve) => {
  socket.on('data', (d) => {
    pending = Buffer.concat([pending, d]);
    while (pending.length >= 4 && pending.length >= 4 + pending.readInt32BE(0)) {
      pending = pending.subarray(4 + pending.readInt32BE(0));
      if (++answered === count) resolve();
    }
  });
});
for (let i = 0; i < count; i++) {
  if (!socket.write(frames[i % 8])) await new Promise((r) => socket.once('drain', r));
}
await done;
socket.destroy();
global.gc();
global.gc();
const after = process.memoryUsage();
const stored = [...kafka.cluster.topic('mem').partitions].reduce((s, p) => s + p.log.sizeInBytes, 0);
console.log(`stored ${mb(stored)} MB in ${count} batches of ${batch.length} bytes`);
console.log(`RSS          ${mb(before.rss)} -> ${mb(after.rss)} MB: ${((after.rss - before.rss) / stored).toFixed(2)} x stored bytes`);
console.log(`arrayBuffers ${mb(before.arrayBuffers)} -> ${mb(after.arrayBuffers)} MB: ${((after.arrayBuffers - before.arrayBuffers) / stored).toFixed(2)} x stored bytes`);
console.log(`heapUsed     ${mb(before.heapUsed)} -> ${mb(after.heapUsed)} MB (per-batch bookkeeping)`);
await kafka.stop();
