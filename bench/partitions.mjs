#!/usr/bin/env node
// 10,000 partitions: create them, time Metadata for the topic, produce one
// record to each partition, and the broker's memory at each step; against
// the mock and ours (add proxy with --targets).
//
//   npm run build && node bench/partitions.mjs [--partitions 10000] [--settle 20]
//   npm run bench -- partitions
import { memory } from './lib/proc.mjs';
import { interleavedRuns, summarizeRuns, withBroker } from './lib/runs.mjs';
import { median } from './lib/stats.mjs';
import { partTable, runsLine } from './lib/table.mjs';
import { runIfMain } from './lib/part.mjs';
import { API, WireClient, brokerAddresses, buildRecordBatch } from './lib/wire.mjs';

const TOPIC = 'wide';

export const method = `Method (many partitions)
  create        ours: one CreateTopics v4 request (P partitions, rf 1) on a running cluster, timed to its
                answer; the mock has no CreateTopics, so it gets the topic at start (-t wide:P:1) and its
                row shows spawn -> ready with the topic (ours': spawn -> ready without it).
  metadata      Metadata v4 for that one topic (P partitions) on one connection, median of 5, after one
                unmeasured request.
  produce       one 1-record batch (100-byte value) to every partition: one Produce v7 request per leader
                node holding all the partitions it leads, acks=all, sent at once; timed to the last answer;
                every partition must answer NONE.
  memory        VmRSS of the broker process before the topic (ours), after it exists, after the produce;
                per-partition = (after create - before) / P (ours) or (with topic - without topic) / P
                (mock: a second mock spawned without it). "settled": the same after S s with nothing asked
                (--settle, 0 = not), both before and after the topic, once the garbage of start-up and of
                making the topic is collected; per-partition settled = (settled after - settled before) / P.`;

async function oneRun({ spec }, o, log) {
  // The mock has no CreateTopics: it gets the topic at start, and its memory
  // without the topic is a bare mock's.
  const withTopicAtStart = spec.name === 'mock';
  const topics = withTopicAtStart ? [{ name: TOPIC, partitions: o.partitions, replication: 1 }] : [];
  const r = {};
  if (withTopicAtStart) r.rssBeforeMB = await withBroker(spec, { brokers: o.brokers, lifetime: o.timeout, topics: [] }, (bare) => memory(bare.pid).rss / 1e6);
  return withBroker(spec, { brokers: o.brokers, lifetime: o.timeout, topics }, (broker) => measure(spec, broker, withTopicAtStart, r, o, log));
}

/**
 * Waits --settle seconds with nothing asked: what a process keeps, once the
 * garbage of making it is gone (V8's memory reducer collects and shrinks the
 * young generation ~8 s after allocation stops; Go's scavenger returns pages).
 */
const settle = (o) => new Promise((resolve) => setTimeout(resolve, o.settle * 1000));

