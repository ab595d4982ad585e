#!/usr/bin/env node
// kcat (librdkafka's command-line client) driver of the compatibility suite
// (test/compat/README.md): one scenario per run, one JSON summary line.
//
//   node test/clients/kcat_compat.mjs BOOTSTRAP SCENARIO TOPIC [-n N] [--partitions P] [--group G] [--txn-id ID] [--timeout S]
//
// kcat cannot pick a partition per line, so messages are produced as
// `key:value` lines (-K :) and librdkafka's partitioner spreads them by key;
// the suite checks order per partition, not which partition. Read-backs use
// the legacy simple consumer (-C without -G: no group at all). The group
// scenario runs two `kcat -G` processes (balanced consumers, auto-commit on
// close). Transactions use kcat's -X transactional.id: all of stdin is one
// transaction, committed when stdin closes and aborted on SIGTERM (see
// abortedTransaction() for how an abort is made to happen after the records
// are in the log). kcat is run without a shell, each process bounded in time.
import { spawn, spawnSync } from 'node:child_process';
import { createInterface } from 'node:readline';
import { Failure, messagesFor, parseArgs, runDriver, until } from './compat_common.mjs';

const KCAT = process.env.KCAT ?? 'kcat';
const args = parseArgs(process.argv.slice(2), 'kcat_compat.mjs');
const B = args.bootstrap;
const children = new Set();
// `timeout` (see start()) leads a process group of its own with kcat in it: kill the group.
function killGroup(child) {
  try {
    process.kill(-child.pid, 'SIGKILL');
  } catch {
    child.kill('SIGKILL');
  }
}
// A driver that ends must not leave kcat processes behind.
process.on('exit', () => children.forEach(killGroup));

function kcatVersion() {
  const res = spawnSync(KCAT, ['-V'], { encoding: 'utf8', timeout: 5000 });
  if (res.error?.code === 'ENOENT') return null;
  return /Version (\S+).*librdkafka (\S+)/.exec(res.stdout ?? '')?.slice(1) ?? null;
}

/** Runs kcat to completion (argv, stdin text), bounded by min(20 s, time left); returns stdout. */
function kcat(argv, deadline, input = undefined) {
  const left = deadline - Date.now();
  if (left <= 0) throw new Failure(`timed out before kcat ${argv[0]}`);
  const timeout = Math.min(20_000, left);
  const res = spawnSync(KCAT, argv, { input, encoding: 'utf8', timeout, killSignal: 'SIGKILL', maxBuffer: 64 << 20 });
  if (res.error?.code === 'ETIMEDOUT') throw new Failure(`kcat ${argv.join(' ')}: timed out after ${timeout} ms`);
  if (res.error) throw new Failure(`kcat ${argv[0]}: ${res.error.message}`);
  if (res.status !== 0) throw new Failure(`kcat ${argv.join(' ')} exited ${res.status ?? res.signal}: ${res.stderr.trim().split('\n').slice(-3).join(' | ')}`);
  return res.stdout;
}

const lines = (msgs) => msgs.map((m) => `${m.key}:${m.value}\n`).join('');

/** Reads every partition from the beginning to its end (-e), without a group. */
function readAll(deadline, isolation = 'read_uncommitted') {
  return kcat(['-C', '-b', B, '-t', args.topic, '-o', 'beginning', '-e', '-J', '-q', '-X', `isolation.level=${isolation}`], deadline)
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l))
    .map((r) => [r.partition, r.offset, r.payload]);
}

async function metadata(out, deadline) {
  const md = JSON.parse(kcat(['-L', '-J', '-b', B, '-t', args.topic, '-m', '10'], deadline));
  const t = md.topics.find((x) => x.topic === args.topic);
  if (!t || t.error) throw new Failure(`metadata for ${args.topic}: ${t?.error ?? 'missing'}`);
  out.brokers = md.brokers.map((b) => b.id).sort((a, b) => a - b);
  out.controller = md.controllerid;
  out.partitions = t.partitions.map((p) => ({ id: p.partition, leader: p.leader })).sort((a, b) => a.id - b.id);
}

