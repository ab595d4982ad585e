#!/usr/bin/env node
// What a hostile or broken peer can do to a listener, measured, against a
// kafkaesque process through its chaos proxy and one with --no-proxy, on
// loopback:
//   prefixes   size prefixes 2^31-1, 1 GiB, -1, 0 and the limit + 1: each must close its connection
//   slowloris  connections that begin a frame and trickle one byte at a time: closed at the request timeout
//   pipeline   requests written on one connection that is not read: broker memory while they wait,
//              then every one answered, in order, once read
//   idle       connections that send nothing: memory while held, a kafkajs health check meanwhile,
//              all closed at connections.max.idle.ms
// Counts and times are printed; exit 1 when a count is wrong. Bounded in
// count and time; --short is the run CI keeps.
//
//   npm run build && node bench/hostile.mjs [--short] [--json]
import net from 'node:net';

import { apiVersionsFrame, healthCheck, hostPort, onResponses, probeAlive, probeArgs, probeMain, rssMB, sampleRss, startTargets, stopTarget } from './lib/probe.mjs';

const usage = `node bench/hostile.mjs [--short] [--slowloris N] [--pipeline N] [--idle N] [--request-timeout-ms MS] [--idle-ms MS] [--pipeline-hold-ms MS] [--json]
  --slowloris 1000            slow connections
  --pipeline 100000           requests pipelined on one connection that is not read
  --idle 1000                 idle connections
  --request-timeout-ms 2000   the targets' --request-timeout-ms
  --idle-ms 4000              the targets' --connections-max-idle-ms
  --pipeline-hold-ms MS       how long the pipelined requests stay unread (default: half the shorter timeout)
  --short                     100 slowloris, 10,000 pipelined, 200 idle, 1000 / 2000 ms: the run CI keeps
  --json                      one JSON line on stdout instead of the tables
`;
const options = {
  slowloris: { type: 'string', default: '1000' },
  pipeline: { type: 'string', default: '100000' },
  idle: { type: 'string', default: '1000' },
  'request-timeout-ms': { type: 'string', default: '2000' },
  'idle-ms': { type: 'string', default: '4000' },
  'pipeline-hold-ms': { type: 'string', default: '0' },
};
const short = { slowloris: 100, pipeline: 10_000, idle: 200, 'request-timeout-ms': 1000, 'idle-ms': 2000 };
const MAX_REQUEST_SIZE = 1 << 20;
/** How long past its deadline a connection may stay open before it counts as not closed. */
const GRACE_MS = 3000;

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const median = (xs) => (xs.length ? [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] : null);
const spread = (xs) => (xs.length ? { min: Math.round(Math.min(...xs)), median: Math.round(median(xs)), max: Math.round(Math.max(...xs)) } : null);

/** Opens a connection; resolves { socket, closed } where closed resolves the ms from `since()` to the broker's close. */
function open(address) {
  return new Promise((resolve, reject) => {
    const socket = net.connect(hostPort(address));
    socket.once('error', reject);
    socket.once('connect', () => {
      socket.removeListener('error', reject);
      socket.on('error', () => {});
      const closedAt = new Promise((r) => socket.once('close', () => r(performance.now())));
      resolve({ socket, closedAt, openedAt: performance.now() });
    });
  });
}

/** Resolves the close time, or null if the connection is still open at deadline (then destroys it). */
async function closedBy(conn, deadlineMs) {
  let timer;
  const at = await Promise.race([conn.closedAt, new Promise((r) => (timer = setTimeout(() => r(null), deadlineMs)))]);
  clearTimeout(timer);
  if (at === null) conn.socket.destroy();
  return at;
}

async function prefixes(target) {
  const cases = [
    ['2^31-1', 0x7fffffff],
    ['1 GiB', 1 << 30],
    ['-1', -1],
    ['0', 0],
    [`limit+1 (${MAX_REQUEST_SIZE + 1})`, MAX_REQUEST_SIZE + 1],
  ];
  const rows = [];
  for (const [name, size] of cases) {
    const conn = await open(target.address);
    const frame = Buffer.alloc(4 + 16);
    frame.writeInt32BE(size, 0);
    const sent = performance.now();
    conn.socket.write(frame);
    const at = await closedBy(conn, GRACE_MS);
    rows.push({ prefix: name, closed: at !== null, ms: at === null ? null : Math.round((at - sent) * 10) / 10 });
  }
  return { rows, notClosed: rows.filter((r) => !r.closed).length };
}

