#!/usr/bin/env node
// Latency of a single produce: one message, acks=all, each awaited before the
// next, with kafkajs (in this process) and librdkafka (confluent_kafka),
// against the mock, ours and ours through the proxy.
//
//   npm run build && node bench/latency.mjs [--count 2000]
//   npm run bench -- latency
import kafkajs from 'kafkajs';

import { rdkafkaVersion, runRdkafka } from './lib/rdkafka.mjs';
import { interleavedRuns } from './lib/runs.mjs';
import { percentile } from './lib/stats.mjs';
import { partTable } from './lib/table.mjs';
import { runIfMain } from './lib/part.mjs';

const { Kafka, Partitioners, logLevel } = kafkajs;
const TOPIC = 'latency';

export const method = `Method (single-produce latency)
  what          COUNT produces of one S-byte message to partition 0 of a 1-partition topic created at
                broker start, acks=all, each awaited before the next is sent; one unmeasured produce
                first (connections, metadata). p50/p99 nearest rank, and the maximum, in microseconds.
  kafkajs       producer.send() in this Node process, timed with performance.now() around the await.
  librdkafka    ${rdkafkaVersion() ?? 'confluent_kafka'}: produce() then flush(), linger.ms=0, timed with
                time.perf_counter() around both (bench/lib/rdkafka-client.py latency).
  runs          one fresh broker per target and run, kafkajs then librdkafka on it; targets interleaved.
                On a shared 2-core machine the tail (p99, max) is mostly scheduling noise.`;

async function kafkajsLatency(bootstrap, o) {
  const kafka = new Kafka({ clientId: 'bench-latency', brokers: bootstrap, logLevel: logLevel.NOTHING });
  const producer = kafka.producer({ createPartitioner: Partitioners.DefaultPartitioner, allowAutoTopicCreation: false, idempotent: false });
  await producer.connect();
  try {
    const value = Buffer.alloc(o.size, 'x');
    const messages = [{ value, partition: 0 }];
    await producer.send({ topic: TOPIC, acks: -1, messages });
    const us = [];
    for (let i = 0; i < o.count; i++) {
      const t0 = performance.now();
      await producer.send({ topic: TOPIC, acks: -1, messages });
      us.push((performance.now() - t0) * 1000);
    }
    return us;
  } finally {
    await producer.disconnect().catch(() => {});
  }
}

const summarize = (us) => ({ p50: percentile(us, 0.5), p99: percentile(us, 0.99), max: us.length ? Math.max(...us) : null, n: us.length });

/** One run on a fresh broker: kafkajs, then librdkafka; the microseconds of each. */
async function oneRun({ spec, index, error, broker }, o, log) {
  const k = await kafkajsLatency(broker.bootstrap, o);
  const r = await runRdkafka(['latency', broker.bootstrap.join(','), TOPIC, o.count, o.size]);
  if (r.failed) error(`librdkafka: ${r.failed} failed: ${r.errors[0] ?? ''}`);
  const ks = summarize(k);
  const rs = summarize(r.micros);
  log(`  latency ${spec.name} run ${index}: kafkajs p50 ${ks.p50.toFixed(0)} us p99 ${ks.p99.toFixed(0)} us; librdkafka p50 ${rs.p50.toFixed(0)} us p99 ${rs.p99.toFixed(0)} us`);
  return { kafkajs: k, rdkafka: r.micros };
}

export async function run(specs, o, log) {
  const broker = () => ({ brokers: o.brokers, lifetime: o.timeout, topics: [{ name: TOPIC, partitions: 1, replication: 1 }] });
  const until = performance.now() + o.timeout * 1000;
  const { results, errors } = await interleavedRuns(specs, { runs: o.runs, what: 'latency', log, broker, until, reserveMs: 10000 }, (r) => oneRun(r, o, log));
  // Every run's samples pooled: the percentiles are over all of them.
  const summary = {};
  for (const [name, runs] of Object.entries(results)) {
    const k = summarize(runs.flatMap((x) => x.kafkajs));
    const r = summarize(runs.flatMap((x) => x.rdkafka));
    summary[name] = { kafkajsP50: k.p50, kafkajsP99: k.p99, kafkajsMax: k.max, kafkajsN: k.n, rdkafkaP50: r.p50, rdkafkaP99: r.p99, rdkafkaMax: r.max, rdkafkaN: r.n };
  }
  return { summary, errors, failed: errors.length > 0 || Object.values(summary).some((s) => !s.kafkajsN || !s.rdkafkaN) };
}

const ROWS = [
  ['kafkajs p50 (us)', 'kafkajsP50', 0, 'lower'],
  ['kafkajs p99 (us)', 'kafkajsP99', 0, 'lower'],
  ['kafkajs max (us)', 'kafkajsMax', 0, 'lower'],
  ['librdkafka p50 (us)', 'rdkafkaP50', 0, 'lower'],
  ['librdkafka p99 (us)', 'rdkafkaP99', 0, 'lower'],
  ['librdkafka max (us)', 'rdkafkaMax', 0, 'lower'],
];

export function formatTable(result) {
  const o = result.options;
  const n = Object.entries(result.summary).map(([t, s]) => `${t} ${s.kafkajsN}/${s.rdkafkaN}`).join(', ');
  const heading = `single produce, 1 x ${o.size} B, acks=all, awaited one after another, ${o.count} per run x ${o.runs} run(s); ${result.elapsedSeconds.toFixed(1)} s`;
  return partTable(result, heading, ROWS, { title: 'latency', footer: [`samples (kafkajs/librdkafka): ${n}`] });
}

export const part = {
  name: 'latency',
  options: {
    count: { type: 'string', default: '2000' },
    size: { type: 'string', default: '100' },
  },
  defaults: { timeout: 120 },
  run,
  method,
  formatTable,
};

runIfMain(import.meta.url, part);
