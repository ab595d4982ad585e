#!/usr/bin/env node
// Broker benchmark: kafkajs produce/fetch throughput, start-up time, and the
// broker process's own CPU time and memory, for one or more brokers given as
// spawn specs (see lib/broker-process.mjs), run interleaved in one process so
// that ratios compare figures taken on the same machine at the same time.
//
//   node bench/throughput.mjs                 # mock, plus ours if dist/cli.js exists
//   node bench/throughput.mjs --quick         # smaller, ~20 s
//   node bench/throughput.mjs --ours          # require ours (dist/cli.js)
//   node bench/throughput.mjs --help
//
// bench/run.mjs (npm run bench) runs this under a hard time bound and prints
// the table; this file also exports runBench() and formatTable().

import fs from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import kafkajs from 'kafkajs';

import { startBroker } from './lib/broker-process.mjs';
import { fetchAll } from './lib/fetch-all.mjs';
import { runIfMain } from './lib/part.mjs';
import { cpuRuntime, cpuSeconds, memory } from './lib/proc.mjs';
import { interleavedRuns } from './lib/runs.mjs';
import { fmt, median } from './lib/stats.mjs';
import { ratioTable } from './lib/table.mjs';
import { mockSpec, oursCli, repoDir, targetSpecs } from './lib/targets.mjs';

const { Kafka, Partitioners, logLevel } = kafkajs;

// ---------------------------------------------------------------- options

export const DEFAULTS = {
  brokers: 3, // broker nodes in each cluster
  partitions: 8, // partitions of the bench topic
  replication: 1, // its replication factor
  messages: 200_000,
  size: 100, // value bytes per message (no key)
  batch: 1000, // messages per producer.send()
  inflight: 1, // producer.send() calls awaited concurrently
  runs: 5, // throughput runs per broker (median reported)
  startupRuns: 7, // start-up runs per broker (median reported)
  warmup: true, // one unmeasured small run first, to warm kafkajs's JIT
  lifetime: 60, // seconds any one broker process may live
  timeout: 150, // seconds for the whole benchmark
};

export const QUICK = { messages: 50_000, runs: 1, startupRuns: 3 };

export const method = `Method (kafkajs throughput and start-up)
  Each figure is the median over runs; brokers are run interleaved (mock, ours, proxy, proxy, ours, ...),
  ours = kafkaesque with clients straight to its brokers (--no-proxy), proxy = through its chaos proxy, no rules;
  each run on a freshly spawned broker process, and the client is kafkajs ${kafkajsVersion()} in this
  Node ${process.version} process (2 cores shared by client and broker: the client is usually the bottleneck).
  start-up      spawn() -> ready line on stdout -> first kafkajs producer.send() (acks=all, 1 message,
                topic auto-created by Metadata) acknowledged. "ready" = first stdout line that is a
                bootstrap list or JSON with "bootstrap".
  produce       N messages of S bytes (value only, no key), explicit partition i % P, sent with
                producer.send() in batches of B messages, acks=all (-1), no compression, not idempotent,
                'inflight' sends outstanding at a time; timed from the first send to the last ack.
                msgs/s = N / time; MB/s = N*S / time / 1e6 (payload bytes).
  floor         not a broker: a Node.js process that answers Produce with a response encoded once per
                connection and keeps the frames (bench/lib/floor-broker.mjs); produce only, no start-up runs.
                What kafkajs and the broker's CPU come to when the broker's Kafka logic costs nothing.
  fetch         all N read back from offset 0 without a consumer group: kafkajs Cluster/Broker objects
                (obtained through the PartitionAssigner hook, never joining a group), ListOffsets for the
                ends, then one Fetch loop per partition leader (max 1 MiB per partition, 10 MiB per
                request, maxWait 100 ms); timed from the first Fetch to the last record. Count, uniqueness
                and per-partition order of the payload sequence numbers are verified.
  broker CPU    utime+stime of the broker process and its descendants (/proc/<pid>/stat), sampled after
                the topic exists (start-up excluded), after the last produce ack, after the last fetch
                (10 ms ticks); "schedstat" rows: the same intervals from /proc/<pid>/task/*/schedstat
                (ns resolution, live threads only).
  broker RSS    VmRSS (/proc/<pid>/status) after the topic exists ("before") and after the produce
                ("after"); VmHWM after the fetch. growth/MB = (after - before) / payload MB stored.
  client CPU    process.cpuUsage() of this Node process (kafkajs) during produce and fetch.`;