async function slowloris(target, o) {
  const conns = await Promise.all(Array.from({ length: o.slowloris }, () => open(target.address)));
  const begun = performance.now();
  // A frame that promises 100 bytes, then one byte every 200 ms from one timer for all: never idle, never complete.
  const head = apiVersionsFrame(1, 'slowloris').subarray(0, 6);
  head.writeInt32BE(100, 0);
  for (const c of conns) c.socket.write(head);
  const trickle = setInterval(() => {
    for (const c of conns) if (!c.socket.destroyed) c.socket.write(Buffer.from([0]));
  }, 200);
  sampleRss(target);
  const rssHeld = rssMB(target.broker.pid);
  const closes = await Promise.all(conns.map((c) => closedBy(c, o['request-timeout-ms'] + GRACE_MS)));
  clearInterval(trickle);
  const closed = closes.filter((t) => t !== null).map((t) => t - begun);
  return { connections: conns.length, closed: closed.length, notClosed: conns.length - closed.length, closeMs: spread(closed), requestTimeoutMs: o['request-timeout-ms'], rssHeldMB: rssHeld };
}

async function pipeline(target, o) {
  const conn = await open(target.address);
  conn.socket.pause(); // never read: responses pile up in the kernel, then in the broker
  const rssBefore = rssMB(target.broker.pid);
  const frames = Buffer.concat(Array.from({ length: o.pipeline }, (_, i) => apiVersionsFrame(i, 'pipe')));
  conn.socket.write(frames);
  // Watch the broker's memory while nobody reads, for --pipeline-hold-ms (default: half the
  // shorter of the idle and request timeouts, as a client busy elsewhere might).
  let rssMax = rssBefore;
  const until = performance.now() + (o['pipeline-hold-ms'] || Math.min(o['idle-ms'], o['request-timeout-ms']) / 2);
  while (performance.now() < until) {
    await sleep(100);
    rssMax = Math.max(rssMax, rssMB(target.broker.pid));
  }
  const started = performance.now();
  let answered = 0;
  let inOrder = true;
  const all = new Promise((resolve) => {
    onResponses(conn.socket, (id) => {
      if (id !== answered) inOrder = false;
      if (++answered === o.pipeline) resolve(true);
    });
    conn.closedAt.then(() => resolve(false));
  });
  conn.socket.resume();
  let timer;
  await Promise.race([all, new Promise((r) => (timer = setTimeout(r, 60_000)))]);
  clearTimeout(timer);
  const readMs = performance.now() - started;
  conn.socket.destroy();
  sampleRss(target);
  return { requests: o.pipeline, bytes: frames.length, answered, unanswered: o.pipeline - answered, inOrder, readMs: Math.round(readMs), rssMB: { before: rssBefore, maxUnread: rssMax, after: rssMB(target.broker.pid) } };
}

async function idle(target, o) {
  const rssBefore = rssMB(target.broker.pid);
  const conns = await Promise.all(Array.from({ length: o.idle }, () => open(target.address)));
  const failedBefore = target.healthFailed;
  await healthCheck(target);
  // After the health check: the broker has had time to set every connection up.
  const rssHeld = rssMB(target.broker.pid);
  sampleRss(target);
  const closes = await Promise.all(conns.map((c) => closedBy(c, o['idle-ms'] + GRACE_MS)));
  // Each from its own connect: opening a thousand takes a while on a busy machine.
  const closed = closes.flatMap((t, i) => (t === null ? [] : [t - conns[i].openedAt]));
  return {
    connections: conns.length,
    healthCheckWhileHeld: target.healthFailed === failedBefore ? 'ok' : 'failed',
    rssMB: { before: rssBefore, held: rssHeld },
    closed: closed.length,
    notClosed: conns.length - closed.length,
    closeMs: spread(closed),
    idleMs: o['idle-ms'],
  };
}

