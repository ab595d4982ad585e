// Kafka Streams against kafkaesque (issue 19, item 4): a word count with
// processing.guarantee=exactly_once_v2 (test/clients/java/streams/
// WordCount.java, kafka-streams 4.4 from Maven Central), whose groupBy makes
// a repartition topic and whose count() a changelog. Words go in while it
// runs; its output, read read_committed, must hold each word's counts 1..n
// exactly once and in order: in a normal run, and under the presets that
// move leaders, fence producers and force rebalances. Streams must also find
// its internal topics created as it asked. It runs on the 4.4 profile, as a
// Streams 4.4 application meets a 4.4 cluster: transaction.version 2, so its
// producers run transactions v2 (KIP-890 part 2: Produce v12, EndTxn v5).
//
// The application talks through the proxy (where the presets fire); the
// test's own producer and reader use the side door, so no fault aims at
// them. In CI a missing build fails; elsewhere the tests are skipped until
// scripts/install-test-clients.sh has built the application.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startCluster, type RunningCluster } from '../../src/index.js';
import { kafkajs } from '../support/kafkajs.js';

const dir = 'test/clients/java/streams';
const built = existsSync(join(dir, 'classes/WordCount.class')) && existsSync(join(dir, 'lib')) && readdirSync(join(dir, 'lib')).some((f) => f.startsWith('kafka-streams-'));
if (!built && process.env.CI) throw new Error(`${dir} is not built: run scripts/install-test-clients.sh (it runs ${dir}/build.sh)`);
const it = built ? test : test.skip;

const WORDS = ['apple', 'banana', 'cherry', 'date', 'elder'];
const ROUNDS = 6; // sends of one batch each, 300 ms apart, while the application runs
const PER_ROUND = 5; // of each word, per send: each word is counted ROUNDS * PER_ROUND times
const TIMEOUT_MS = 75_000;

interface StreamsSummary {
  ok: boolean;
  errors: string[];
  states: string[];
}

/** The Java application, its stdout lines gathered; finish() closes its stdin and resolves its summary line. */
function startWordCount(bootstrap: string, appId: string, stateDir: string) {
  const lines: string[] = [];
  const child: ChildProcess = spawn(
    'java',
    ['-XX:TieredStopAtLevel=1', '-XX:+UseSerialGC', '-Xmx256m', '-Dorg.slf4j.simpleLogger.defaultLogLevel=error', '-cp', `${dir}/lib/*:${dir}/classes`, 'WordCount', '--bootstrap', bootstrap, '--input', 'words', '--output', 'counts', '--app-id', appId, '--state-dir', stateDir, '--timeout', String(TIMEOUT_MS / 1000 + 15)],
    { stdio: ['pipe', 'pipe', 'pipe'] },
  );
  let out = '';
  child.stdout!.on('data', (b: Buffer) => {
    out += b.toString();
    const parts = out.split('\n');
    out = parts.pop()!;
    lines.push(...parts.filter((l) => l.startsWith('{')));
  });
  let stderr = '';
  child.stderr!.on('data', (b: Buffer) => (stderr = (stderr + b.toString()).slice(-4000)));
  // 'close', not 'exit': the summary line may still be in the pipe when the process exits.
  const exited = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
  return {
    lines,
    async finish(): Promise<StreamsSummary> {
      child.stdin!.end();
      const killer = setTimeout(() => child.kill('SIGKILL'), 30_000);
      const code = await exited;
      clearTimeout(killer);
      const last = [...lines].reverse().find((l) => l.startsWith('{"ok":'));
      if (!last) throw new Error(`WordCount exited ${code} with no summary; its last lines: ${lines.slice(-5).join(' | ')}; stderr: ${stderr}`);
      return JSON.parse(last) as StreamsSummary;
    },
    kill: () => child.kill('SIGKILL'),
  };
}

