// What every JavaScript compatibility driver (test/clients/*_compat.mjs)
// shares: the command line, the messages of each scenario, the deadline, and
// the one JSON summary line. The scenarios and the report each one prints are
// described in test/compat/README.md; the checks are made by the suite
// (test/compat/), against the broker's own log and group state.
//
//   node test/clients/X_compat.mjs BOOTSTRAP SCENARIO TOPIC [-n N] [--partitions P]
//        [--group G] [--txn-id ID] [--timeout S]

export const SCENARIOS = ['metadata', 'produce-fetch', 'group', 'idempotent', 'transactions', 'consumer-group'];

export function parseArgs(argv, name) {
  const pos = [];
  const opt = { n: 200, partitions: 1, group: undefined, txnId: undefined, timeout: 40 };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '-n') opt.n = Number(argv[++i]);
    else if (a === '--partitions') opt.partitions = Number(argv[++i]);
    else if (a === '--group') opt.group = argv[++i];
    else if (a === '--txn-id') opt.txnId = argv[++i];
    else if (a === '--timeout') opt.timeout = Number(argv[++i]);
    else if (a.startsWith('-')) usage(name, `unknown option ${a}`);
    else pos.push(a);
  }
  if (pos.length !== 3 || !SCENARIOS.includes(pos[1]) || !(opt.n > 0) || !(opt.partitions > 0) || !(opt.timeout > 0)) usage(name);
  const [bootstrap, scenario, topic] = pos;
  return { bootstrap, scenario, topic, ...opt, group: opt.group ?? `${topic}-group`, txnId: opt.txnId ?? `${topic}-txn` };
}

function usage(name, msg) {
  if (msg) console.error(msg);
  console.error(`usage: ${name} BOOTSTRAP {${SCENARIOS.join('|')}} TOPIC [-n N] [--partitions P] [--group G] [--txn-id ID] [--timeout S]`);
  process.exit(2);
}

/** Message i of a run: value `${tag}-000042`, key `k42`, partition i % partitions. */
export function messagesFor(tag, n, partitions) {
  return Array.from({ length: n }, (_, i) => ({ key: `k${i}`, value: `${tag}-${String(i).padStart(6, '0')}`, partition: i % partitions }));
}

export class Failure extends Error {}

/** Rejects with a Failure after `ms` (or at the deadline, whichever is first). */
export function within(promise, ms, what, deadline) {
  const left = Math.min(ms, deadline - Date.now());
  let timer;
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Failure(`${what}: no result within ${Math.max(0, left)} ms`)), Math.max(0, left));
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** Resolves once `check()` is true, polling every 50 ms; a Failure naming `what` at the deadline. */
export async function until(check, what, deadline) {
  for (;;) {
    if (check()) return;
    if (Date.now() >= deadline) throw new Failure(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * Runs the driver: `body(out, deadline)` fills `out`; prints the summary line
 * and exits 0 (ok), 1 (a failed step) or 2 (timeout). A hard timer at
 * --timeout + 10 s prints what is known and exits, so a hung client cannot
 * outlive the suite.
 */
export async function runDriver(args, client, body) {
  const started = Date.now();
  const deadline = started + args.timeout * 1000;
  const out = { ok: false, client, scenario: args.scenario, topic: args.topic, errors: [] };
  const finish = (code) => {
    out.elapsed_s = (Date.now() - started) / 1000;
    process.stdout.write(`${JSON.stringify(out)}\n`, () => process.exit(code));
  };
  setTimeout(() => {
    out.errors.push(`hard timeout (${args.timeout + 10} s)`);
    finish(2);
  }, (args.timeout + 10) * 1000).unref();
  try {
    await body(out, deadline);
    out.ok = out.errors.length === 0;
  } catch (err) {
    out.errors.push(err instanceof Failure ? err.message : String(err?.stack ?? err));
  }
  finish(out.ok ? 0 : out.errors.some((e) => /timed out|no result within|hard timeout/.test(e)) ? 2 : 1);
}
