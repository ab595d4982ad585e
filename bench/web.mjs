#!/usr/bin/env node
// The web view under load: does the page stay responsive while 100,000
// events stream into its timeline, beside a 10,000-partition topic? Issue 16
// asks for it. A real cluster behind its proxy, a fault rule that fires on
// every ApiVersions request, raw pipelined requests through the proxy to
// fire it, and Debian's chromium (playwright-core) with the live page open
// at the control URL, following GET /v1/events as it always does.
//
//   npm run build && node bench/web.mjs [--events 100000] [--partitions 10000] [--rate 0] [--connections 4]
//
// --rate caps the events fired per second (0: as fast as the proxy answers).
// Prints what the page did while the events came in and what its
// interactions cost once they were all there. Needs /usr/bin/chromium
// (scripts/install-test-clients.sh) or KAFKAESQUE_CHROMIUM.
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { performance } from 'node:perf_hooks';
import { chromium } from 'playwright-core';

import { startCluster } from '../dist/index.js';
import { API, WireClient } from './lib/wire.mjs';
import { fmt, median, percentile } from './lib/stats.mjs';
import { alignRows } from './lib/table.mjs';

const { values: o } = parseArgs({
  options: {
    events: { type: 'string', default: '100000' },
    partitions: { type: 'string', default: '10000' },
    rate: { type: 'string', default: '0' },
    connections: { type: 'string', default: '4' },
    timeout: { type: 'string', default: '300' },
    profile: { type: 'boolean', default: false },
  },
});
const EVENTS = Number(o.events);
const PARTITIONS = Number(o.partitions);
const RATE = Number(o.rate);
const CONNECTIONS = Number(o.connections);
const IN_FLIGHT = 200; // per connection
const CHROMIUM = process.env.KAFKAESQUE_CHROMIUM ?? '/usr/bin/chromium';
const MiB = 1024 * 1024;

const deadline = setTimeout(() => {
  console.error(`bench/web.mjs: gave up after ${o.timeout} s`);
  process.exit(1);
}, Number(o.timeout) * 1000);
deadline.unref();

const log = (s) => console.error(s);

/** Fires `n` ApiVersions requests through the proxy, `IN_FLIGHT` at a time per connection, at most `rate`/s. */
async function fire(bootstrap, n, rate) {
  const clients = await Promise.all(Array.from({ length: CONNECTIONS }, () => WireClient.connect(bootstrap)));
  const started = performance.now();
  let next = 0;
  const worker = async (c) => {
    while (next < n) {
      const batch = Math.min(IN_FLIGHT, n - next);
      next += batch;
      if (rate > 0) {
        const due = started + (next / rate) * 1000;
        const wait = due - performance.now();
        if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      }
      await Promise.all(Array.from({ length: batch }, () => c.request(API.ApiVersions, 0, {})));
    }
  };
  await Promise.all(clients.map(worker));
  for (const c of clients) c.close();
  return performance.now() - started;
}

// In the page: every frame's gap and every long task, from now on.
function installProbes() {
  const w = window;
  w.__frames = [];
  w.__longTasks = [];
  let last = performance.now();
  const tick = (t) => {
    w.__frames.push(t - last);
    last = t;
    w.__raf = requestAnimationFrame(tick);
  };
  w.__raf = requestAnimationFrame(tick);
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) w.__longTasks.push(e.duration);
  }).observe({ type: 'longtask' });
}

function takeProbes() {
  const w = window;
  const r = { frames: w.__frames, longTasks: w.__longTasks };
  w.__frames = [];
  w.__longTasks = [];
  return r;
}

// In the page: runs `what` (an interaction), then waits for the frame that paints its result; ms from input to that paint.
async function timed({ what, arg }) {
  const start = performance.now();
  const el = document.querySelector(what === 'filter' ? '#timeline-filter' : '#timeline .vlist');
  if (what === 'filter') {
    el.value = arg;
    el.dispatchEvent(new Event('input'));
  } else el.scrollTop = arg === 'top' ? 0 : arg === 'bottom' ? el.scrollHeight : el.scrollHeight / 2;
  // The list redraws in the next animation frame, before ours (it asked first); the frame after that is the first to show it.
  let redrawn = 0;
  await new Promise((r) =>
    requestAnimationFrame(() => {
      redrawn = performance.now() - start;
      requestAnimationFrame(r);
    }),
  );
  return { redrawn, shown: performance.now() - start };
}

/** --profile: the page's functions by self time while the events streamed in (the top 15). */
function printHotFunctions(profile) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map();
  const dt = profile.timeDeltas;
  profile.samples.forEach((id, i) => {
    const f = byId.get(id).callFrame;
    const key = `${f.functionName || '(anonymous)'} ${f.url.split('/').pop()}:${f.lineNumber + 1}`;
    self.set(key, (self.get(key) ?? 0) + (dt[i] ?? 0) / 1000);
  });
  const top = [...self].sort((a, b) => b[1] - a[1]).slice(0, 15);
  log('page self time while streaming (ms):');
  for (const [k, ms] of top) log(`  ${fmt(ms, 1).padStart(8)}  ${k}`);
}

