#!/usr/bin/env node
// What the broker answers kafkajs with, seen from the client's sockets: the
// throughput workload of throughput.mjs (8 partitions, batches of 1000 x
// 100 B, acks=all, then a groupless read-back), with a socketFactory that
// cuts each connection's bytes into Kafka frames and records, per API, the
// number of requests, bytes per response, socket reads per response and the
// time from the request's write to the first byte of its response. Also the
// client's CPU and its garbage collection during the fetch, because kafkajs
// is the bottleneck: what the answers cost it is what the throughput shows.
//
//   node bench/wire-shape.mjs                          # mock, ours, proxy; 3 runs each, interleaved
//   node bench/wire-shape.mjs --targets mock,ours --partition-max-bytes 16384
//
// Numbers, not assertions. Each broker lives at most 60 s; the whole run is
// bounded by --timeout (default 280 s).
import net from 'node:net';
import { performance, PerformanceObserver, constants as perfConstants } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import kafkajs from 'kafkajs';

import { killAll, startBroker } from './lib/broker-process.mjs';
import { median, percentile } from './lib/stats.mjs';
import { orderFor, targetSpecs } from './lib/targets.mjs';

const { Kafka, Partitioners, logLevel, PartitionAssigners } = kafkajs;
const API_NAMES = { 0: 'Produce', 1: 'Fetch', 2: 'ListOffsets', 3: 'Metadata', 18: 'ApiVersions' };

const { values: o } = parseArgs({
  options: {
    targets: { type: 'string', default: 'mock,ours,proxy' },
    runs: { type: 'string', default: '3' },
    messages: { type: 'string', default: '200000' },
    'partition-max-bytes': { type: 'string', default: '1048576' },
    timeout: { type: 'string', default: '280' },
    help: { type: 'boolean', default: false },
  },
});
if (o.help) {
  process.stdout.write('usage: node bench/wire-shape.mjs [--targets mock,ours,proxy] [--runs 3] [--messages 200000] [--partition-max-bytes 1048576] [--timeout 280]\n');
  process.exit(0);
}
const RUNS = Number(o.runs);
const MESSAGES = Number(o.messages);
const PARTITION_MAX_BYTES = Number(o['partition-max-bytes']);
const SIZE = 100;
const BATCH = 1000;
const PARTITIONS = 8;
const TOPIC = 'bench';

const hard = setTimeout(() => {
  process.stderr.write(`wire-shape: over --timeout ${o.timeout} s; killing brokers\n`);
  killAll();
  process.exit(3);
}, Number(o.timeout) * 1000);
hard.unref();

// ---------------------------------------------------------------- recording

/** Per API: { n, bytes[], reads[], latencyUs[] } while a phase is recorded. */
let recording = null;
let gcDuring = null;

new PerformanceObserver((list) => {
  if (!gcDuring) return;
  for (const e of list.getEntries()) {
    const kind = e.detail?.kind;
    const name = kind === perfConstants.NODE_PERFORMANCE_GC_MINOR ? 'minor' : kind === perfConstants.NODE_PERFORMANCE_GC_MAJOR ? 'major' : 'other';
    const g = (gcDuring[name] ??= { count: 0, ms: 0 });
    g.count++;
    g.ms += e.duration;
  }
}).observe({ entryTypes: ['gc'] });

function note(api, bytes, reads, latencyUs) {
  if (!recording) return;
  const r = (recording[api] ??= { bytes: [], reads: [], latencyUs: [] });
  r.bytes.push(bytes);
  r.reads.push(reads);
  r.latencyUs.push(latencyUs);
}