function kafkajsVersion() {
  try {
    return JSON.parse(fs.readFileSync(path.join(repoDir, 'node_modules', 'kafkajs', 'package.json'), 'utf8')).version;
  } catch {
    return '?';
  }
}

// ---------------------------------------------------------------- helpers

/**
 * kafkajs client whose error log lines are collected into `sink` (an array)
 * instead of printed: retries (e.g. a Metadata answered with an error while
 * a topic is being auto-created) are reported per run, not sprayed on stderr.
 */
function newKafka(bootstrap, clientId, sink = []) {
  return new Kafka({
    clientId,
    brokers: bootstrap,
    logLevel: logLevel.ERROR,
    logCreator: () => ({ log }) => {
      sink.push(`${log.message}${log.error ? `: ${log.error}` : ''}`);
    },
    connectionTimeout: 3000,
    requestTimeout: 30000,
  });
}

const clientLog = (sink) => (sink.length ? { count: sink.length, first: sink.slice(0, 3) } : { count: 0 });

function newProducer(kafka, allowAutoTopicCreation) {
  return kafka.producer({
    allowAutoTopicCreation,
    createPartitioner: Partitioners.DefaultPartitioner,
    idempotent: false,
  });
}

const SEQ_DIGITS = 12;

/** Pre-built batches: value i starts with i as 12 ASCII digits, then filler. */
function buildBatches({ messages, size, batch, partitions }) {
  if (size < SEQ_DIGITS) throw new Error(`--size must be at least ${SEQ_DIGITS}`);
  const slab = Buffer.alloc(messages * size, 0x61);
  const batches = [];
  let cur = [];
  for (let i = 0; i < messages; i++) {
    const v = slab.subarray(i * size, (i + 1) * size);
    v.write(String(i).padStart(SEQ_DIGITS, '0'), 0, 'latin1');
    cur.push({ partition: i % partitions, value: v });
    if (cur.length === batch) {
      batches.push(cur);
      cur = [];
    }
  }
  if (cur.length) batches.push(cur);
  return batches;
}

async function createTopic(kafka, topic, partitions, replication) {
  const admin = kafka.admin();
  await admin.connect();
  try {
    await admin.createTopics({
      topics: [{ topic, numPartitions: partitions, replicationFactor: replication }],
      waitForLeaders: true,
      timeout: 10000,
    });
  } finally {
    await admin.disconnect();
  }
}

const cpuDiff = (a, b) => (b.user - a.user + (b.system - a.system)) / 1e6;

// ---------------------------------------------------------------- runs

/** One start-up measurement: spawn -> ready -> first acked produce. */
export async function startupRun(spec, o) {
  // The topic exists from the start on both brokers: this measures start-up,
  // not the client's retry after an auto-creating Metadata (Kafka answers
  // UNKNOWN_TOPIC_OR_PARTITION there, and kafkajs backs off ~300 ms).
  const topics = spec.topics === 'args' ? [{ name: 'bench-startup', partitions: 1, replication: 1 }] : [];
  const broker = await startBroker(spec, { brokers: o.brokers, lifetime: o.lifetime, topics });
  let producer;
  const sink = [];
  try {
    const kafka = newKafka(broker.bootstrap, 'bench-startup', sink);
    producer = newProducer(kafka, true);
    await producer.connect();
    await producer.send({ topic: 'bench-startup', acks: -1, messages: [{ value: 'x' }] });
    const ackAt = performance.now();
    return {
      readyMs: broker.readyMs,
      ackAfterReadyMs: ackAt - broker.readyAt,
      firstAckMs: ackAt - broker.spawnedAt,
      clientErrors: clientLog(sink),
    };
  } finally {
    if (producer) await producer.disconnect().catch(() => {});
    const stopped = await broker.stop();
    o.onStop?.(stopped);
  }
}

