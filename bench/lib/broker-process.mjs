// Start a broker process from a "spawn spec" and wait until it is ready.
//
// A spawn spec is plain data:
//
//   {
//     name: 'mock',                       // label in reports
//     command: '/path/to/bin',            // executable (no shell)
//     args: ['-T', '{lifetime}', '{topicArgs}', '{brokers}'],
//     topics: 'args' | 'admin',           // how topics are pre-created:
//                                         //   'args'  -> '{topicArgs}' expands to -t name:p:r ...
//                                         //   'admin' -> kafkajs admin CreateTopics after ready
//     env: { ... },                       // optional extra environment
//     cwd: '/path',                       // optional
//   }
//
// Placeholders in args: {brokers} (node count), {port} (first of a block of
// free loopback ports), {lifetime} (seconds the process may live), and
// {topicArgs} (an arg of its own, replaced by zero or more args).
//
// Readiness: the first stdout line that is either a bootstrap list
// ("127.0.0.1:1234,127.0.0.1:1235", as librdkafka's mock prints) or a JSON
// object with a `bootstrap` field (string "h:p,h:p" or array, as
// `kafkaesque start --json` prints). Other stdout lines before it are kept
// (and shown if it never comes). stdout and stderr are always drained.
//
// Every process is bounded: it is SIGKILLed after `lifetime` seconds if still
// alive, stopped with SIGTERM (then SIGKILL after a grace period) by stop(),
// and SIGKILLed when this Node process exits.

import { spawn } from 'node:child_process';
import net from 'node:net';
import { performance } from 'node:perf_hooks';

const live = new Set();
let exitHookInstalled = false;

function installExitHook() {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on('exit', () => {
    for (const child of live) {
      try {
        child.kill('SIGKILL');
      } catch {
        /* already gone */
      }
    }
  });
  for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
    process.once(sig, () => {
      for (const child of live) {
        try {
          child.kill('SIGKILL');
        } catch {
          /* already gone */
        }
      }
      process.exit(sig === 'SIGINT' ? 130 : 143);
    });
  }
}

/** Kill every broker process started here (SIGKILL). */
export function killAll() {
  for (const child of live) {
    try {
      child.kill('SIGKILL');
    } catch {
      /* already gone */
    }
  }
}

function portFree(port) {
  return new Promise((resolve) => {
    const srv = net.createServer();
    srv.once('error', () => resolve(false));
    srv.listen({ port, host: '127.0.0.1', exclusive: true }, () => srv.close(() => resolve(true)));
  });
}

/**
 * First port of `count` consecutive free loopback ports, below the kernel's
 * ephemeral range (so client sockets do not take them meanwhile).
 */
export async function freePortBlock(count) {
  for (let attempt = 0; attempt < 100; attempt++) {
    const base = 20000 + Math.floor(Math.random() * 10000);
    let ok = true;
    for (let p = base; p < base + count && ok; p++) ok = await portFree(p);
    if (ok) return base;
  }
  throw new Error(`no block of ${count} free ports found on 127.0.0.1`);
}

/** Parse a ready line; returns { bootstrap: string[], info } or null. */
export function parseReadyLine(line) {
  const s = line.trim();
  if (!s) return null;
  if (s.startsWith('{')) {
    let obj;
    try {
      obj = JSON.parse(s);
    } catch {
      return null;
    }
    const b = obj?.bootstrap;
    const list = Array.isArray(b) ? b.map(String) : typeof b === 'string' ? b.split(',') : null;
    if (!list || list.length === 0) return null;
    return { bootstrap: list.map((x) => x.trim()).filter(Boolean), info: obj };
  }
  if (/^[^\s,]+:\d+(,[^\s,]+:\d+)*$/.test(s)) return { bootstrap: s.split(','), info: null };
  return null;
}

function tail(buf, max = 4000) {
  return buf.length > max ? buf.slice(buf.length - max) : buf;
}