/** kafkajs socketFactory: its own default, plus a frame recorder on each socket. */
function recordingSocketFactory({ host, port, onConnect }) {
  const socket = net.connect({ host, port }, onConnect);
  socket.setKeepAlive(true, 60000);
  const sent = new Map(); // correlation id -> { api, at }
  const write = socket.write.bind(socket);
  socket.write = (data, ...rest) => {
    // kafkajs writes each request as one buffer: size, api key, version, correlation id, ...
    if (Buffer.isBuffer(data) && data.length >= 12) {
      const entry = { api: API_NAMES[data.readInt16BE(4)] ?? `api ${data.readInt16BE(4)}`, at: 0 };
      sent.set(data.readInt32BE(8), entry);
      const ok = write(data, ...rest);
      entry.at = performance.now();
      return ok;
    }
    return write(data, ...rest);
  };
  let head = Buffer.alloc(0);
  let left = 0;
  let current = null;
  socket.on('data', (chunk) => {
    const now = performance.now();
    if (current) current.reads++;
    let at = 0;
    while (at < chunk.length) {
      if (!current) {
        const part = chunk.subarray(at, at + 8 - head.length);
        head = head.length ? Buffer.concat([head, part]) : part;
        at += part.length;
        if (head.length < 8) break;
        const size = head.readInt32BE(0);
        const request = sent.get(head.readInt32BE(4));
        sent.delete(head.readInt32BE(4));
        head = Buffer.alloc(0);
        current = { api: request?.api ?? '?', latencyUs: request ? (now - request.at) * 1000 : NaN, bytes: size + 4, reads: 1 };
        left = size - 4;
      }
      const take = Math.min(left, chunk.length - at);
      left -= take;
      at += take;
      if (left === 0) {
        note(current.api, current.bytes, current.reads, current.latencyUs);
        current = null;
      }
    }
  });
  return socket;
}

function summarize(rec) {
  const out = {};
  for (const [api, r] of Object.entries(rec)) {
    out[api] = {
      requests: r.bytes.length,
      bytesPerResponse: Math.round(r.bytes.reduce((a, b) => a + b, 0) / r.bytes.length),
      readsPerResponse: +(r.reads.reduce((a, b) => a + b, 0) / r.reads.length).toFixed(1),
      latencyP50Us: Math.round(percentile(r.latencyUs, 0.5)),
      latencyP90Us: Math.round(percentile(r.latencyUs, 0.9)),
    };
  }
  return out;
}

// ---------------------------------------------------------------- workload

function buildBatches() {
  const slab = Buffer.alloc(MESSAGES * SIZE, 0x61);
  const batches = [];
  for (let i = 0; i < MESSAGES; i += BATCH) {
    batches.push(
      Array.from({ length: Math.min(BATCH, MESSAGES - i) }, (_, k) => ({ partition: (i + k) % PARTITIONS, value: slab.subarray((i + k) * SIZE, (i + k + 1) * SIZE) })),
    );
  }
  return batches;
}

/** Reads every partition back from 0 as bench/lib/fetch-all.mjs does (no group), recording the Fetch phase. */
async function fetchBack(kafka) {
  let cluster = null;
  kafka.consumer({
    groupId: 'wire-shape-never-joined',
    partitionAssigners: [(ctx) => ((cluster = ctx.cluster), PartitionAssigners.roundRobin(ctx))],
  });
  await cluster.connect();
  try {
    await cluster.addTargetTopic(TOPIC);
    await cluster.refreshMetadata();
    const ids = cluster.findTopicPartitionMetadata(TOPIC).map((p) => p.partitionId);
    const [ends] = await cluster.fetchTopicsOffset([{ topic: TOPIC, partitions: ids.map((partition) => ({ partition })), fromBeginning: false }]);
    const end = new Map(ends.partitions.map((p) => [p.partition, BigInt(p.offset)]));
    const next = new Map(ids.map((p) => [p, 0n]));
    let count = 0;
    recording = {};
    gcDuring = {};
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    await Promise.all(
      Object.entries(cluster.findLeaderForPartitions(TOPIC, ids)).map(async ([nodeId, parts]) => {
        const broker = await cluster.findBroker({ nodeId });
        let remaining = parts.filter((p) => next.get(p) < end.get(p));
        while (remaining.length > 0) {
          if (performance.now() - t0 > 50_000) throw new Error('fetch did not finish within 50 s');
          const { responses } = await broker.fetch({
            isolationLevel: 0,
            maxWaitTime: 100,
            minBytes: 1,
            maxBytes: 10485760,
            topics: [{ topic: TOPIC, partitions: remaining.map((partition) => ({ partition, fetchOffset: String(next.get(partition)), maxBytes: PARTITION_MAX_BYTES })) }],
          });
          for (const { partitions } of responses) {
            for (const pd of partitions) {
              for (const m of pd.messages) if (BigInt(m.offset) >= next.get(pd.partition) && BigInt(m.offset) < end.get(pd.partition)) count++;
              if (pd.messages.length) next.set(pd.partition, BigInt(pd.messages[pd.messages.length - 1].offset) + 1n);
            }
          }
          remaining = remaining.filter((p) => next.get(p) < end.get(p));
        }
      }),
    );
    const ms = performance.now() - t0;
    const cpu = process.cpuUsage(cpu0);
    await new Promise((resolve) => setTimeout(resolve, 20)); // let the last GC entries arrive
    const gc = Object.fromEntries(Object.entries(gcDuring).map(([k, v]) => [k, { count: v.count, ms: Math.round(v.ms) }]));
    const wire = summarize(recording);
    recording = gcDuring = null;
    // Plus the one connection-opening message per partition.
    if (count !== MESSAGES + PARTITIONS) throw new Error(`fetched ${count} of ${MESSAGES + PARTITIONS}`);
    return { msgsPerSec: Math.round(count / (ms / 1000)), ms: Math.round(ms), clientCpuMs: Math.round((cpu.user + cpu.system) / 1000), gc, wire };
  } finally {
    await cluster.disconnect();
  }
}