/** One throughput run on a fresh broker. */
export async function throughputRun(spec, o, batches) {
  const topic = 'bench';
  const topics = [{ name: topic, partitions: o.partitions, replication: o.replication }];
  const broker = await startBroker(spec, {
    brokers: o.brokers,
    lifetime: o.lifetime,
    topics: spec.topics === 'args' ? topics : [],
  });
  const r = { readyMs: broker.readyMs };
  globalThis.gc?.();
  let producer;
  const sink = [];
  try {
    const kafka = newKafka(broker.bootstrap, 'bench', sink);
    if (spec.topics === 'admin') await createTopic(kafka, topic, o.partitions, o.replication);

    const cpu0 = cpuSeconds(broker.pid);
    const run0 = cpuRuntime(broker.pid);
    const mem0 = memory(broker.pid);

    producer = newProducer(kafka, false);
    await producer.connect();
    const ccpu0 = process.cpuUsage();
    const t0 = performance.now();
    let nextBatch = 0;
    await Promise.all(
      Array.from({ length: Math.max(1, o.inflight) }, async () => {
        while (nextBatch < batches.length) {
          const messages = batches[nextBatch++];
          await producer.send({ topic, acks: -1, messages });
        }
      }),
    );
    const t1 = performance.now();
    const ccpu1 = process.cpuUsage();
    const cpu1 = cpuSeconds(broker.pid);
    const run1 = cpuRuntime(broker.pid);
    const mem1 = memory(broker.pid);
    await producer.disconnect();
    producer = null;
    const payloadMB = (o.messages * o.size) / 1e6;
    const ps = (t1 - t0) / 1000;
    const produce = { seconds: ps, msgsPerSec: o.messages / ps, mbPerSec: payloadMB / ps, clientCpu: cpuDiff(ccpu0, ccpu1) };
    if (spec.produceOnly) {
      // The floor target answers Produce and keeps nothing it could serve back.
      Object.assign(r, {
        produce,
        fetch: null,
        clientErrors: clientLog(sink),
        verify: { ok: true, produceOnly: true },
        brokerCpu: { produce: cpu1.total - cpu0.total, preciseProduce: run0 == null ? null : run1 - run0 },
        rss: { before: mem0.rss, afterProduce: mem1.rss, growthPerMB: (mem1.rss - mem0.rss) / payloadMB },
      });
      return r;
    }

    // Read back and verify: every sequence number once, ascending per partition.
    const seen = new Uint8Array(o.messages);
    const lastSeq = new Float64Array(o.partitions).fill(-1);
    let dup = 0;
    let outOfOrder = 0;
    let foreign = 0;
    const ccpu2 = process.cpuUsage();
    const fetched = await fetchAll(kafka, topic, {
      deadlineMs: o.lifetime * 1000,
      onMessage(p, m) {
        const seq = Number(m.value.toString('latin1', 0, SEQ_DIGITS));
        if (!(seq >= 0 && seq < o.messages) || seq % o.partitions !== p) {
          foreign++;
          return;
        }
        if (seen[seq]) dup++;
        seen[seq] = 1;
        if (seq < lastSeq[p]) outOfOrder++;
        lastSeq[p] = seq;
      },
    });
    const ccpu3 = process.cpuUsage();
    const cpu2 = cpuSeconds(broker.pid);
    const run2 = cpuRuntime(broker.pid);
    const mem2 = memory(broker.pid);
    let missing = 0;
    for (let i = 0; i < o.messages; i++) if (!seen[i]) missing++;

    const fs_ = fetched.elapsedMs / 1000;
    Object.assign(r, {
      produce,
      fetch: {
        seconds: fs_,
        msgsPerSec: fetched.count / fs_,
        mbPerSec: fetched.bytes / 1e6 / fs_,
        requests: fetched.requests,
        clientCpu: cpuDiff(ccpu2, ccpu3),
      },
      clientErrors: clientLog(sink),
      verify: { fetched: fetched.count, missing, dup, outOfOrder, foreign, ok: !missing && !dup && !outOfOrder && !foreign },
      brokerCpu: {
        produce: cpu1.total - cpu0.total,
        fetch: cpu2.total - cpu1.total,
        total: cpu2.total - cpu0.total,
        user: cpu2.user - cpu0.user,
        sys: cpu2.sys - cpu0.sys,
        // schedstat, ns resolution (live threads only)
        preciseProduce: run0 == null ? null : run1 - run0,
        preciseFetch: run0 == null ? null : run2 - run1,
      },
      rss: {
        before: mem0.rss,
        afterProduce: mem1.rss,
        afterFetch: mem2.rss,
        hwm: mem2.hwm,
        growthPerMB: (mem1.rss - mem0.rss) / payloadMB,
      },
    });
    return r;
  } finally {
    if (producer) await producer.disconnect().catch(() => {});
    r.stop = await broker.stop();
    o.onStop?.(r.stop);
  }
}