/** Each word's counts as the output holds them, read read_committed through the side door, until every word reaches `want` or the time is up. */
async function readCounts(kafka: RunningCluster, want: number, timeoutMs: number): Promise<Map<string, number[]>> {
  const counts = new Map<string, number[]>(WORDS.map((w) => [w, []]));
  const consumer = kafkajs(kafka.directBootstrap!, 'streams-check').consumer({ groupId: `check-${Date.now()}`, maxWaitTimeInMs: 100, readUncommitted: false });
  await consumer.connect();
  await consumer.subscribe({ topic: 'counts', fromBeginning: true });
  let timer: NodeJS.Timeout | undefined;
  try {
    await new Promise<void>((resolve) => {
      timer = setTimeout(resolve, timeoutMs);
      void consumer.run({
        eachMessage: async ({ message }) => {
          const word = message.key!.toString();
          counts.get(word)?.push(Number(message.value!.readBigInt64BE()));
          if (WORDS.every((w) => counts.get(w)!.at(-1) === want)) resolve();
        },
      });
    });
  } finally {
    clearTimeout(timer);
    await consumer.disconnect();
  }
  return counts;
}

async function wordCountRun(preset: string | null) {
  const kafka = await startCluster({ brokers: 3, kafkaVersion: '4.4', topics: [{ name: 'words', partitions: 3 }, { name: 'counts', partitions: 3 }], presets: preset ? [preset] : [] });
  const stateDir = mkdtempSync(join(tmpdir(), 'kafkaesque-streams-'));
  const appId = `word-count-${preset ?? 'plain'}`;
  const app = startWordCount(kafka.bootstrap, appId, stateDir);
  try {
    const producer = kafkajs(kafka.directBootstrap!, 'streams-input').producer({ idempotent: true });
    await producer.connect();
    for (let round = 0; round < ROUNDS; round++) {
      await producer.send({ topic: 'words', acks: -1, messages: WORDS.flatMap((w) => Array.from({ length: PER_ROUND }, () => ({ value: w }))) });
      await new Promise((r) => setTimeout(r, 300));
    }
    await producer.disconnect();
    const counts = await readCounts(kafka, ROUNDS * PER_ROUND, TIMEOUT_MS);
    const summary = await app.finish();
    const topics = new Map([...kafka.cluster.topics.values()].map((t) => [t.name, t]));
    const fired = kafka.chaos.rules().map((r) => `${r.action.type}: ${r.fired}`);
    const transactionVersions = [...new Set(kafka.cluster.transactions.all().map((t) => t.clientTransactionVersion))];
    return { counts, summary, lines: app.lines, topics, fired, transactionVersions };
  } finally {
    app.kill();
    await kafka.stop();
    rmSync(stateDir, { recursive: true, force: true });
  }
}

const expected = Array.from({ length: ROUNDS * PER_ROUND }, (_, i) => i + 1);

it('a normal run: each count once, and the internal topics made as Streams asked', async () => {
  const { counts, summary, lines, topics, transactionVersions } = await wordCountRun(null);
  for (const w of WORDS) expect({ word: w, counts: counts.get(w) }).toEqual({ word: w, counts: expected });
  // Its exactly-once producers ran transactions v2.
  expect(transactionVersions).toEqual([2]);
  expect({ summary, lines: lines.filter((l) => l.includes('uncaught')) }).toMatchObject({ summary: { ok: true, errors: [] }, lines: [] });
  // Streams creates both with the input's partition count and the configs it needs.
  const repartition = topics.get('word-count-plain-by-word-repartition');
  const changelog = topics.get('word-count-plain-counts-changelog');
  expect(repartition?.partitions).toHaveLength(3);
  expect(changelog?.partitions).toHaveLength(3);
  expect(repartition?.configs.get('cleanup.policy')).toBe('delete');
  expect(changelog?.configs.get('cleanup.policy')).toBe('compact');
  // It purges what it has processed of the repartition topic (DeleteRecords): no partition still starts at 0 once it has moved on.
  expect(repartition!.partitions.some((p) => p.logStartOffset > 0)).toBe(true);
}, 120_000);

for (const preset of ['leader-flapping', 'zombie-producer', 'rebalance-storm']) {
  it(`under ${preset}: each count once, in order`, async () => {
    const { counts, lines, fired } = await wordCountRun(preset);
    const uncaught = lines.filter((l) => l.includes('uncaught'));
    for (const w of WORDS) expect({ word: w, counts: counts.get(w), uncaught, fired }).toEqual({ word: w, counts: expected, uncaught, fired });
    // The faults happened: every rule of the preset fired at least once on the application's requests.
    expect(fired.filter((f) => f.endsWith(': 0'))).toEqual([]);
  }, 120_000);
}