async function main() {
  const cluster = await startCluster({ brokers: 1, topics: [{ name: 'wide', partitions: PARTITIONS, replicationFactor: 1 }, { name: 'orders', partitions: 3 }] });
  const profile = mkdtempSync(join(tmpdir(), 'kafkaesque-bench-web-'));
  let context;
  try {
    context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
      headless: true,
      viewport: { width: 1200, height: 860 },
      timeout: 30_000,
    });
    const page = await context.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(e.message));
    const cdp = await context.newCDPSession(page);
    await cdp.send('Performance.enable');
    const metrics = async () => Object.fromEntries((await cdp.send('Performance.getMetrics')).metrics.map((m) => [m.name, m.value]));

    const t0 = performance.now();
    await page.goto(cluster.controlUrl + '/');
    await page.locator('#topics [data-topic="wide"]').waitFor({ timeout: 30_000 });
    const loadMs = performance.now() - t0;
    await page.evaluate(installProbes);

    if (o.profile) {
      await cdp.send('Profiler.enable');
      await cdp.send('Profiler.start');
    }
    const rule = cluster.chaos.addRule({ id: 'bench-web', match: { api: 'ApiVersions' }, action: { type: 'delay', ms: 0 } });
    log(`firing ${EVENTS} events through the proxy (${CONNECTIONS} connections${RATE ? `, ${RATE}/s` : ''})…`);
    const fireMs = await fire(cluster.bootstrap, EVENTS, RATE);
    const firedAt = performance.now();
    const fired = cluster.chaos.rule(rule.id)?.fired ?? 0;
    // The page has caught up when its timeline counts every event the run made (kept or dropped).
    const total = cluster.chaos.events().at(-1)?.seq ?? 0;
    await page.waitForFunction(
      (want) => {
        const m = /^(\d+) events(?:, (\d+) older ones dropped)?/.exec(document.querySelector('#timeline h2 .count')?.textContent ?? '');
        return m !== null && Number(m[1]) + Number(m[2] ?? 0) >= want;
      },
      total,
      { timeout: 120_000, polling: 'raf' },
    );
    const caughtUpMs = performance.now() - firedAt;
    const stream = await page.evaluate(takeProbes);
    if (o.profile) printHotFunctions((await cdp.send('Profiler.stop')).profile);
    const countText = await page.locator('#timeline h2 .count').textContent();

    // Interactions once everything is in, each the median of 5.
    const interactions = {};
    for (const [name, what, arg] of [
      ['filter "fault"', 'filter', 'fault'],
      ['filter "nothing-matches"', 'filter', 'nothing-matches'],
      ['clear the filter', 'filter', ''],
      ['scroll to the top', 'scroll', 'top'],
      ['scroll to the middle', 'scroll', 'middle'],
      ['scroll to the bottom', 'scroll', 'bottom'],
    ]) {
      const runs = [];
      for (let i = 0; i < 5; i++) runs.push(await page.evaluate(timed, { what, arg }));
      interactions[name] = runs;
    }
    // A quiet second: the 2 s refresh and the long poll, with nothing new.
    await page.evaluate(takeProbes);
    await page.waitForTimeout(4000);
    const idle = await page.evaluate(takeProbes);
    const m = await metrics();
    const domRows = await page.locator('#timeline .vlist .row').count();

    // The report of the same run (the ring's last 10,000 events), opened from a file.
    const reportPath = join(profile, 'report.html');
    const { writeReport } = await import('../dist/report/report.js');
    writeReport(reportPath, { cluster: cluster.cluster, chaos: cluster.chaos, seed: cluster.seed, bootstrap: cluster.bootstrap, proxy: cluster.proxy });
    const reportPage = await context.newPage();
    const r0 = performance.now();
    await reportPage.goto('file://' + reportPath);
    await reportPage.locator('#timeline .vlist .row').first().waitFor();
    const reportOpenMs = performance.now() - r0;

    if (errors.length) throw new Error(`the page threw: ${errors.join('; ')}`);
    const gaps = (f) => `${fmt(median(f), 1)} / ${fmt(percentile(f, 0.99), 1)} / ${fmt(Math.max(...f), 1)}`;
    const sum = (xs) => xs.reduce((a, b) => a + b, 0);
    const rows = [
      ['figure', 'value'],
      ['page load → topics drawn', `${fmt(loadMs, 0)} ms`],
      [`events fired (${CONNECTIONS} connections)`, `${fired} in ${fmt(fireMs / 1000, 1)} s (${fmt(fired / (fireMs / 1000), 0)}/s)`],
      ['page caught up after the last one', `${fmt(caughtUpMs, 0)} ms`],
      ['timeline says', countText ?? ''],
      ['frame gaps while streaming: median / p99 / max', `${gaps(stream.frames)} ms over ${stream.frames.length} frames`],
      ['long tasks (>50 ms) while streaming', `${stream.longTasks.length}, ${fmt(sum(stream.longTasks), 0)} ms in all, longest ${fmt(Math.max(0, ...stream.longTasks), 0)} ms`],
      ...Object.entries(interactions).map(([k, v]) => {
        const redrawn = v.map((x) => x.redrawn);
        const shown = v.map((x) => x.shown);
        return [`${k}: redrawn / on screen (median of 5; max)`, `${fmt(median(redrawn), 1)} / ${fmt(median(shown), 1)} ms; ${fmt(Math.max(...redrawn), 1)} / ${fmt(Math.max(...shown), 1)} ms`];
      }),
      ['idle 4 s after: frame gaps median / p99 / max', `${gaps(idle.frames)} ms, ${idle.longTasks.length} long tasks`],
      ['JS heap used', `${fmt(m.JSHeapUsedSize / MiB, 1)} MiB`],
      ['DOM nodes in the page / timeline rows drawn', `${m.Nodes} / ${domRows}`],
      ['report (last 10,000 events): size / open → drawn', `${fmt(statSync(reportPath).size / 1024, 0)} KB / ${fmt(reportOpenMs, 0)} ms`],
    ];
    console.log(`web view under load: ${EVENTS} events, a ${PARTITIONS}-partition topic, chromium ${context.browser()?.version() ?? ''}`.trim());
    for (const line of alignRows(rows)) console.log(line);
  } finally {
    await context?.close().catch(() => {});
    rmSync(profile, { recursive: true, force: true });
    await cluster.stop();
  }
}

await main();