/**
 * Run the whole benchmark. specs: array of spawn specs (first is the
 * reference for ratios). log: progress lines. Returns a results object.
 */
export async function runBench(specs, options = {}, log = (s) => process.stderr.write(`${s}\n`)) {
  const o = { ...DEFAULTS, ...options };
  const started = performance.now();
  const until = started + o.timeout * 1000;
  const batches = buildBatches(o);
  const stops = Object.fromEntries(specs.map((s) => [s.name, []]));
  const withStops = (spec) => ({ ...o, onStop: (x) => stops[spec.name].push(x) });

  if (o.warmup) {
    const w = Math.min(o.messages, 20_000);
    const wo = { ...o, messages: w };
    log(`warm-up: ${w} messages on ${specs[0].name} (not measured)`);
    try {
      await throughputRun(specs[0], wo, buildBatches(wo));
    } catch (err) {
      log(`  ${specs[0].name} warm-up: ${String(err?.message ?? err).split('\n')[0]}`);
    }
  }

  // A broker that fails twice in a row is not run again, in either loop (each
  // failure can cost a ready timeout). gc() before each run with --expose-gc.
  const loop = { log, until, giveUpAfter: 2, streaks: {} };
  const measured = await interleavedRuns(specs, { ...loop, runs: o.runs, what: 'throughput', reserveMs: 10_000 }, async ({ spec, index }) => {
    const r = await throughputRun(spec, withStops(spec), batches);
    log(
      `  ${spec.name} run ${index}: produce ${fmt(r.produce.msgsPerSec, 0)} msg/s, ` +
        `fetch ${fmt(r.fetch?.msgsPerSec, 0)} msg/s, broker CPU ${fmt(r.brokerCpu.total, 2)} s, ` +
        `RSS ${mb(r.rss.before)} -> ${mb(r.rss.afterProduce)} MB, verify ${r.verify.ok ? 'ok' : JSON.stringify(r.verify)}` +
        (r.clientErrors.count ? `, kafkajs logged ${r.clientErrors.count} errors, first: ${r.clientErrors.first[0]}` : ''),
    );
    return r;
  });
  const startupSpecs = specs.filter((s) => !s.produceOnly);
  const startups = await interleavedRuns(startupSpecs, { ...loop, runs: o.startupRuns, what: 'start-up', reserveMs: 3_000 }, ({ spec }) => startupRun(spec, withStops(spec)));

  const errorsOf = (name) => [
    ...measured.failures.filter((f) => f.target === name).map((f) => `throughput run ${f.run}: ${f.message}`),
    ...startups.failures.filter((f) => f.target === name).map((f) => `start-up run ${f.run}: ${f.message}`),
  ];
  const results = Object.fromEntries(
    specs.map((s) => [s.name, { startup: startups.results[s.name] ?? [], runs: measured.results[s.name], errors: errorsOf(s.name), stops: stops[s.name] }]),
  );
  for (const spec of startupSpecs) {
    const st = results[spec.name].startup;
    const errs = st.flatMap((s) => s.clientErrors.first ?? []);
    log(
      `  ${spec.name} start-up (ms): ${st.map((s) => fmt(s.firstAckMs, 1)).join(' ')}` +
        (errs.length ? `; kafkajs logged errors on the way, e.g. ${errs[0]}` : ''),
    );
  }

  const summary = Object.fromEntries(specs.map((s) => [s.name, summarize(results[s.name])]));
  const failed = specs.some(({ name, produceOnly }) => {
    const r = summary[name];
    return (o.runs > 0 && (r.runs === 0 || !r.verified)) || (o.startupRuns > 0 && !produceOnly && r.startupRuns === 0);
  });
  return {
    when: new Date().toISOString(),
    options: o,
    specs: specs.map(({ name, command, args, topics }) => ({ name, command, args, topics })),
    elapsedSeconds: (performance.now() - started) / 1000,
    summary,
    results,
    failed,
    extraCaCerts: process.env.NODE_EXTRA_CA_CERTS ?? null,
  };
}