/**
 * Spawn the broker described by `spec` and wait for its ready line.
 * Returns { name, pid, bootstrap, info, spawnedAt, readyAt, readyMs, stop(), exited }.
 * Times are performance.now() milliseconds.
 */
export async function startBroker(spec, { brokers = 3, lifetime = 60, topics = [], readyTimeoutMs = 20000 } = {}) {
  installExitHook();
  let port = null;
  if (spec.args.some((a) => String(a).includes('{port}'))) {
    // Room for broker listeners and anything next to them (proxy, control API).
    port = await freePortBlock(brokers * 2 + 4);
  }
  const topicArgs = topics.flatMap((t) => [spec.topicFlag ?? '-t', `${t.name}:${t.partitions}:${t.replication}`]);
  const args = spec.args.flatMap((a) => {
    if (a === '{topicArgs}') return topicArgs;
    return [
      String(a)
        .replaceAll('{brokers}', String(brokers))
        .replaceAll('{port}', String(port))
        .replaceAll('{lifetime}', String(lifetime)),
    ];
  });

  const spawnedAt = performance.now();
  const child = spawn(spec.command, args, {
    cwd: spec.cwd,
    env: { ...process.env, ...(spec.env ?? {}) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  live.add(child);
  const killTimer = setTimeout(() => child.kill('SIGKILL'), lifetime * 1000 + 5000);
  killTimer.unref();

  let stderr = '';
  let stdoutSeen = '';
  let exitInfo = null;
  const exited = new Promise((resolve) => {
    child.once('exit', (code, signal) => {
      exitInfo = { code, signal, at: performance.now() };
      live.delete(child);
      clearTimeout(killTimer);
      resolve(exitInfo);
    });
  });
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (d) => {
    stderr = tail(stderr + d);
  });

  const ready = await new Promise((resolve, reject) => {
    let pending = '';
    let done = false;
    const fail = (why) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      child.kill('SIGKILL');
      reject(
        new Error(
          `${spec.name}: ${why}\n  command: ${spec.command} ${args.join(' ')}` +
            (stdoutSeen ? `\n  stdout: ${tail(stdoutSeen, 1500)}` : '') +
            (stderr ? `\n  stderr: ${tail(stderr, 1500)}` : ''),
        ),
      );
    };
    const timer = setTimeout(() => fail(`no ready line within ${readyTimeoutMs} ms`), readyTimeoutMs);
    child.once('error', (err) => fail(`could not start: ${err.message}`));
    child.once('exit', (code, signal) => fail(`exited before ready (code ${code}, signal ${signal})`));
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (d) => {
      if (done) return; // keep draining
      pending += d;
      let nl;
      while ((nl = pending.indexOf('\n')) >= 0) {
        const line = pending.slice(0, nl);
        pending = pending.slice(nl + 1);
        const parsed = parseReadyLine(line);
        if (parsed) {
          done = true;
          clearTimeout(timer);
          resolve({ ...parsed, readyAt: performance.now() });
          return;
        }
        stdoutSeen = tail(stdoutSeen + line + '\n');
      }
    });
  });

  /** SIGTERM, then SIGKILL after graceMs; resolves { code, signal, stopMs }. */
  async function stop(graceMs = 5000) {
    if (exitInfo) return { ...exitInfo, stopMs: 0, alreadyExited: true };
    const t = performance.now();
    child.kill('SIGTERM');
    const grace = setTimeout(() => child.kill('SIGKILL'), graceMs);
    const info = await exited;
    clearTimeout(grace);
    return { code: info.code, signal: info.signal, stopMs: info.at - t };
  }

  return {
    name: spec.name,
    pid: child.pid,
    port,
    args,
    bootstrap: ready.bootstrap,
    info: ready.info,
    spawnedAt,
    readyAt: ready.readyAt,
    readyMs: ready.readyAt - spawnedAt,
    stderrTail: () => stderr,
    stop,
    exited,
  };
}
