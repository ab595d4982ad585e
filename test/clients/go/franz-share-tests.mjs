// franz-go's own share-group integration tests (pkg/kgo share_test.go:
// TestShareGroupETL, TestShareGroupAckOnClose, TestShareGroupOffsetsAdmin;
// share_resweep_test.go; the TestShareGroup config test) against a
// kafkaesque this script starts on the 4.4 profile, or against a running
// cluster (--bootstrap, e.g. a real Kafka 4.4.0 from scripts/real-kafka.mjs).
// The tests are the franz-go version test/clients/go/go.mod pins, copied out
// of the Go module cache (read-only there) and run with `go test`.
// Prints one line per test and a summary; exits 1 if any test failed or was
// skipped (a skip means the broker did not offer ShareFetch/ShareAcknowledge
// v2), or if franz-go logged a warning or an error (against a real Kafka
// 4.4.0 it logs none, with --chaos neither; a broker that answers what
// franz-go does not expect shows there first, e.g. partitions a share fetch
// did not ask for, while the tests still pass). Not part of `npm test`: the ETL test alone moves 500000 records
// through two share groups (about 15 s here, a minute on a real broker).
//
//   npm run build
//   node test/clients/go/franz-share-tests.mjs                      # 3 brokers, no proxy
//   node test/clients/go/franz-share-tests.mjs --brokers 1 --proxy  # 1 broker, through the chaos proxy
//   node test/clients/go/franz-share-tests.mjs --chaos              # KGO_TEST_CHAOS=1: franz-go's dialer kills connections
//   node test/clients/go/franz-share-tests.mjs --bootstrap 127.0.0.1:39192 --rf 1   # an existing cluster
//
// Options: --records N (KGO_TEST_RECORDS, default franz-go's 500000),
// --run REGEX (default TestShareGroup|TestAuditShare), --timeout S (go test,
// default 600), --verbose (franz-go's log lines too), --allow-warnings
// (franz-go's warnings do not fail the run).
import { spawn, execFileSync } from 'node:child_process';
import { cpSync, chmodSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const here = fileURLToPath(new URL('.', import.meta.url));
const { values: opt } = parseArgs({
  options: {
    brokers: { type: 'string', default: '3' },
    proxy: { type: 'boolean', default: false },
    chaos: { type: 'boolean', default: false },
    bootstrap: { type: 'string' },
    rf: { type: 'string' },
    records: { type: 'string' },
    run: { type: 'string', default: 'TestShareGroup|TestAuditShare' },
    timeout: { type: 'string', default: '600' },
    verbose: { type: 'boolean', default: false },
    'allow-warnings': { type: 'boolean', default: false },
  },
});

// On the machine's Go, as test/compat/clients.ts builds the drivers. What
// franz-go's own tests need beyond this module's graph (a fresh machine's
// module cache may lack it) comes from the Go module proxy.
const goEnv = { ...process.env, GOFLAGS: '-mod=mod', GOTOOLCHAIN: 'local', GOCACHE: process.env.GOCACHE ?? join(tmpdir(), 'kafkaesque-go-cache') };

function franzModuleDir() {
  const out = execFileSync('go', ['list', '-m', '-json', 'github.com/twmb/franz-go'], { cwd: here, env: goEnv, encoding: 'utf8', timeout: 20_000 });
  const mod = JSON.parse(out);
  if (!mod.Dir) throw new Error(`github.com/twmb/franz-go ${mod.Version} is not in the Go module cache (scripts/install-test-clients.sh downloads it)`);
  return mod;
}

/** The module cache is read-only: go test wants to write nothing, but a copy we own is simpler to clean up. */
function copyModule(dir) {
  const to = mkdtempSync(join(tmpdir(), 'kafkaesque-franz-'));
  cpSync(dir, to, { recursive: true });
  const writable = (p) => {
    chmodSync(p, statSync(p).mode | 0o200);
    if (statSync(p).isDirectory()) for (const e of readdirSync(p)) writable(join(p, e));
  };
  writable(to);
  return to;
}

async function main() {
  const mod = franzModuleDir();
  let cluster = null;
  let bootstrap = opt.bootstrap;
  let rf = opt.rf;
  if (!bootstrap) {
    const { startCluster } = await import('../../../dist/index.js');
    const brokers = Number(opt.brokers);
    cluster = await startCluster({ brokers, kafkaVersion: '4.4', proxy: opt.proxy, port: 0 });
    bootstrap = cluster.bootstrap;
    rf ??= String(Math.min(3, brokers));
  }
  const where = cluster ? `kafkaesque 4.4, ${opt.brokers} broker(s), ${opt.proxy ? 'proxy on' : 'no proxy'}` : `the cluster at ${bootstrap}`;
  process.stdout.write(`franz-go ${mod.Version} share tests (${opt.run}) against ${where}${opt.chaos ? ', KGO_TEST_CHAOS=1' : ''}\n`);
  const copy = copyModule(mod.Dir);
  const t0 = Date.now();
  try {
    const env = { ...goEnv, KGO_SEEDS: bootstrap.split(',')[0], KGO_TEST_RF: rf ?? '3', ...(opt.records ? { KGO_TEST_RECORDS: opt.records } : {}), ...(opt.chaos ? { KGO_TEST_CHAOS: '1' } : {}) };
    const { results, warnings } = await goTest(join(copy, 'pkg/kgo'), env);
    const secs = ((Date.now() - t0) / 1000).toFixed(1);
    const count = (s) => results.filter((r) => r.status === s).length;
    const nWarnings = [...warnings.values()].reduce((a, b) => a + b, 0);
    for (const [msg, n] of [...warnings].sort((a, b) => b[1] - a[1]).slice(0, 10)) process.stdout.write(`franz-go logged ${n}x: ${msg}\n`);
    process.stdout.write(`${results.length} tests: ${count('PASS')} passed, ${count('FAIL')} failed, ${count('SKIP')} skipped; ${nWarnings} franz-go warnings/errors; in ${secs} s (with the compile)\n`);
    const passed = results.length > 0 && count('PASS') === results.length;
    process.exitCode = passed && (nWarnings === 0 || opt['allow-warnings']) ? 0 : 1;
  } finally {
    rmSync(copy, { recursive: true, force: true });
    await cluster?.stop();
  }
}

/** go test -v, bounded; the --- PASS/FAIL/SKIP lines and the test's own t.Log/t.Error lines are echoed. */
function goTest(cwd, env) {
  return new Promise((resolve, reject) => {
    const timeoutS = Number(opt.timeout);
    const child = spawn('go', ['test', '-run', opt.run, '-count=1', '-v', `-timeout=${timeoutS}s`, '.'], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    const killer = setTimeout(() => child.kill('SIGKILL'), (timeoutS + 120) * 1000);
    const results = [];
    /** franz-go's WARN and ERROR lines, by message (what precedes the first ';'). */
    const warnings = new Map();
    let buf = '';
    const onData = (chunk) => {
      buf += chunk;
      let nl;
      while ((nl = buf.indexOf('\n')) >= 0) {
        const line = buf.slice(0, nl);
        buf = buf.slice(nl + 1);
        const m = /^\s*--- (PASS|FAIL|SKIP): (\S+) \(([\d.]+)s\)/.exec(line);
        if (m) results.push({ status: m[1], name: m[2], seconds: Number(m[3]) });
        const franzLog = line.startsWith('[');
        const w = franzLog && /^\[[^\]]*\]\[(WARN|ERROR)\] ([^;]*)/.exec(line);
        if (w) warnings.set(`${w[1]} ${w[2]}`, (warnings.get(`${w[1]} ${w[2]}`) ?? 0) + 1);
        if (m || (!franzLog && !/deleting topic/.test(line) && /share_test|resweep_test|^(FAIL|ok|PASS)\b|panic|\.go:\d+/.test(line)) || (opt.verbose && franzLog)) process.stdout.write(`${line}\n`);
      }
    };
    child.stdout.setEncoding('utf8').on('data', onData);
    child.stderr.setEncoding('utf8').on('data', onData);
    child.on('error', reject);
    child.on('close', () => {
      clearTimeout(killer);
      resolve({ results, warnings });
    });
  });
}

main().catch((e) => {
  process.stderr.write(`${e.stack ?? e}\n`);
  process.exitCode = 1;
});