function summarize(res) {
  // A produce-only target (the floor) has no fetch, RSS peak or start-up: those keys are null.
  const m = (f) => median(res.runs.map(f));
  const s = (f) => median(res.startup.map(f));
  return {
    runs: res.runs.length,
    startupRuns: res.startup.length,
    errors: res.errors,
    verified: res.runs.length > 0 && res.runs.every((r) => r.verify.ok),
    produceOnly: res.runs.some((r) => r.verify.produceOnly),
    stopCodes: [...new Set(res.stops.map((x) => (x.signal ? x.signal : x.code)))],
    startupFirstAckMs: s((r) => r.firstAckMs),
    startupReadyMs: s((r) => r.readyMs),
    startupAckAfterReadyMs: s((r) => r.ackAfterReadyMs),
    startupClientErrors: s((r) => r.clientErrors.count),
    runClientErrors: m((r) => r.clientErrors.count),
    produceMsgsPerSec: m((r) => r.produce.msgsPerSec),
    produceMBps: m((r) => r.produce.mbPerSec),
    fetchMsgsPerSec: m((r) => r.fetch?.msgsPerSec),
    fetchMBps: m((r) => r.fetch?.mbPerSec),
    brokerCpuProduce: m((r) => r.brokerCpu.produce),
    brokerCpuFetch: m((r) => r.brokerCpu.fetch),
    brokerCpuTotal: m((r) => r.brokerCpu.total),
    brokerCpuPreciseProduceMs: m((r) => (r.brokerCpu.preciseProduce == null ? null : r.brokerCpu.preciseProduce * 1000)),
    brokerCpuPreciseFetchMs: m((r) => (r.brokerCpu.preciseFetch == null ? null : r.brokerCpu.preciseFetch * 1000)),
    clientCpuProduce: m((r) => r.produce.clientCpu),
    clientCpuFetch: m((r) => r.fetch?.clientCpu),
    rssBeforeMB: m((r) => r.rss.before / 1e6),
    rssAfterMB: m((r) => r.rss.afterProduce / 1e6),
    hwmMB: m((r) => (r.rss.hwm == null ? null : r.rss.hwm / 1e6)),
    rssGrowthPerMB: m((r) => r.rss.growthPerMB / 1e6),
  };
}

// ---------------------------------------------------------------- output

const mb = (bytes) => fmt(bytes / 1e6, 1);

const ROWS = [
  ['start-up: spawn -> first ack (ms)', 'startupFirstAckMs', 1, 'lower'],
  ['  spawn -> ready line (ms)', 'startupReadyMs', 1, 'lower'],
  ['  ready -> first ack (ms)', 'startupAckAfterReadyMs', 1, 'lower'],
  ['produce (msgs/s)', 'produceMsgsPerSec', 0, 'higher'],
  ['produce (MB/s)', 'produceMBps', 2, 'higher'],
  ['fetch (msgs/s)', 'fetchMsgsPerSec', 0, 'higher'],
  ['fetch (MB/s)', 'fetchMBps', 2, 'higher'],
  ['broker CPU, produce (s)', 'brokerCpuProduce', 2, 'lower'],
  ['broker CPU, fetch (s)', 'brokerCpuFetch', 2, 'lower'],
  ['broker CPU, total (s)', 'brokerCpuTotal', 2, 'lower'],
  ['  schedstat, produce (ms)', 'brokerCpuPreciseProduceMs', 1, 'lower'],
  ['  schedstat, fetch (ms)', 'brokerCpuPreciseFetchMs', 1, 'lower'],
  ['client CPU, produce (s)', 'clientCpuProduce', 2, ''],
  ['client CPU, fetch (s)', 'clientCpuFetch', 2, ''],
  ['broker RSS before data (MB)', 'rssBeforeMB', 1, 'lower'],
  ['broker RSS after produce (MB)', 'rssAfterMB', 1, 'lower'],
  ['broker peak RSS, VmHWM (MB)', 'hwmMB', 1, 'lower'],
  ['RSS growth per MB stored', 'rssGrowthPerMB', 2, 'lower'],
];

