#!/usr/bin/env node
// Latency of a single produce: one message, acks=all, each awaited before the
// next, with kafkajs (in this process) and librdkafka (confluent_kafka),
// against the mock, ours and ours through the proxy.
//
//   npm run build && node bench/latency.mjs [--count 2000]
//   npm run bench -- latency
import kafkajs from 'kafkajs';

import { startBroker } from './lib/broker-process.mjs';
import { rdkafkaVersion, runRdkafka } from './lib/rdkafka.mjs';
import { percentile } from './lib/stats.mjs';
import { ratioTable } from './lib/table.mjs';
import { orderFor } from './lib/targets.mjs';
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

export async function run(specs, o, log) {
  const samples = Object.fromEntries(specs.map((s) => [s.name, { kafkajs: [], rdkafka: [] }]));
  const errors = [];
  const deadline = performance.now() + o.timeout * 1000;
  for (let i = 0; i < o.runs; i++) {
    for (const spec of orderFor(specs, i)) {
      if (performance.now() > deadline - 10000) {
        log(`  time budget nearly spent: skipping latency run ${i + 1} of ${spec.name}`);
        continue;
      }
      let broker;
      try {
        broker = await startBroker(spec, { brokers: o.brokers, lifetime: o.timeout, topics: [{ name: TOPIC, partitions: 1, replication: 1 }] });
        const k = await kafkajsLatency(broker.bootstrap, o);
        samples[spec.name].kafkajs.push(...k);
        const r = await runRdkafka(['latency', broker.bootstrap.join(','), TOPIC, o.count, o.size]);
        if (r.failed) errors.push(`${spec.name} run ${i + 1}: librdkafka: ${r.failed} failed: ${r.errors[0] ?? ''}`);
        samples[spec.name].rdkafka.push(...r.micros);
        const ks = summarize(k);
        const rs = summarize(r.micros);
        log(`  latency ${spec.name} run ${i + 1}: kafkajs p50 ${ks.p50.toFixed(0)} us p99 ${ks.p99.toFixed(0)} us; librdkafka p50 ${rs.p50.toFixed(0)} us p99 ${rs.p99.toFixed(0)} us`);
      } catch (err) {
        errors.push(`${spec.name} run ${i + 1}: ${err.message}`);
        log(`  latency ${spec.name} run ${i + 1} failed: ${err.message.split('\n')[0]}`);
      } finally {
        await broker?.stop();
      }
    }
  }
  const summary = {};
  for (const [name, s] of Object.entries(samples)) {
    const k = summarize(s.kafkajs);
    const r = summarize(s.rdkafka);
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
  const lines = [
    `single produce, 1 x ${o.size} B, acks=all, awaited one after another, ${o.count} per run x ${o.runs} run(s); ${result.elapsedSeconds.toFixed(1)} s`,
    ...ratioTable(result.summary, ROWS, { title: 'latency' }),
    `samples (kafkajs/librdkafka): ${n}`,
  ];
  for (const e of result.errors) lines.push(`error: ${e}`);
  return lines.join('\n');
}

export const part = {
  name: 'latency',
  usage: 'node bench/latency.mjs [--count 2000] [--size 100] [--brokers 3] [--runs 1] [--targets mock,ours,proxy] [--timeout 120] [--json FILE] [--quiet]\n',
  options: {
    count: { type: 'string', default: '2000' },
    size: { type: 'string', default: '100' },
    brokers: { type: 'string', default: '3' },
    runs: { type: 'string', default: '1' },
  },
  defaults: { timeout: 120 },
  run,
  method,
  formatTable,
};

runIfMain(import.meta.url, part);