async function oneRun(spec, batches) {
  const broker = await startBroker(spec, { brokers: 3, lifetime: 60, topics: [{ name: TOPIC, partitions: PARTITIONS, replication: 1 }] });
  try {
    const kafka = new Kafka({ clientId: 'wire-shape', brokers: broker.bootstrap, logLevel: logLevel.NOTHING, socketFactory: recordingSocketFactory, requestTimeout: 30000 });
    const producer = kafka.producer({ allowAutoTopicCreation: false, createPartitioner: Partitioners.DefaultPartitioner });
    await producer.connect();
    try {
      // Connections to every leader first: the recorded phase is the steady state.
      await producer.send({ topic: TOPIC, acks: -1, messages: Array.from({ length: PARTITIONS }, (_, partition) => ({ partition, value: 'w' })) });
      recording = {};
      const cpu0 = process.cpuUsage();
      const t0 = performance.now();
      for (const messages of batches) await producer.send({ topic: TOPIC, acks: -1, messages });
      const ms = performance.now() - t0;
      const cpu = process.cpuUsage(cpu0);
      const produce = { msgsPerSec: Math.round(MESSAGES / (ms / 1000)), ms: Math.round(ms), clientCpuMs: Math.round((cpu.user + cpu.system) / 1000), wire: summarize(recording) };
      recording = null;
      return { produce, fetch: await fetchBack(kafka) };
    } finally {
      await producer.disconnect().catch(() => {});
    }
  } finally {
    await broker.stop();
  }
}

// ---------------------------------------------------------------- main

const specs = targetSpecs({ which: o.targets.split(',') });
const batches = buildBatches();
const results = Object.fromEntries(specs.map((s) => [s.name, []]));
try {
  await oneRun(specs[0], batches.slice(0, 20)).catch(() => {}); // warm kafkajs's JIT, not recorded
  for (let i = 0; i < RUNS; i++) {
    for (const spec of orderFor(specs, i)) {
      const r = await oneRun(spec, batches);
      results[spec.name].push(r);
      process.stdout.write(`${JSON.stringify({ target: spec.name, run: i, ...r })}\n`);
    }
  }
} finally {
  killAll();
}

const med = (xs) => Math.round(median(xs));
process.stdout.write(`\nmedians over ${RUNS} runs, ${MESSAGES} x ${SIZE} B, Fetch partition max bytes ${PARTITION_MAX_BYTES}:\n`);
for (const [name, rs] of Object.entries(results)) {
  if (!rs.length) continue;
  const p = (f) => med(rs.map(f));
  process.stdout.write(
    `${name.padEnd(6)} produce ${p((r) => r.produce.msgsPerSec)} msgs/s, ${p((r) => r.produce.wire.Produce.requests)} Produce, ` +
      `latency p50 ${p((r) => r.produce.wire.Produce.latencyP50Us)} us | fetch ${p((r) => r.fetch.msgsPerSec)} msgs/s, ` +
      `${p((r) => r.fetch.wire.Fetch.requests)} Fetch of ${p((r) => r.fetch.wire.Fetch.bytesPerResponse)} B ` +
      `(${p((r) => r.fetch.wire.Fetch.readsPerResponse)} reads), latency p50 ${p((r) => r.fetch.wire.Fetch.latencyP50Us)} us, ` +
      `client CPU ${p((r) => r.fetch.clientCpuMs)} ms, minor GC ${p((r) => r.fetch.gc.minor?.ms ?? 0)} ms\n`,
  );
}
process.exit(0);
