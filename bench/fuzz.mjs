#!/usr/bin/env node
// The fuzzer as a tool: real clients' request frames (test/fixtures/captures),
// mutated, over many connections, half through the chaos proxy and half
// straight to a broker (--no-proxy), each a kafkaesque process of its own on
// loopback. Counts crashes (a process exited), hangs (a fresh connection's
// ApiVersions not answered within 5 s), failed kafkajs health checks, and RSS.
// Bounded by --seconds and --frames; --short is the run CI keeps.
//
//   npm run build && node bench/fuzz.mjs [--short] [--seconds 60] [--frames 1000000] [--json]
import net from 'node:net';

import { mutate, requestFrames, rng } from './lib/fuzz-frames.mjs';
import { apiVersionsFrame, healthCheck, hostPort, onResponses, probeAlive, probeArgs, probeMain, sampleRss, startTargets, stopTarget } from './lib/probe.mjs';

const usage = `node bench/fuzz.mjs [--short] [--seconds S] [--frames N] [--lanes L] [--per-connection K]
                    [--health-every N] [--probe-every N] [--seed N] [--request-timeout-ms MS] [--json]
  --seconds 60          stop after this long (whichever of --seconds and --frames comes first)
  --frames 1000000      stop after this many frames in all
  --lanes 32            connections open at once, half to each target
  --per-connection 16   at most this many mutated frames (1 to N) on each connection, then a well-formed ApiVersions
  --health-every 20000  a kafkajs health check (produce acks=all, read the high watermark) per target every N frames sent to it
  --probe-every 2000    a liveness probe (fresh connection, ApiVersions, 5 s) and an RSS sample per target every N frames
  --seed                of the mutations (default: random, printed)
  --request-timeout-ms 2000  the targets' --request-timeout-ms: how long a begun frame may take
  --short               8 s, 8 lanes, a health check every 2000 frames: the run CI keeps
  --json                one JSON line on stdout instead of the table
`;

const options = {
  seconds: { type: 'string', default: '60' },
  frames: { type: 'string', default: '1000000' },
  lanes: { type: 'string', default: '32' },
  'per-connection': { type: 'string', default: '16' },
  'health-every': { type: 'string', default: '20000' },
  'probe-every': { type: 'string', default: '2000' },
  seed: { type: 'string', default: String(Date.now() % 2 ** 31) },
  'request-timeout-ms': { type: 'string', default: '2000' },
};
const short = { seconds: 8, lanes: 8, 'health-every': 2000, 'probe-every': 1000, 'request-timeout-ms': 1000 };
const SENTINEL = 0x7eadbeef;

/**
 * One connection: K mutated frames, then a well-formed ApiVersions. It ends
 * when the broker closes it, answers the ApiVersions, or holdMs pass (a frame
 * the broker may legitimately sit on: a Fetch whose mutated max wait is
 * hours, a size prefix that promises more bytes than came, until the request
 * timeout). 'refused' when it could not connect at all.
 */
function oneConnection(address, frames, holdMs) {
  return new Promise((resolve) => {
    const socket = net.connect(hostPort(address));
    let connected = false;
    const done = (outcome) => {
      clearTimeout(timer);
      socket.destroy();
      resolve(outcome);
    };
    const timer = setTimeout(() => done('held'), holdMs);
    socket.on('error', () => done(connected ? 'closed' : 'refused'));
    socket.on('close', () => done('closed'));
    socket.on('connect', () => {
      connected = true;
      socket.write(Buffer.concat([...frames, apiVersionsFrame(SENTINEL, 'fuzz')]));
    });
    onResponses(socket, (id) => id === SENTINEL && done('answered'));
  });
}

