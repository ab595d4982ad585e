#!/usr/bin/env node
// The broker process's own CPU time for the same produce traffic, as a ratio
// to the mock: a fixed, deterministic Produce load on raw sockets (the same
// bytes and pipelining for every broker, whatever the client machine does),
// and a librdkafka producer. --baseline CLI adds another build of ours
// ("base", e.g. one made before a change) to compare builds in the same run.
// The "floor" target (lib/floor-broker.mjs, wire load only) is a Node.js
// process that only cuts frames, keeps them and answers canned responses:
// what Node's sockets cost before any Kafka logic.
//
//   npm run build && node bench/cpu.mjs [--runs 7] [--baseline path/to/cli.js]
//   npm run bench -- cpu
import fs from 'node:fs';
import path from 'node:path';

import { cpuRuntime, cpuSeconds } from './lib/proc.mjs';
import { rdkafkaVersion, runRdkafka } from './lib/rdkafka.mjs';
import { interleavedRuns, summarizeRuns } from './lib/runs.mjs';
import { partTable } from './lib/table.mjs';
import { oursSpec } from './lib/targets.mjs';
import { runIfMain } from './lib/part.mjs';
import { wireProduce } from './lib/wire-produce.mjs';

const TOPIC = 'cpu';

export const method = `Method (broker CPU for the same traffic)
  wire          R Produce v7 requests per broker node on one connection each, 8 in flight, acks=all; each
                request holds one 100-record batch (100-byte values) for every partition the node leads
                (topic of P partitions, rf 1, created at start); the frames are encoded once, so every
                broker gets the same bytes (bench/lib/wire-produce.mjs). Then the same load again on the
                same process ("warm": the JIT has compiled the hot paths; a fresh process pays for that).
  floor         a Node.js process that cuts the same frames off its sockets, keeps them and answers each with
                a response encoded once (bench/lib/floor-broker.mjs): the cost of Node's own socket, stream
                and timer work for this traffic, before any Kafka logic. Wire phases only.
  librdkafka    then N x 100-byte messages, acks=all, as in the rdkafka part (${rdkafkaVersion() ?? 'confluent_kafka'}).
  CPU           on-CPU time of the broker process, all threads (JIT compiler and GC threads included),
                from /proc/<pid>/task/*/schedstat (ns), over each phase only; start-up excluded.
  runs          a fresh broker per run, targets interleaved (a b c, c b a, ...); medians, spread min..max.`;

async function oneRun({ spec, index, error, broker }, o, log) {
  const cpu = () => cpuRuntime(broker.pid) ?? cpuSeconds(broker.pid).total;
  const load = { requests: o.requests, records: 100, size: 100, inflight: 8, acks: -1 };
  const c0 = cpu();
  const w = await wireProduce(broker.bootstrap, TOPIC, load);
  const c1 = cpu();
  // The same load again on the same process: code already optimized by the JIT.
  const w2 = await wireProduce(broker.bootstrap, TOPIC, load);
  const c2 = cpu();
  if (spec.produceOnly) {
    const r = { wireCpuMs: (c1 - c0) * 1000, wireWarmCpuMs: (c2 - c1) * 1000, wireMB: w.bytes / 1e6, wireErrors: w.errors + w2.errors };
    if (r.wireErrors) error(`${r.wireErrors} wire errors`);
    log(`  cpu ${spec.name} run ${index}: wire ${r.wireCpuMs.toFixed(0)} ms (${r.wireMB.toFixed(0)} MB), again ${r.wireWarmCpuMs.toFixed(0)} ms`);
    return r;
  }
  const rd = await runRdkafka(['produce', broker.bootstrap.join(','), TOPIC, o.messages, 100, o.partitions]);
  const c3 = cpu();
  const r = {
    wireCpuMs: (c1 - c0) * 1000,
    wireWarmCpuMs: (c2 - c1) * 1000,
    wireMB: w.bytes / 1e6,
    wireErrors: w.errors + w2.errors,
    rdkafkaCpuMs: (c3 - c2) * 1000,
    rdkafkaFailed: rd.failed + rd.undelivered,
  };
  if (r.wireErrors || r.rdkafkaFailed) error(`${r.wireErrors} wire errors, ${r.rdkafkaFailed} librdkafka failures`);
  log(`  cpu ${spec.name} run ${index}: wire ${r.wireCpuMs.toFixed(0)} ms (${r.wireMB.toFixed(0)} MB), again ${r.wireWarmCpuMs.toFixed(0)} ms, librdkafka ${r.rdkafkaCpuMs.toFixed(0)} ms`);
  return r;
}