async function produceFetch(out, deadline, idempotent) {
  const msgs = messagesFor(args.scenario, args.n, args.partitions);
  // Small batches, so that each partition gets several (several sequences with idempotence).
  const conf = ['-X', 'acks=all', '-X', 'batch.num.messages=25', '-X', 'message.timeout.ms=15000', '-X', `enable.idempotence=${idempotent}`];
  // kcat exits non-zero if any delivery fails.
  kcat(['-P', '-b', B, '-t', args.topic, '-K', ':', ...conf], deadline, lines(msgs));
  out.produced = msgs.length;
  out.read = readAll(deadline);
}

/**
 * A long-running kcat: stdout lines and stderr lines to callbacks, killed at
 * exit. coreutils `timeout` bounds it even if this driver is SIGKILLed (it
 * passes our SIGTERM on to kcat).
 */
function start(argv, onLine, onErr) {
  const child = spawn('timeout', ['-s', 'KILL', String(Math.ceil(args.timeout + 15)), KCAT, ...argv], { stdio: ['pipe', 'pipe', 'pipe'] });
  children.add(child);
  child.exited = new Promise((resolve) => child.on('exit', (code, signal) => (children.delete(child), resolve(code ?? signal))));
  child.on('error', () => {});
  createInterface({ input: child.stdout }).on('line', onLine);
  createInterface({ input: child.stderr }).on('line', onErr);
  return child;
}

async function stop(child, what, ms = 10_000) {
  child.kill('SIGTERM');
  const timer = setTimeout(() => killGroup(child), ms);
  const code = await child.exited;
  clearTimeout(timer);
  if (code !== 0) throw new Failure(`${what} exited ${code} after SIGTERM`);
}

async function group(out, deadline) {
  const members = ['a', 'b'].map((name) => ({ name, assigned: null, read: [], stderr: [] }));
  const conf = ['-X', 'auto.offset.reset=earliest', '-X', 'session.timeout.ms=10000', '-X', 'heartbeat.interval.ms=500', '-X', 'fetch.wait.max.ms=100'];
  for (const m of members) {
    m.child = start(['-G', args.group, '-b', B, '-J', '-u', '-X', `client.id=compat-kcat-${m.name}`, ...conf, args.topic], (l) => {
      if (l.startsWith('{')) {
        const r = JSON.parse(l);
        m.read.push([r.partition, r.offset, r.payload]);
      }
    }, (l) => {
      m.stderr.push(l);
      // "% Group G rebalanced (memberid ...): assigned: T [0], T [2]" (or "revoked: ...").
      const hit = /rebalanced \(memberid [^)]*\): (assigned|revoked): (.*)$/.exec(l);
      if (hit) m.assigned = hit[1] === 'revoked' ? null : [...hit[2].matchAll(/ \[(\d+)\]/g)].map((x) => Number(x[1])).sort((a, b) => a - b);
    });
  }
  try {
    await until(() => {
      const gone = members.find((m) => m.child.exitCode !== null);
      if (gone) throw new Failure(`kcat -G member ${gone.name} exited ${gone.child.exitCode}: ${gone.stderr.slice(-3).join(' | ')}`);
      const [a, b] = members.map((m) => m.assigned);
      return a?.length && b?.length && new Set([...a, ...b]).size === args.partitions && a.length + b.length === args.partitions;
    }, 'both kcat -G members to be assigned', deadline);
    out.assignedBeforeProduce = members.map((m) => m.assigned);
    const msgs = messagesFor(args.scenario, args.n, args.partitions);
    kcat(['-P', '-b', B, '-t', args.topic, '-K', ':', '-X', 'acks=all', '-X', 'message.timeout.ms=15000'], deadline, lines(msgs));
    out.produced = msgs.length;
    await until(() => members.reduce((s, m) => s + m.read.length, 0) >= msgs.length, 'both members to read everything', deadline);
    out.members = members.map((m) => ({ name: m.name, assigned: m.assigned, read: m.read }));
    // SIGTERM: kcat closes the consumer, which commits the offsets read (auto-commit) and leaves the group.
    for (const m of members) await stop(m.child, `kcat -G member ${m.name}`);
  } finally {
    out.members ??= members.map((m) => ({ name: m.name, assigned: m.assigned, read: m.read }));
  }
}