/** A readable table: one column per broker, then x/mock and proxy/ours ratios. */
export function formatTable(result) {
  const names = Object.keys(result.summary);
  const text = (f) => Object.fromEntries(names.map((n) => [n, f(result.summary[n])]));
  const summary = Object.fromEntries(names.map((n) => [n, { ...result.summary[n] }]));
  const extra = {
    runs: text((s) => `${s.runs} / ${s.startupRuns}`),
    verified: text((s) => (!s.runs ? '-' : s.produceOnly ? 'produce only' : s.verified ? 'yes' : 'NO')),
    clientErrors: text((s) => `${fmt(s.startupClientErrors, 0)} / ${fmt(s.runClientErrors, 0)}`),
    stop: text((s) => s.stopCodes.join(',') || '-'),
  };
  for (const n of names) for (const [k, v] of Object.entries(extra)) summary[n][`_${k}`] = v[n];
  const rows = [
    ...ROWS,
    ['runs (throughput / start-up)', '_runs', 0, ''],
    ['data verified', '_verified', 0, ''],
    ['kafkajs errors logged (start-up / run)', '_clientErrors', 0, ''],
    ['exit on SIGTERM', '_stop', 0, ''],
  ];
  const o = result.options;
  const out = [
    o.runs === 0
      ? `start-up only: ${o.brokers} broker nodes, ${o.startupRuns} runs each; ${result.elapsedSeconds.toFixed(1)} s total`
      : `${o.messages.toLocaleString('en-US')} msgs x ${o.size} B, batches of ${o.batch}, acks=all, inflight ${o.inflight}, ` +
        `topic ${o.partitions} partitions rf ${o.replication}, ${o.brokers} broker nodes; ` +
        `${result.elapsedSeconds.toFixed(1)} s total`,
    ...ratioTable(summary, rows),
  ];
  if (result.extraCaCerts && o.startupRuns > 0) {
    out.push(
      `note: NODE_EXTRA_CA_CERTS is set (${result.extraCaCerts}): every Node.js process loads that file as it starts ` +
        '(~40 ms on a 2-core machine), before any kafkaesque code; unset it to time kafkaesque alone.',
    );
  }
  for (const n of names) {
    for (const e of result.summary[n].errors) out.push(`error (${n}): ${e}`);
  }
  return out.join('\n');
}

// ---------------------------------------------------------------- CLI

const HELP = `usage: node bench/throughput.mjs [options]

brokers:
  --mock PATH        mock-cluster-new binary (default: bench/.ref/bin/mock-cluster-new, built if absent)
  --ours [CLI]       also run kafkaesque: node CLI start --json --brokers N --port P (default CLI
                     ${path.relative(process.cwd(), oursCli) || oursCli}); on by default when that file exists
  --no-ours          do not run ours even if dist/cli.js exists
  --targets LIST     which of mock, ours (--no-proxy), proxy (through the chaos proxy), floor (a Node.js
                     process answering Produce with canned responses, produce only) [mock,ours,proxy,floor]
  --ours-arg ARG     extra argument for ours' start command (repeatable), e.g. --ours-arg=--no-proxy
  --spec JSON        an extra broker spawn spec (repeatable), e.g.
                     '{"name":"x","command":"/bin/x","args":["--port","{port}"],"topics":"admin"}'
workload (defaults in brackets):
  --brokers N [${DEFAULTS.brokers}]  --partitions N [${DEFAULTS.partitions}]  --replication N [${DEFAULTS.replication}]
  --messages N [${DEFAULTS.messages}]  --size BYTES [${DEFAULTS.size}]  --batch N [${DEFAULTS.batch}]  --inflight N [${DEFAULTS.inflight}]
  --runs N [${DEFAULTS.runs}]  --startup-runs N [${DEFAULTS.startupRuns}]  --no-warmup
  --quick            ${JSON.stringify(QUICK)}
bounds and output:
  --lifetime S [${DEFAULTS.lifetime}]  seconds any broker process may live
  --timeout S [${DEFAULTS.timeout}]   seconds for the whole benchmark (runs left are skipped)
  --json FILE        write the full results as JSON (- for stdout)
  --quiet            no table on stdout (with --json -)
`;