const KEYS = ['wireCpuMs', 'wireWarmCpuMs', 'rdkafkaCpuMs'];


export async function run(specs, o, log) {
  if (o.baseline) {
    const cli = path.resolve(o.baseline);
    if (!fs.existsSync(cli)) throw new Error(`--baseline: ${cli} not found`);
    specs = [...specs, oursSpec(cli, ['--no-proxy', '--log-level', 'warn'], 'base')];
  }
  const broker = () => ({ brokers: o.brokers, lifetime: o.timeout, topics: [{ name: TOPIC, partitions: o.partitions, replication: 1 }] });
  const { results, errors } = await interleavedRuns(specs, { runs: o.runs, what: 'cpu', log, broker }, (r) => oneRun(r, o, log));
  const summary = summarizeRuns(results, KEYS, { spreadDigits: 0 });
  return { summary, results, errors, failed: errors.length > 0 || Object.values(summary).some((s) => !s.runs) };
}

export function formatTable(result) {
  const o = result.options;
  const s = result.summary;
  const rows = [
    [`wire: ${o.requests} requests/node (ms)`, 'wireCpuMs', 0, 'lower'],
    ['  the same again, warm (ms)', 'wireWarmCpuMs', 0, 'lower'],
    [`librdkafka: ${o.messages.toLocaleString('en-US')} msgs (ms)`, 'rdkafkaCpuMs', 0, 'lower'],
  ];
  const names = Object.keys(s);
  const footer = [`spread (min..max): ${names.map((n) => `${n} wire ${s[n].spread.wireCpuMs || '-'}, warm ${s[n].spread.wireWarmCpuMs || '-'}, librdkafka ${s[n].spread.rdkafkaCpuMs || '-'}`).join('; ')}`];
  if (s.base && s.ours) {
    const r = (k) => (s.ours[k] / s.base[k]).toFixed(2);
    footer.push(`ours/base: wire ${r('wireCpuMs')}, warm ${r('wireWarmCpuMs')}, librdkafka ${r('rdkafkaCpuMs')}`);
  }
  if (s.floor && s.ours) {
    const r = (k) => (s.ours[k] / s.floor[k]).toFixed(2);
    footer.push(`ours/floor: wire ${r('wireCpuMs')}, warm ${r('wireWarmCpuMs')} (floor: Node.js sockets alone, no Kafka logic)`);
  }
  const heading = `broker CPU, ${o.brokers} nodes, topic ${o.partitions} partitions rf 1, ${o.runs} run(s); ${result.elapsedSeconds.toFixed(1)} s`;
  return partTable(result, heading, rows, { title: 'broker CPU (median)', footer });
}

export const part = {
  name: 'cpu',
  options: {
    requests: { type: 'string', default: '300' },
    messages: { type: 'string', default: '500000' },
    partitions: { type: 'string', default: '16' },
    baseline: { type: 'string', hint: 'CLI' },
  },
  stringOptions: ['baseline'],
  defaults: { timeout: 240, targets: 'mock,ours,floor', runs: 5 },
  targets: ['mock', 'ours', 'proxy', 'floor'],
  run,
  method,
  formatTable,
};

runIfMain(import.meta.url, part);
