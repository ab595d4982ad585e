#!/usr/bin/env node
// 500 client connections held at once: open them, ApiVersions + Metadata on
// each, the broker's memory and the time it took; then a produce on a sample
// of them while all stay open. Against the mock, ours and ours through the proxy.
//
//   npm run build && node bench/connections.mjs [--connections 500] [--sample 50]
//   npm run bench -- connections
import { memory, cpuSeconds } from './lib/proc.mjs';
import { interleavedRuns, summarizeRuns } from './lib/runs.mjs';
import { partTable, runsLine } from './lib/table.mjs';
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

async function oneRun({ spec, broker }, o, log) {
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
  }
}

const KEYS = ['openMs', 'rssBeforeMB', 'rssOpenMB', 'rssPerConnectionKB', 'produceMs', 'brokerCpu'];

export async function run(specs, o, log) {
  const broker = () => ({ brokers: o.brokers, lifetime: o.timeout, topics: [{ name: TOPIC, partitions: o.brokers, replication: 1 }] });
  const { results, errors } = await interleavedRuns(specs, { runs: o.runs, what: 'connections', log, broker }, (r) => oneRun(r, o, log));
  const summary = summarizeRuns(results, KEYS, { verified: true });
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
  const heading = `${o.connections} connections held, produce on ${o.sample}, ${o.brokers} broker nodes, ${o.runs} run(s); ${result.elapsedSeconds.toFixed(1)} s`;
  return partTable(result, heading, ROWS, { footer: [runsLine(result.summary)] });
}

export const part = {
  name: 'connections',
  options: {
    connections: { type: 'string', default: '500' },
    sample: { type: 'string', default: '50' },
  },
  defaults: { timeout: 120 },
  run,
  method,
  formatTable,
};

runIfMain(import.meta.url, part);