export function parseArgs(argv) {
  const opts = {};
  const cli = { ours: fs.existsSync(oursCli) ? oursCli : null, oursRequired: false, oursArgs: [], specs: [], mock: null, json: null, quiet: false, targets: ['mock', 'ours', 'proxy', 'floor'] };
  const num = (v, name) => {
    const n = Number(v);
    if (!Number.isFinite(n) || n < 0) throw new Error(`${name} needs a number, got ${v}`);
    return n;
  };
  const keys = {
    '--brokers': 'brokers',
    '--partitions': 'partitions',
    '--replication': 'replication',
    '--messages': 'messages',
    '--size': 'size',
    '--batch': 'batch',
    '--inflight': 'inflight',
    '--runs': 'runs',
    '--startup-runs': 'startupRuns',
    '--lifetime': 'lifetime',
    '--timeout': 'timeout',
  };
  let quick = false;
  for (let i = 0; i < argv.length; i++) {
    let a = argv[i];
    let val;
    const eq = a.indexOf('=');
    if (a.startsWith('--') && eq > 0) {
      val = a.slice(eq + 1);
      a = a.slice(0, eq);
    }
    const take = () => {
      if (val !== undefined) return val;
      if (i + 1 >= argv.length) throw new Error(`${a} needs a value`);
      return argv[++i];
    };
    if (a === '--help' || a === '-h') return { help: true };
    else if (keys[a]) opts[keys[a]] = num(take(), a);
    else if (a === '--quick') quick = true;
    else if (a === '--no-warmup') opts.warmup = false;
    else if (a === '--mock') cli.mock = take();
    else if (a === '--ours') {
      cli.oursRequired = true;
      if (val !== undefined) cli.ours = path.resolve(val);
      else if (argv[i + 1] && !argv[i + 1].startsWith('--')) cli.ours = path.resolve(argv[++i]);
      else cli.ours = oursCli;
    } else if (a === '--no-ours') cli.ours = null;
    else if (a === '--targets') cli.targets = take().split(',').map((t) => t.trim());
    else if (a === '--ours-arg') cli.oursArgs.push(take());
    else if (a === '--spec') cli.specs.push(JSON.parse(take()));
    else if (a === '--json') cli.json = take();
    else if (a === '--quiet') cli.quiet = true;
    else throw new Error(`unknown option ${a} (see --help)`);
  }
  return { opts: { ...(quick ? QUICK : {}), ...opts }, cli };
}

export function specsFromCli(cli) {
  if (cli.ours && !fs.existsSync(cli.ours)) throw new Error(`--ours: ${cli.ours} not found (build it with npm run build)`);
  if (!cli.ours && cli.oursRequired) throw new Error(`--ours: ${oursCli} not found (build it with npm run build)`);
  const which = cli.ours ? cli.targets : cli.targets.filter((t) => t === 'mock');
  const specs = targetSpecs({ which, cli: cli.ours ?? oursCli, extraArgs: cli.oursArgs });
  if (cli.mock && specs[0]?.name === 'mock') specs[0] = mockSpec(path.resolve(cli.mock));
  for (const s of cli.specs) {
    if (!s.name || !s.command || !Array.isArray(s.args)) throw new Error(`--spec needs name, command and args: ${JSON.stringify(s)}`);
    specs.push({ topics: 'admin', ...s });
  }
  return specs;
}

export const part = {
  name: 'throughput',
  usage: HELP,
  parse(argv) {
    const parsed = parseArgs(argv);
    if (parsed.help) return parsed;
    const { opts, cli } = parsed;
    return { o: { ...DEFAULTS, ...opts }, specs: specsFromCli(cli), json: cli.json, quiet: cli.quiet };
  },
  run(specs, o, log) {
    log(`brokers: ${specs.map((s) => `${s.name} (${[s.command, ...s.args].join(' ')})`).join('; ')}`);
    return runBench(specs, o, log);
  },
  method,
  formatTable,
};

runIfMain(import.meta.url, part);
