#!/usr/bin/env node
// kcat smoke test: the invocations documented in kcat.md, run without a shell.
//
//   node test/clients/kcat_basic.mjs BOOTSTRAP TOPIC [-n N] [--partition P] [--no-idempotence] [--timeout S]
//
// Lists metadata (kcat -L -J), produces N lines with acks=all and N with
// enable.idempotence=true to one partition (kcat -P ... -p P), reads that
// partition back from the beginning without a consumer group (kcat -C ... -e,
// librdkafka's legacy simple consumer: no FindCoordinator at all) and checks
// that both runs' lines are there, once each, in order, at consecutive
// offsets. Prints one JSON summary line on stdout; exit 0 ok, 1 failed check,
// 2 usage error or timeout. Every kcat process is killed after its timeout.

import { spawnSync } from 'node:child_process';

const KCAT = process.env.KCAT ?? 'kcat';

function usage(msg) {
  if (msg) console.error(msg);
  console.error('usage: kcat_basic.mjs BOOTSTRAP TOPIC [-n N] [--partition P] [--no-idempotence] [--timeout S]');
  process.exit(2);
}

const argv = process.argv.slice(2);
const pos = [];
const opt = { n: 100, partition: 0, idempotence: true, timeout: 60 };
for (let i = 0; i < argv.length; i++) {
  const a = argv[i];
  if (a === '-n' || a === '--messages') opt.n = Number(argv[++i]);
  else if (a === '--partition') opt.partition = Number(argv[++i]);
  else if (a === '--no-idempotence') opt.idempotence = false;
  else if (a === '--timeout') opt.timeout = Number(argv[++i]);
  else if (a === '-h' || a === '--help') usage();
  else if (a.startsWith('-')) usage(`unknown option ${a}`);
  else pos.push(a);
}
if (pos.length !== 2 || !(opt.n > 0) || !(opt.partition >= 0) || !(opt.timeout > 0)) usage();
const [bootstrap, topic] = pos;
const deadline = Date.now() + opt.timeout * 1000;
const out = { ok: false, tool: 'kcat', bootstrap, topic, partition: opt.partition, commands: [], errors: [] };

class Failure extends Error {}

/** Run kcat with argv (no shell), stdin text; bounded by min(20 s, time left). */
function kcat(args, input = undefined) {
  const left = deadline - Date.now();
  if (left <= 0) throw new Failure('timed out');
  const timeout = Math.min(20000, left);
  const res = spawnSync(KCAT, args, { input, encoding: 'utf8', timeout, killSignal: 'SIGKILL', maxBuffer: 64 << 20 });
  out.commands.push([KCAT, ...args].join(' '));
  if (res.error?.code === 'ENOENT') throw new Failure(`${KCAT} not found (apt-get install -y kcat)`);
  if (res.error?.code === 'ETIMEDOUT') throw new Failure(Date.now() >= deadline - 50 ? 'timed out' : `${KCAT} ${args[0]}: no exit within ${timeout} ms`);
  if (res.error) throw new Failure(`${KCAT} ${args[0]}: ${res.error.message}`);
  if (res.status !== 0) {
    throw new Failure(`${KCAT} ${args.join(' ')} exited ${res.status ?? res.signal}: ${res.stderr.trim().split('\n').slice(-3).join(' | ')}`);
  }
  return res.stdout;
}

try {
  // 1. Metadata (auto-creates the topic on brokers that allow it).
  let md;
  for (;;) {
    md = JSON.parse(kcat(['-L', '-J', '-b', bootstrap, '-t', topic, '-m', '10']));
    const t = md.topics?.find((x) => x.topic === topic);
    if (t && !t.error && t.partitions?.length && t.partitions.every((p) => p.leader >= 0)) break;
    if (Date.now() + 300 > deadline) throw new Failure(`metadata for ${topic}: ${t?.error ?? 'no partitions / leaders'}`);
    await new Promise((r) => setTimeout(r, 300));
  }
  const t = md.topics.find((x) => x.topic === topic);
  out.brokers = md.brokers.map((b) => b.id).sort((a, b) => a - b);
  out.controller_id = md.controllerid;
  out.partitions = t.partitions.map((p) => ({ id: p.partition, leader: p.leader }));
  if (!t.partitions.some((p) => p.partition === opt.partition)) {
    throw new Failure(`${topic} has no partition ${opt.partition}`);
  }

  // 2 and 3. Produce N lines per producer; kcat exits non-zero if any delivery fails.
  const runs = [['acks_all', ['-X', 'acks=all']]];
  if (opt.idempotence) runs.push(['idempotent', ['-X', 'acks=all', '-X', 'enable.idempotence=true']]);
  const sent = [];
  out.produce = {};
  for (const [name, extra] of runs) {
    const lines = Array.from({ length: opt.n }, (_, i) => `${name}-${String(i).padStart(8, '0')}`);
    const t0 = Date.now();
    kcat(['-P', '-b', bootstrap, '-t', topic, '-p', String(opt.partition), ...extra, '-X', 'message.timeout.ms=15000'], `${lines.join('\n')}\n`);
    out.produce[name] = { sent: lines.length, seconds: (Date.now() - t0) / 1000 };
    sent.push(...lines);
  }

  // 4. Read the partition back, no group.
  const records = kcat(['-C', '-b', bootstrap, '-t', topic, '-p', String(opt.partition), '-o', 'beginning', '-e', '-J', '-q'])
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l));
  const sentSet = new Set(sent);
  const mine = records.filter((r) => sentSet.has(r.payload));
  out.consume = { read: records.length, ours: mine.length, expected: sent.length, preexisting: records.length - mine.length };
  const problems = [];
  const offsets = records.map((r) => r.offset);
  if (offsets.some((o, i) => i > 0 && o <= offsets[i - 1])) problems.push('offsets not strictly ascending');
  if (mine.length !== sent.length) problems.push(`read back ${mine.length} of ${sent.length} sent lines`);
  else if (mine.some((r, i) => r.payload !== sent[i])) problems.push('lines read back out of order (or duplicated)');
  else if (mine.some((r, i) => i > 0 && r.offset !== mine[i - 1].offset + 1)) problems.push('our lines are not at consecutive offsets');
  if (problems.length) throw new Failure(problems.join('; '));
  out.ok = true;
} catch (err) {
  out.errors.push(err instanceof Failure ? err.message : String(err?.stack ?? err));
}
console.log(JSON.stringify(out));
process.exit(out.ok ? 0 : out.errors[0] === 'timed out' ? 2 : 1);
