#!/usr/bin/env node
// librdkafka client throughput (confluent_kafka, a client that can push a
// broker much harder than kafkajs) against the mock, ours and ours through
// the proxy, each run on a freshly spawned broker, runs interleaved; also the
// broker process's own CPU time for the same traffic.
//
//   npm run build && node bench/rdkafka.mjs [--messages 500000] [--runs 3]
//   npm run bench -- rdkafka
import { cpuSeconds, memory } from './lib/proc.mjs';
import { rdkafkaVersion, runRdkafka, python } from './lib/rdkafka.mjs';
import { interleavedRuns, summarizeRuns } from './lib/runs.mjs';
import { partTable, runsLine } from './lib/table.mjs';
import { runIfMain } from './lib/part.mjs';

const TOPIC = 'bench';

export const method = `Method (librdkafka client throughput)
  client        ${rdkafkaVersion() ?? `confluent_kafka (not found on ${python})`}, one process per
                phase (bench/lib/rdkafka-client.py); chosen over kcat -P because the Python loop
                reaches ~0.9M produce() calls/s and its start-up stays outside the timed span.
  produce       N values of S bytes (12-digit sequence number + filler), partition i % P of a topic
                created at broker start, acks=all, linger.ms=5, batch.num.messages=10000, no
                compression, not idempotent; produce() in a tight loop, then flush(). Timed from the
                first produce() to the end of flush() (all acknowledged).
  consume       assign() all P partitions at offset 0 (no group joined), consume() in batches of
                10,000 until N arrived (queued.min.messages=1000000, fetch.wait.max.ms=100); count,
                uniqueness and per-partition order verified.
  broker CPU    utime+stime of the broker process (/proc/<pid>/stat, 10 ms ticks) over each phase.
  runs          each on a freshly spawned broker; targets interleaved (a b c, c b a, ...); medians,
                spread min..max in the log lines. The machine is shared: compare ratios, not absolutes.`;

async function oneRun({ spec, index, broker }, o, log) {
  const bootstrap = broker.bootstrap.join(',');
  const cpu0 = cpuSeconds(broker.pid);
  const mem0 = memory(broker.pid);
  const p = await runRdkafka(['produce', bootstrap, TOPIC, o.messages, o.size, o.partitions]);
  const cpu1 = cpuSeconds(broker.pid);
  const mem1 = memory(broker.pid);
  const c = await runRdkafka(['consume', bootstrap, TOPIC, o.messages, o.partitions]);
  const cpu2 = cpuSeconds(broker.pid);
  const mb = (o.messages * o.size) / 1e6;
  const r = {
    produceMsgsPerSec: p.count / p.seconds,
    produceMBps: mb / p.seconds,
    produced: p.count,
    consumeMsgsPerSec: c.count / c.seconds,
    consumeMBps: c.bytes / 1e6 / c.seconds,
    brokerCpuProduce: cpu1.total - cpu0.total,
    brokerCpuConsume: cpu2.total - cpu1.total,
    clientCpuProduce: p.clientCpu,
    clientCpuConsume: c.clientCpu,
    rssGrowthPerMB: (mem1.rss - mem0.rss) / 1e6 / mb,
    verified: p.count === o.messages && c.verify.ok,
    clientErrors: [...p.errors, ...c.errors].slice(0, 3),
  };
  log(
    `  rdkafka ${spec.name} run ${index}: produce ${Math.round(r.produceMsgsPerSec)} msg/s (broker CPU ${r.brokerCpuProduce.toFixed(2)} s), ` +
      `consume ${Math.round(r.consumeMsgsPerSec)} msg/s (broker CPU ${r.brokerCpuConsume.toFixed(2)} s), verified ${r.verified}` +
      (r.clientErrors.length ? `, client errors: ${r.clientErrors[0]}` : ''),
  );
  return r;
}

const KEYS = ['produceMsgsPerSec', 'produceMBps', 'consumeMsgsPerSec', 'consumeMBps', 'brokerCpuProduce', 'brokerCpuConsume', 'clientCpuProduce', 'clientCpuConsume', 'rssGrowthPerMB'];

export async function run(specs, o, log) {
  const broker = () => ({ brokers: o.brokers, lifetime: o.timeout, topics: [{ name: TOPIC, partitions: o.partitions, replication: 1 }] });
  const until = performance.now() + o.timeout * 1000;
  const { results, errors } = await interleavedRuns(specs, { runs: o.runs, what: 'rdkafka', log, broker, until, reserveMs: 15000 }, (r) => oneRun(r, o, log));
  const summary = summarizeRuns(results, KEYS, { verified: true, spreadDigits: 2 });
  const failed = Object.values(summary).some((s) => !s.verified);
  return { summary, results, errors, failed };
}

const ROWS = [
  ['librdkafka produce (msgs/s)', 'produceMsgsPerSec', 0, 'higher'],
  ['librdkafka produce (MB/s)', 'produceMBps', 1, 'higher'],
  ['librdkafka consume (msgs/s)', 'consumeMsgsPerSec', 0, 'higher'],
  ['librdkafka consume (MB/s)', 'consumeMBps', 1, 'higher'],
  ['broker CPU, produce (s)', 'brokerCpuProduce', 2, 'lower'],
  ['broker CPU, consume (s)', 'brokerCpuConsume', 2, 'lower'],
  ['client CPU, produce (s)', 'clientCpuProduce', 2, ''],
  ['client CPU, consume (s)', 'clientCpuConsume', 2, ''],
  ['broker RSS growth per MB stored', 'rssGrowthPerMB', 2, 'lower'],
];

export function formatTable(result) {
  const o = result.options;
  const heading = `librdkafka: ${o.messages.toLocaleString('en-US')} msgs x ${o.size} B, acks=all, topic ${o.partitions} partitions rf 1, ${o.brokers} broker nodes; ${result.elapsedSeconds.toFixed(1)} s`;
  return partTable(result, heading, ROWS, { footer: [runsLine(result.summary)] });
}

export const part = {
  name: 'rdkafka',
  options: {
    messages: { type: 'string', default: '500000' },
    size: { type: 'string', default: '100' },
    partitions: { type: 'string', default: '16' },
  },
  defaults: { timeout: 150, runs: 3 },
  run,
  method,
  formatTable,
};

runIfMain(import.meta.url, part);