/** One transaction, committed by closing stdin. */
function committedTransaction(msgs, deadline) {
  kcat(['-P', '-b', B, '-t', args.topic, '-K', ':', '-m', '10', '-X', `transactional.id=${args.txnId}`, '-X', 'acks=all'], deadline, lines(msgs));
}

/**
 * One transaction, aborted. kcat reads stdin in 1024-byte fread()s, so the
 * input is padded to a whole number of KiB: every line is then produced
 * while stdin is still open. Once they are all in the log (read_uncommitted
 * sees them), SIGTERM makes kcat abort, and closing stdin lets it get there
 * (the signal alone leaves it blocked in fread; stdin closed without the
 * signal commits).
 */
async function abortedTransaction(msgs, deadline) {
  let text = lines(msgs);
  const pad = (1024 - ((text.length + 'kpad:abort-pad-\n'.length) % 1024)) % 1024;
  text += `kpad:abort-pad-${'x'.repeat(pad)}\n`;
  const stderr = [];
  const before = readAll(deadline).length;
  const child = start(['-P', '-b', B, '-t', args.topic, '-K', ':', '-m', '10', '-X', `transactional.id=${args.txnId}`, '-X', 'acks=all'], () => {}, (l) => stderr.push(l));
  child.stdin.on('error', () => {});
  child.stdin.write(text);
  const total = msgs.length + 1;
  await until(() => {
    if (child.exitCode !== null) throw new Failure(`kcat -P (abort) exited early ${child.exitCode}: ${stderr.slice(-3).join(' | ')}`);
    return readAll(deadline).length >= before + total;
  }, 'the records of the transaction to abort to reach the log', deadline);
  child.kill('SIGTERM');
  // Let the signal reach kcat (through `timeout`) before the end of stdin, or kcat would commit.
  await new Promise((r) => setTimeout(r, 500));
  child.stdin.end();
  const timer = setTimeout(() => killGroup(child), 15_000);
  const code = await child.exited;
  clearTimeout(timer);
  if (code !== 0 || !stderr.some((l) => /Aborting transaction/.test(l))) throw new Failure(`kcat -P did not abort (exit ${code}): ${stderr.slice(-3).join(' | ')}`);
  return total;
}

async function transactions(out, deadline) {
  const commit1 = messagesFor('commit1', args.n, args.partitions);
  const aborted = messagesFor('abort', args.n, args.partitions);
  const commit2 = messagesFor('commit2', args.n, args.partitions);
  committedTransaction(commit1, deadline);
  const abortedCount = await abortedTransaction(aborted, deadline);
  committedTransaction(commit2, deadline);
  out.produced = { committed: commit1.length + commit2.length, aborted: abortedCount };
  out.read = readAll(deadline, 'read_committed');
}

const v = kcatVersion();
await runDriver(args, v ? `kcat ${v[0]} (librdkafka ${v[1]})` : 'kcat (missing)', async (out, deadline) => {
  if (!v) throw new Failure(`${KCAT} not found: apt-get install -y kcat`);
  if (args.scenario === 'metadata') await metadata(out, deadline);
  else if (args.scenario === 'produce-fetch') await produceFetch(out, deadline, false);
  else if (args.scenario === 'idempotent') await produceFetch(out, deadline, true);
  else if (args.scenario === 'group') await group(out, deadline);
  else if (args.scenario === 'transactions') await transactions(out, deadline);
  else throw new Failure(`unknown scenario ${args.scenario}`);
});
