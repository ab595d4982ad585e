#!/usr/bin/env node
// One file of the whole-suite benchmark (suite/suite.test.template.js) outside
// jest, request by request: when each kafkajs request was answered and how
// long it took, on a topic that exists (as `ours-topics` in suite.mjs). It
// tells the broker's time per request from the client's own waits (kafkajs's
// retry back-offs, a Fetch's max wait), and whether the broker sharing the
// client's event loop (jest in band, `ours` in suite.mjs) costs anything.
//
//   npm run build && node bench/suite-timeline.mjs [--runs 8] [--targets ours-in-process,ours,kfake] [--print]
//
// Targets: ours-in-process (startCluster in this process, proxy on: jest in
// band with the preset), ours (`kafkaesque start --no-proxy`, a process of
// its own), kfake (bench/kfake). Runs after the first are kept; medians.
// NODE_ENV=test, so kafkajs takes the retry defaults it takes under jest.
process.env.NODE_ENV = 'test';
import { parseArgs } from 'node:util';
import { performance } from 'node:perf_hooks';
import { createRequire } from 'node:module';
import { startBroker } from './lib/broker-process.mjs';
import { kfakeSpec, oursSpec, repoDir } from './lib/targets.mjs';

const require = createRequire(import.meta.url);
const { Kafka, logLevel } = require('kafkajs');

const { values } = parseArgs({ options: { runs: { type: 'string', default: '8' }, targets: { type: 'string', default: 'ours-in-process,ours,kfake' }, print: { type: 'boolean', default: false } } });
const runs = Number(values.runs);
const RECORDS = 100;
const topics = Array.from({ length: runs }, (_, i) => ({ name: `t${i}`, partitions: 1, replication: 1 }));

async function start(target) {
  if (target === 'ours-in-process') {
    const { startCluster } = await import(`${repoDir}/dist/index.js`);
    const c = await startCluster({ brokers: 1, logLevel: 'silent', topics: topics.map(({ name, partitions }) => ({ name, partitions })) });
    return { bootstrap: c.bootstrap.split(','), stop: () => c.stop() };
  }
  const spec = target === 'kfake' ? kfakeSpec() : oursSpec(undefined, ['--no-proxy', '--log-level', 'warn']);
  const b = await startBroker(spec, { brokers: 1, lifetime: 120, topics });
  return { bootstrap: b.bootstrap, stop: () => b.stop() };
}

/** The suite file's steps on topic t<i>, with every answered request. */
async function oneFile(bootstrap, i) {
  const kafka = new Kafka({ clientId: `timeline-${i}`, brokers: bootstrap, logLevel: logLevel.NOTHING });
  const t0 = performance.now();
  const at = () => performance.now() - t0;
  const requests = [];
  const track = (who, client) => client.on(client.events.REQUEST, (e) => requests.push({ who, api: e.payload.apiName, end: at(), ms: e.payload.duration }));
  const topic = `t${i}`;
  const marks = {};
  const producer = kafka.producer();
  track('producer', producer);
  await producer.connect();
  await producer.send({ topic, messages: Array.from({ length: RECORDS }, (_, j) => ({ key: `k${j}`, value: `v${j}`, partition: 0 })) });
  await producer.disconnect();
  marks.produced = at();
  const consumer = kafka.consumer({ groupId: `g${i}`, maxWaitTimeInMs: 100 });
  track('consumer', consumer);
  let seen = 0;
  await consumer.connect();
  await consumer.subscribe({ topic, fromBeginning: true });
  await new Promise((resolve, reject) => {
    consumer
      .run({
        autoCommit: false,
        eachMessage: async () => {
          if (seen === 0) marks.firstRecord = at();
          if (++seen === RECORDS) resolve();
        },
      })
      .catch(reject);
  });
  marks.consumed = at();
  await consumer.commitOffsets([{ topic, partition: 0, offset: String(RECORDS) }]);
  marks.committed = at();
  await consumer.disconnect();
  marks.consumerClosed = at();
  const admin = kafka.admin();
  track('admin', admin);
  await admin.connect();
  await admin.fetchOffsets({ groupId: `g${i}`, topics: [topic] });
  await admin.disconnect();
  marks.checked = at();
  return { marks, requests };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
const rows = [];
for (const target of values.targets.split(',')) {
  const broker = await start(target);
  const files = [];
  try {
    for (let i = 0; i < runs; i++) files.push(await oneFile(broker.bootstrap, i));
  } finally {
    await broker.stop();
  }
  const kept = files.slice(1);
  const marks = Object.fromEntries(Object.keys(kept[0].marks).map((k) => [k, median(kept.map((f) => f.marks[k]))]));
  // The broker's own time: the sum of kafkajs's request durations, Fetch's long poll left out.
  const brokerMs = median(kept.map((f) => f.requests.filter((r) => !(r.api === 'Fetch' && r.ms >= 50)).reduce((s, r) => s + r.ms, 0)));
  rows.push({ target, ...marks, brokerMs });
  if (values.print) {
    console.log(`${target}, the last file's requests (ms from its start):`);
    for (const r of files.at(-1).requests) console.log(`  ${r.who.padEnd(8)} ${r.api.padEnd(18)} answered at ${r.end.toFixed(1).padStart(6)}, took ${r.ms}`);
  }
}
console.log(`one suite file outside jest, ${runs - 1} kept runs each, medians, ms from the file's start (NODE_ENV=test)`);
const keys = ['produced', 'firstRecord', 'consumed', 'committed', 'consumerClosed', 'checked', 'brokerMs'];
console.log(['target'.padEnd(16), ...keys.map((k) => k.padStart(15))].join(''));
for (const r of rows) console.log([r.target.padEnd(16), ...keys.map((k) => r[k].toFixed(1).padStart(15))].join(''));
process.exit(0);
