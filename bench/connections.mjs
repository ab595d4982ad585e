#!/usr/bin/env node
// 500 client connections held at once: open them, ApiVersions + Metadata on
// each, the broker's memory and the time it took; then a produce on a sample
// of them while all stay open. Against the mock, ours and ours through the proxy.
//
//   npm run build && node bench/connections.mjs [--connections 500] [--sample 50]
//   npm run bench -- connections
import { startBroker } from './lib/broker-process.mjs';
import { memory, cpuSeconds } from './lib/proc.mjs';
import { median } from './lib/stats.mjs';
import { ratioTable } from './lib/table.mjs';
import { orderFor } from './lib/targets.mjs';
import { runIfMain } from './lib/part.mjs';
import { API, WireClient, buildRecordBatch } from './lib/wire.mjs';

const TOPIC = 'conns';

export const method = `Method (connections held)
  open          C sockets, round-robin over the bootstrap addresses, opened all at once; on each,
                ApiVersions v3 then Metadata v4 for a topic created at start (one partition per node,
                rf 1); timed from the first connect() to the last Metadata answer.
  memory        VmRSS of the broker process before connecting and with all C connections open;
                per connection = difference / C.
  produce       on S of the open connections (spread over the nodes, each to a partition its node
                leads), one Produce v7 of 1 record, acks=all, all at once; timed to the last answer,
                every answer must be NONE. Broker CPU: utime+stime over the whole run.`;

async function oneRun(spec, o, log) {
  const broker = await startBroker(spec, { brokers: o.brokers, lifetime: o.timeout, topics: [{ name: TOPIC, partitions: o.brokers, replication: 1 }] });
  const clients = [];
  try {
    const r = { readyMs: broker.readyMs };
    const cpu0 = cpuSeconds(broker.pid);
    r.rssBeforeMB = memory(broker.pid).rss / 1e6;
    const t0 = performance.now();
    const mds = await Promise.all(
      Array.from({ length: o.connections }, async (_, i) => {
        const address = broker.bootstrap[i % broker.bootstrap.length];
        const c = await WireClient.connect(address, 30000);
        clients[i] = c;
        await c.request(API.ApiVersions, 3, { clientSoftwareName: 'bench', clientSoftwareVersion: '1' });
        const md = await c.request(API.Metadata, 4, { topics: [{ name: TOPIC }], allowAutoTopicCreation: false });
        // Which node this connection reached: the broker whose address we dialled.
        const node = md.brokers.find((b) => `${b.host}:${b.port}` === address)?.nodeId;
        return { md, node };
      }),
    );
    r.openMs = performance.now() - t0;
    r.rssOpenMB = memory(broker.pid).rss / 1e6;
    r.rssPerConnectionKB = ((r.rssOpenMB - r.rssBeforeMB) * 1000) / o.connections;

    const leaders = new Map(mds[0].md.topics[0].partitions.map((p) => [p.leaderId, p.partitionIndex]));
    const records = buildRecordBatch([{ value: Buffer.alloc(100, 0x61) }]);
    const sample = [];
    for (let i = 0; i < o.connections && sample.length < o.sample; i += Math.max(1, Math.floor(o.connections / o.sample))) {
      const partition = leaders.get(mds[i].node);
      if (partition !== undefined) sample.push([clients[i], partition]);
    }
    const t1 = performance.now();
    const answers = await Promise.all(
      sample.map(([c, index]) => c.request(API.Produce, 7, { transactionalId: null, acks: -1, timeoutMs: 30000, topicData: [{ name: TOPIC, partitionData: [{ index, records }] }] })),
    );
    r.produceMs = performance.now() - t1;
    r.sampled = sample.length;
    r.producedOk = answers.filter((a) => a.responses[0]?.partitionResponses[0]?.errorCode === 0).length;
    r.brokerCpu = cpuSeconds(broker.pid).total - cpu0.total;
    r.verified = r.sampled > 0 && r.producedOk === r.sampled && clients.length === o.connections;
    log(`  connections ${spec.name}: ${o.connections} open in ${r.openMs.toFixed(0)} ms, RSS ${r.rssBeforeMB.toFixed(1)} -> ${r.rssOpenMB.toFixed(1)} MB, produce on ${r.sampled}: ${r.produceMs.toFixed(1)} ms (${r.producedOk} ok)`);
    return r;
  } finally {
    for (const c of clients) c?.close();
    await broker.stop();
  }
}

const KEYS = ['openMs', 'rssBeforeMB', 'rssOpenMB', 'rssPerConnectionKB', 'produceMs', 'brokerCpu'];

export async function run(specs, o, log) {
  const results = Object.fromEntries(specs.map((s) => [s.name, []]));
  const errors = [];
  for (let i = 0; i < o.runs; i++) {
    for (const spec of orderFor(specs, i)) {
      try {
        results[spec.name].push(await oneRun(spec, o, log));
      } catch (err) {
        errors.push(`${spec.name} run ${i + 1}: ${err.message}`);
        log(`  connections ${spec.name} run ${i + 1} failed: ${err.message.split('\n')[0]}`);
      }
    }
  }
  const summary = {};
  for (const [name, runs] of Object.entries(results)) {
    summary[name] = Object.fromEntries(KEYS.map((k) => [k, median(runs.map((r) => r[k]))]));
    summary[name].runs = runs.length;
    summary[name].verified = runs.length > 0 && runs.every((r) => r.verified);
  }
  return { summary, results, errors, failed: errors.length > 0 || Object.values(summary).some((s) => !s.verified) };
}

const ROWS = [
  ['open + ApiVersions + Metadata (ms)', 'openMs', 0, 'lower'],
  ['RSS before (MB)', 'rssBeforeMB', 1, 'lower'],
  ['RSS with all open (MB)', 'rssOpenMB', 1, 'lower'],
  ['RSS per connection (KB)', 'rssPerConnectionKB', 1, 'lower'],
  ['produce on the sample (ms)', 'produceMs', 1, 'lower'],
  ['broker CPU, whole run (s)', 'brokerCpu', 2, 'lower'],
];

export function formatTable(result) {
  const o = result.options;
  const lines = [
    `${o.connections} connections held, produce on ${o.sample}, ${o.brokers} broker nodes, ${o.runs} run(s); ${result.elapsedSeconds.toFixed(1)} s`,
    ...ratioTable(result.summary, ROWS),
    `runs: ${Object.entries(result.summary).map(([n, x]) => `${n} ${x.runs}${x.verified ? '' : ' (NOT verified)'}`).join(', ')}`,
  ];
  for (const e of result.errors) lines.push(`error: ${e}`);
  return lines.join('\n');
}

export const part = {
  name: 'connections',
  usage: 'node bench/connections.mjs [--connections 500] [--sample 50] [--brokers 3] [--runs 1] [--targets mock,ours,proxy] [--timeout 120] [--json FILE] [--quiet]\n',
  options: {
    connections: { type: 'string', default: '500' },
    sample: { type: 'string', default: '50' },
    brokers: { type: 'string', default: '3' },
    runs: { type: 'string', default: '1' },
  },
  defaults: { timeout: 120 },
  run,
  method,
  formatTable,
};

runIfMain(import.meta.url, part);
