#!/usr/bin/env node
// First-record benchmark: on a fresh cluster, how long a kafkajs consumer
// takes from connect() to its first record, and where that time goes
// (FindCoordinator, JoinGroup, SyncGroup, OffsetFetch, ListOffsets, the first
// Fetch), warm (the default start) against --cold-start. Numbers, never
// assertions.
//
//   npm run build && node bench/first-record.mjs            # 1 and 3 brokers, 7 runs each
//   node bench/first-record.mjs --runs 11 --brokers 1
//
// Each run starts a cluster in this process (startCluster from dist/, proxy
// on, as users run it), produces one record with a direct producer, then
// times a new consumer group. kafkajs's request instrumentation events give
// the steps; their times are from connect().

import { performance } from 'node:perf_hooks';
import kafkajs from 'kafkajs';
import { startCluster } from '../dist/index.js';
import { median } from './lib/stats.mjs';

const { Kafka, logLevel } = kafkajs;
const args = process.argv.slice(2);
const option = (name, fallback) => {
  const i = args.indexOf(`--${name}`);
  return i < 0 ? fallback : args[i + 1];
};
const runs = Number(option('runs', 7));
const brokerCounts = String(option('brokers', '1,3')).split(',').map(Number);
const STEPS = ['FindCoordinator', 'JoinGroup', 'SyncGroup', 'OffsetFetch', 'ListOffsets', 'Fetch'];
// kafkajs names FindCoordinator by its old name.
const KAFKAJS_NAMES = { GroupCoordinator: 'FindCoordinator' };

async function once(brokers, coldStart) {
  const kafka = await startCluster({ brokers, coldStart, topics: [{ name: 't', partitions: 1 }] });
  const client = new Kafka({ brokers: kafka.bootstrap.split(','), logLevel: logLevel.NOTHING, retry: { retries: 10 } });
  const producer = client.producer();
  await producer.connect();
  await producer.send({ topic: 't', messages: [{ value: 'x' }] });
  await producer.disconnect();
  const consumer = client.consumer({ groupId: 'g', maxWaitTimeInMs: 100 });
  const steps = {};
  const t0 = performance.now();
  consumer.on(consumer.events.REQUEST, ({ payload }) => {
    // The first answer of each API, as ms from connect().
    const api = KAFKAJS_NAMES[payload.apiName] ?? payload.apiName;
    if (STEPS.includes(api) && steps[api] === undefined) steps[api] = performance.now() - t0;
  });
  let first;
  const got = new Promise((resolve) => (first = resolve));
  await consumer.connect();
  await consumer.subscribe({ topic: 't', fromBeginning: true });
  await consumer.run({ eachMessage: async () => first(performance.now() - t0) });
  const total = await got;
  await consumer.disconnect();
  await kafka.stop();
  return { total, steps };
}

const fmt = (v) => (v === undefined ? '–' : v.toFixed(1));
console.log(`kafkajs connect() → first record, fresh cluster, proxy on; median of ${runs} runs, ms from connect()`);
console.log(['brokers', 'start', 'first record', ...STEPS.map((s) => `${s} answered`)].join(' | '));
for (const brokers of brokerCounts) {
  for (const coldStart of [true, false]) {
    const results = [];
    for (let i = 0; i < runs; i++) results.push(await once(brokers, coldStart));
    const row = [brokers, coldStart ? 'cold' : 'warm', fmt(median(results.map((r) => r.total)))];
    for (const s of STEPS) {
      const seen = results.map((r) => r.steps[s]).filter((v) => v !== undefined);
      row.push(seen.length ? fmt(median(seen)) : undefined);
    }
    console.log(row.map((v) => v ?? '–').join(' | '));
  }
}