async function main() {
  const { o, json } = probeArgs(usage, options, short);
  const seeds = requestFrames(process.env.FUZZ_CAPTURES);
  const random = rng(o.seed);
  const targets = await startTargets(['--request-timeout-ms', String(o['request-timeout-ms']), '--max-request-size', String(1 << 20)], o.seconds + 120);
  const stats = new Map(targets.map((t) => [t, { frames: 0, connections: 0, answered: 0, closed: 0, held: 0, refused: 0, probes: 0, hangs: 0, nextProbe: o['probe-every'], nextHealth: o['health-every'], checks: Promise.resolve() }]));
  const started = performance.now();
  const deadline = started + o.seconds * 1000;
  let total = 0;
  const more = () => performance.now() < deadline && total < o.frames;

  const lane = async (target) => {
    const s = stats.get(target);
    while (more() && !target.crashed) {
      // 1 to K frames: short connections also reach the well-formed ApiVersions.
      const frames = Array.from({ length: 1 + Math.floor(random() * o['per-connection']) }, () => mutate(seeds, random));
      s.frames += frames.length;
      total += frames.length;
      s.connections++;
      s[await oneConnection(target.address, frames, o['request-timeout-ms'] + 2000)]++;
      if (s.frames >= s.nextProbe) {
        s.nextProbe += o['probe-every'];
        s.probes++;
        sampleRss(target);
        if (!(await probeAlive(target.address))) s.hangs++;
      }
      if (s.frames >= s.nextHealth) {
        s.nextHealth += o['health-every'];
        // One at a time per target, beside the lanes rather than in their way.
        s.checks = s.checks.then(() => healthCheck(target));
      }
    }
  };
  await Promise.all(Array.from({ length: o.lanes }, (_, i) => lane(targets[i % targets.length])));
  const seconds = (performance.now() - started) / 1000;
  // After the storm: every target alive and serving kafkajs.
  for (const t of targets) {
    const s = stats.get(t);
    await s.checks;
    if (t.crashed) continue;
    s.probes++;
    if (!(await probeAlive(t.address))) s.hangs++;
    await healthCheck(t);
    sampleRss(t);
  }
  for (const t of targets) await stopTarget(t);

  const rows = targets.map((t) => {
    const { checks: _checks, nextProbe: _p, nextHealth: _h, ...s } = stats.get(t);
    return { target: t.name, ...s, crashes: t.crashed ? 1 : 0, crash: t.crashed, healthChecks: t.healthChecks, healthFailed: t.healthFailed, healthErrors: t.healthErrors, rssMB: t.rss };
  });
  const sum = (k) => rows.reduce((a, r) => a + r[k], 0);
  const result = { seed: o.seed, seconds: Math.round(seconds * 10) / 10, frames: sum('frames'), connections: sum('connections'), crashes: sum('crashes'), hangs: sum('hangs'), healthChecks: sum('healthChecks'), healthFailed: sum('healthFailed'), targets: rows, options: o };
  if (json) process.stdout.write(`${JSON.stringify(result)}\n`);
  else {
    process.stdout.write(`fuzz: ${result.frames.toLocaleString('en')} frames on ${result.connections.toLocaleString('en')} connections in ${result.seconds} s, seed ${o.seed}\n\n`);
    process.stdout.write('| target | frames | connections | answered / closed / held / refused | crashes | hangs (probes) | health checks failed | RSS MB start / max / end |\n|---|---|---|---|---|---|---|---|\n');
    for (const r of rows) process.stdout.write(`| ${r.target} | ${r.frames.toLocaleString('en')} | ${r.connections.toLocaleString('en')} | ${r.answered} / ${r.closed} / ${r.held} / ${r.refused} | ${r.crashes} | ${r.hangs} (${r.probes}) | ${r.healthFailed} of ${r.healthChecks} | ${r.rssMB.start} / ${r.rssMB.max} / ${r.rssMB.end} |\n`);
    for (const r of rows) for (const e of r.healthErrors) process.stdout.write(`${r.target}: health check failed: ${e}\n`);
  }
  return result.crashes + result.hangs + result.healthFailed === 0 ? 0 : 1;
}

probeMain(main);
