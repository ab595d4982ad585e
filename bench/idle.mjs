#!/usr/bin/env node
// An idle broker's memory: spawn it, touch nothing, read its RSS a second
// after the ready line and again once V8 has settled, beside a bare Node.js
// HTTP server (lib/bare-http.mjs) and the peers. Issue 21 asks for ours
// <= bare + 10 MiB.
//
//   npm run build && node bench/idle.mjs [--settle 12] [--runs 3] [--brokers 1]
//   npm run bench -- idle
import { memory } from './lib/proc.mjs';
import { interleavedRuns, summarizeRuns } from './lib/runs.mjs';
import { partTable, runsLine } from './lib/table.mjs';
import { runIfMain } from './lib/part.mjs';
import fs from 'node:fs';

const MiB = 1024 * 1024;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

export const method = `Method (idle memory)
  spawn         each target with no topic of ours (kafkaesque makes its internal topics at start), N broker
                nodes (bare: one node:http server, lib/bare-http.mjs, the floor of a Node.js server process).
  memory        VmRSS (and its anonymous part, RssAnon: heap and malloc, not the binary's pages) of the
                process, in MiB: 1 s after the ready line ("started") and S s after it ("settled": V8's
                memory reducer collects and shrinks the young generation ~8 s after allocation stops).
                Nothing connects.`;

function rssAnon(pid) {
  try {
    return Number(/^RssAnon:\s+(\d+) kB/m.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? NaN) * 1024;
  } catch {
    return NaN;
  }
}

async function oneRun({ spec, broker }, o, log) {
  const r = { readyMs: broker.readyMs };
  await sleep(1000);
  r.rssStartedMiB = memory(broker.pid).rss / MiB;
  await sleep(Math.max(0, o.settle - 1) * 1000);
  r.rssSettledMiB = memory(broker.pid).rss / MiB;
  r.anonSettledMiB = rssAnon(broker.pid) / MiB;
  r.verified = r.rssStartedMiB > 0 && r.rssSettledMiB > 0;
  log(`  idle ${spec.name}: RSS ${r.rssStartedMiB.toFixed(1)} MiB at 1 s, ${r.rssSettledMiB.toFixed(1)} MiB at ${o.settle} s (anon ${r.anonSettledMiB.toFixed(1)})`);
  return r;
}

const KEYS = ['readyMs', 'rssStartedMiB', 'rssSettledMiB', 'anonSettledMiB'];

export async function run(specs, o, log) {
  const broker = () => ({ brokers: o.brokers, lifetime: o.timeout, topics: [] });
  const { results, errors } = await interleavedRuns(specs, { runs: o.runs, what: 'idle', log, broker }, (r) => oneRun(r, o, log));
  const summary = summarizeRuns(results, KEYS, { verified: true });
  return { summary, results, errors, failed: errors.length > 0 || Object.values(summary).some((s) => !s.verified) };
}

const ROWS = [
  ['spawn -> ready (ms)', 'readyMs', 0, 'lower'],
  ['RSS 1 s after ready (MiB)', 'rssStartedMiB', 1, 'lower'],
  ['RSS settled (MiB)', 'rssSettledMiB', 1, 'lower'],
  ['  of it anonymous (MiB)', 'anonSettledMiB', 1, 'lower'],
];

export function formatTable(result) {
  const o = result.options;
  const s = result.summary;
  const footer = [runsLine(s, 'NO memory read')];
  if (s.bare) {
    for (const n of ['ours', 'proxy', 'base']) {
      if (!s[n]) continue;
      const d = (k) => (s[n][k] - s.bare[k]).toFixed(1);
      footer.push(`${n} - bare: ${d('rssStartedMiB')} MiB started, ${d('rssSettledMiB')} MiB settled (issue 21: <= 10)`);
    }
  }
  const heading = `idle, ${o.brokers} broker node(s), settled at ${o.settle} s, ${o.runs} run(s); ${result.elapsedSeconds.toFixed(1)} s`;
  return partTable(result, heading, ROWS, { footer });
}

export const part = {
  name: 'idle',
  options: {
    settle: { type: 'string', default: '12' },
  },
  defaults: { timeout: 180, targets: 'kfake,ours,bare', brokers: 1, runs: 3 },
  targets: ['mock', 'ours', 'proxy', 'bare'],
  run,
  method,
  formatTable,
};

runIfMain(import.meta.url, part);