async function main() {
  const { o, json } = probeArgs(usage, options, short);
  const flags = ['--request-timeout-ms', String(o['request-timeout-ms']), '--connections-max-idle-ms', String(o['idle-ms']), '--max-request-size', String(MAX_REQUEST_SIZE)];
  const targets = await startTargets(flags, 600);
  const results = [];
  for (const t of targets) {
    const r = { target: t.name };
    r.prefixes = await prefixes(t);
    r.slowloris = await slowloris(t, o);
    r.pipeline = await pipeline(t, o);
    r.idle = await idle(t, o);
    r.alive = t.crashed ? false : await probeAlive(t.address);
    await healthCheck(t);
    results.push(r);
  }
  for (const t of targets) await stopTarget(t);
  for (const [i, t] of targets.entries()) Object.assign(results[i], { crash: t.crashed, healthChecks: t.healthChecks, healthFailed: t.healthFailed, healthErrors: t.healthErrors, rssMB: t.rss });
  const failures = results.reduce((n, r) => n + r.prefixes.notClosed + r.slowloris.notClosed + r.pipeline.unanswered + (r.pipeline.inOrder ? 0 : 1) + r.idle.notClosed + (r.crash ? 1 : 0) + (r.alive ? 0 : 1) + r.healthFailed, 0);
  const result = { failures, targets: results, options: o };
  if (json) process.stdout.write(`${JSON.stringify(result)}\n`);
  else printTables(result);
  return failures === 0 ? 0 : 1;
}

function printTables({ failures, targets, options: o }) {
  const out = (s) => process.stdout.write(`${s}\n`);
  out(`hostile: ${failures} failure(s); request timeout ${o['request-timeout-ms']} ms, idle timeout ${o['idle-ms']} ms, max request size ${MAX_REQUEST_SIZE}\n`);
  out(`| size prefix | ${targets.map((r) => `${r.target}: closed in (ms)`).join(' | ')} |\n|---|${targets.map(() => '---|').join('')}`);
  for (const [i, p] of targets[0].prefixes.rows.entries()) out(`| ${p.prefix} | ${targets.map((r) => (r.prefixes.rows[i].closed ? String(r.prefixes.rows[i].ms) : 'NOT CLOSED')).join(' | ')} |`);
  out('');
  out('| case | target | count | result | times (ms, min / median / max) | broker RSS (MB) |\n|---|---|---|---|---|---|');
  const t = (s) => (s ? `${s.min} / ${s.median} / ${s.max}` : '');
  for (const r of targets) {
    const s = r.slowloris;
    out(`| slowloris | ${r.target} | ${s.connections} | ${s.closed} closed, ${s.notClosed} not | ${t(s.closeMs)} (timeout ${s.requestTimeoutMs}) | ${s.rssHeldMB} held |`);
    const p = r.pipeline;
    out(`| pipeline (not read) | ${r.target} | ${p.requests.toLocaleString('en')} | ${p.answered.toLocaleString('en')} answered${p.inOrder ? ' in order' : ', OUT OF ORDER'} | ${p.readMs} to read all | ${p.rssMB.before} before, ${p.rssMB.maxUnread} max unread, ${p.rssMB.after} after |`);
    const d = r.idle;
    out(`| idle | ${r.target} | ${d.connections} | ${d.closed} closed, ${d.notClosed} not; health check while held: ${d.healthCheckWhileHeld} | ${t(d.closeMs)} (idle ${d.idleMs}) | ${d.rssMB.before} before, ${d.rssMB.held} held |`);
  }
  out('');
  for (const r of targets) out(`${r.target}: ${r.crash ? `CRASHED ${JSON.stringify(r.crash)}` : 'no crash'}, ${r.alive ? 'alive' : 'NOT ANSWERING'} after, health checks ${r.healthChecks - r.healthFailed}/${r.healthChecks} ok${r.healthErrors.length ? ` (${r.healthErrors.join('; ')})` : ''}, RSS start / max / end ${r.rssMB.start} / ${r.rssMB.max} / ${r.rssMB.end} MB`);
}

probeMain(main);