async function measure(spec, broker, withTopicAtStart, r, o, log) {
  const clients = new Map();
  try {
    r.readyMs = broker.readyMs;
    const first = await WireClient.connect(broker.bootstrap[0]);
    clients.set(-1, first);
    if (!withTopicAtStart) {
      r.rssBeforeMB = memory(broker.pid).rss / 1e6;
      if (o.settle > 0) {
        await settle(o);
        r.rssBeforeSettledMB = memory(broker.pid).rss / 1e6;
      }
      // CreateTopics goes to the controller, as Kafka's clients send it
      // (kfake answers NOT_CONTROLLER elsewhere; ours takes it anywhere).
      const meta = await first.request(API.Metadata, 4, { topics: [], allowAutoTopicCreation: false });
      const controllerAddr = brokerAddresses(meta).get(meta.controllerId);
      const controller = controllerAddr && controllerAddr !== broker.bootstrap[0] ? await WireClient.connect(controllerAddr) : first;
      if (controller !== first) clients.set(-2, controller);
      const t0 = performance.now();
      const res = await controller.request(API.CreateTopics, 4, { topics: [{ name: TOPIC, numPartitions: o.partitions, replicationFactor: 1, assignments: [], configs: [] }], timeoutMs: 60000, validateOnly: false }, 120000);
      r.createMs = performance.now() - t0;
      const code = res.topics[0]?.errorCode;
      if (code !== 0) throw new Error(`CreateTopics answered error ${code}: ${res.topics[0]?.errorMessage}`);
    }
    r.rssCreatedMB = memory(broker.pid).rss / 1e6;
    if (o.settle > 0) {
      await settle(o);
      r.rssSettledMB = memory(broker.pid).rss / 1e6;
      r.rssPerPartitionSettledKB = ((r.rssSettledMB - (r.rssBeforeSettledMB ?? r.rssBeforeMB)) * 1000) / o.partitions;
    }
    const mdReq = { topics: [{ name: TOPIC }], allowAutoTopicCreation: false };
    let md = await first.request(API.Metadata, 4, mdReq);
    const times = [];
    for (let i = 0; i < 5; i++) {
      const t0 = performance.now();
      md = await first.request(API.Metadata, 4, mdReq);
      times.push(performance.now() - t0);
    }
    r.metadataMs = median(times);
    const parts = md.topics[0]?.partitions ?? [];
    if (parts.length !== o.partitions) throw new Error(`Metadata lists ${parts.length} partitions of ${TOPIC}, not ${o.partitions}`);
    const addresses = brokerAddresses(md);
    const byLeader = new Map();
    for (const p of parts) {
      if (!byLeader.has(p.leaderId)) byLeader.set(p.leaderId, []);
      byLeader.get(p.leaderId).push(p.partitionIndex);
    }
    for (const id of byLeader.keys()) clients.set(id, await WireClient.connect(addresses.get(id)));
    const records = buildRecordBatch([{ value: Buffer.alloc(100, 0x61) }]);
    const t0 = performance.now();
    const answers = await Promise.all(
      [...byLeader].map(([id, indexes]) =>
        clients.get(id).request(API.Produce, 7, { transactionalId: null, acks: -1, timeoutMs: 60000, topicData: [{ name: TOPIC, partitionData: indexes.map((index) => ({ index, records })) }] }, 120000),
      ),
    );
    r.produceMs = performance.now() - t0;
    let ok = 0;
    for (const a of answers) for (const t of a.responses) for (const p of t.partitionResponses) if (p.errorCode === 0) ok++;
    r.producedPartitions = ok;
    r.rssProducedMB = memory(broker.pid).rss / 1e6;
    r.rssPerPartitionKB = ((r.rssCreatedMB - r.rssBeforeMB) * 1000) / o.partitions;
    r.verified = ok === o.partitions;
    log(`  partitions ${spec.name}: create ${r.createMs?.toFixed(0) ?? '-'} ms, metadata ${r.metadataMs.toFixed(1)} ms, produce to all ${r.produceMs.toFixed(0)} ms (${ok} ok), RSS ${r.rssBeforeMB.toFixed(1)} -> ${r.rssCreatedMB.toFixed(1)} -> ${r.rssProducedMB.toFixed(1)} MB`);
    return r;
  } finally {
    for (const c of clients.values()) c.close();
  }
}

const KEYS = ['readyMs', 'createMs', 'metadataMs', 'produceMs', 'rssBeforeMB', 'rssBeforeSettledMB', 'rssCreatedMB', 'rssSettledMB', 'rssProducedMB', 'rssPerPartitionKB', 'rssPerPartitionSettledKB'];

export async function run(specs, o, log) {
  const { results, errors } = await interleavedRuns(specs, { runs: o.runs, what: 'partitions', log }, (r) => oneRun(r, o, log));
  const summary = summarizeRuns(results, KEYS, { verified: true });
  return { summary, results, errors, failed: errors.length > 0 || Object.values(summary).some((s) => !s.verified) };
}

const ROWS = [
  ['spawn -> ready (ms)', 'readyMs', 0, 'lower'],
  ['CreateTopics (ms)', 'createMs', 0, 'lower'],
  ['Metadata for the topic (ms)', 'metadataMs', 1, 'lower'],
  ['produce 1 record to each (ms)', 'produceMs', 0, 'lower'],
  ['RSS before the topic (MB)', 'rssBeforeMB', 1, 'lower'],
  ['  the same, settled (MB)', 'rssBeforeSettledMB', 1, 'lower'],
  ['RSS with the topic (MB)', 'rssCreatedMB', 1, 'lower'],
  ['  the same, settled (MB)', 'rssSettledMB', 1, 'lower'],
  ['RSS after the produce (MB)', 'rssProducedMB', 1, 'lower'],
  ['RSS per partition (KB)', 'rssPerPartitionKB', 2, 'lower'],
  ['  the same, settled (KB)', 'rssPerPartitionSettledKB', 2, 'lower'],
];

export function formatTable(result) {
  const o = result.options;
  const heading = `${o.partitions.toLocaleString('en-US')} partitions, rf 1, ${o.brokers} broker nodes, ${o.runs} run(s); ${result.elapsedSeconds.toFixed(1)} s`;
  return partTable(result, heading, ROWS, { footer: [runsLine(result.summary, 'NOT all partitions answered NONE')] });
}

export const part = {
  name: 'partitions',
  options: {
    partitions: { type: 'string', default: '10000' },
    settle: { type: 'string', default: '20' },
  },
  defaults: { timeout: 240, targets: 'mock,ours' },
  run,
  method,
  formatTable,
};

runIfMain(import.meta.url, part);
