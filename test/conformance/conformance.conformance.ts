// Differential conformance: every sequence of sequences.ts against the real
// broker global-setup.mjs started and against a kafkaesque cluster with the
// matching profile, answer by answer. A sequence fails on a difference that
// known-differences.ts does not explain; docs/conformance.md gets the table.
import fs from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';

import { startCluster, type RunningCluster } from '../../src/index.js';
import { Normaliser, differences } from './normalise.js';
import { knownReason } from './known-differences.js';
import { markdown, outcome, section, sectionsOf, type SequenceResult } from './report.js';
import { SEQUENCES, type Sequence } from './sequences.js';
import { CAPTURE_SEQUENCES } from './captures.js';
import { Session, warmUp } from './session.js';

const bootstrap = process.env.KAFKAESQUE_CONFORMANCE_BOOTSTRAP;
const kafkaVersion = process.env.KAFKAESQUE_CONFORMANCE_VERSION ?? '';
const timings = JSON.parse(process.env.KAFKAESQUE_CONFORMANCE_TIMINGS ?? '{"fetchMs":0,"startMs":0}');
const profile = kafkaVersion.split('.').slice(0, 2).join('.');

// Against 4.4.x only the sequences of what only 4.4 serves (Sequence#on44).
const ALL = /^4\.4\./.test(kafkaVersion) ? SEQUENCES.filter((s) => s.on44) : [...SEQUENCES, ...CAPTURE_SEQUENCES];
let cluster: RunningCluster;
const results: SequenceResult[] = [];
const started = performance.now();

beforeAll(async () => {
  if (!bootstrap) throw new Error('no real broker: run through `npm run test:conformance` (its globalSetup starts one)');
  // The real broker's settings (scripts/real-kafka.mjs): one node, num.partitions=1, replication 1, no initial rebalance delay.
  cluster = await startCluster({ brokers: 1, kafkaVersion: profile, defaultPartitions: 1, defaultReplicationFactor: 1, groupInitialRebalanceDelayMs: 0, autoCreateTopics: true });
  // kafkaesque starts warm (coldStart false); the new real broker is warmed to the same state.
  await warmUp(bootstrap);
});

afterAll(async () => {
  await cluster?.stop();
  if (results.length === ALL.length) {
    const file = path.join(process.cwd(), 'docs', 'conformance.md');
    const sections = sectionsOf(fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '');
    sections.set(kafkaVersion, section(results, {
      date: new Date().toISOString().slice(0, 10),
      kafkaVersion,
      profile,
      node: process.version,
      fetchMs: timings.fetchMs,
      startMs: timings.startMs,
      suiteSeconds: (performance.now() - started) / 1000,
    }));
    fs.writeFileSync(file, markdown(sections));
  }
});

async function runOn(side: 'kafka' | 'kafkaesque', address: string, seq: Sequence): Promise<Session> {
  const s = new Session(side, address);
  try {
    await s.start();
    await seq.run(s);
    return s;
  } finally {
    s.close();
  }
}

async function compare(seq: Sequence): Promise<SequenceResult> {
  const t = performance.now();
  const result: SequenceResult = { sequence: seq, steps: 0, differences: [], seconds: 0 };
  try {
    const [real, ours] = await Promise.all([runOn('kafka', bootstrap!, seq), runOn('kafkaesque', cluster.bootstrap, seq)]);
    const a = new Normaliser(real.nodeId);
    const b = new Normaliser(ours.nodeId);
    const labels = (s: Session) => s.steps.map((x) => x.label).join(' > ');
    if (labels(real) !== labels(ours)) throw new Error(`the sides took different paths: kafka ${labels(real)}; kafkaesque ${labels(ours)}`);
    result.steps = real.steps.length;
    real.steps.forEach((step, i) => {
      const [x, y] = [a.walk(step.answer), b.walk(ours.steps[i]!.answer)];
      // KAFKAESQUE_CONFORMANCE_DUMP=<file>: every normalised answer pair, one JSON line each, to read a difference in full.
      if (process.env.KAFKAESQUE_CONFORMANCE_DUMP) fs.appendFileSync(process.env.KAFKAESQUE_CONFORMANCE_DUMP, `${JSON.stringify({ sequence: seq.id, step: step.label, kafka: x, kafkaesque: y })}\n`);
      for (const d of differences(x, y)) {
        const label = `${step.label} (${step.api} v${step.version})`;
        result.differences.push({ ...d, step: label, reason: knownReason(seq.id, step.label, d) });
      }
    });
  } catch (err) {
    result.error = err instanceof Error ? err.message : String(err);
  }
  result.seconds = (performance.now() - t) / 1000;
  return result;
}

describe(`conformance with Apache Kafka ${kafkaVersion}`, () => {
  for (const seq of ALL) {
    test(seq.title, async () => {
      const r = await compare(seq);
      results.push(r);
      const unexplained = r.differences.filter((d) => !d.reason).map((d) => `${d.step} / ${d.path}: kafka ${JSON.stringify(d.kafka)}, kafkaesque ${JSON.stringify(d.kafkaesque)}`);
      if (r.error) unexplained.push(`error: ${r.error}`);
      expect({ outcome: outcome(r), unexplained }).toEqual({ outcome: r.differences.length ? 'known differences' : 'same', unexplained: [] });
    });
  }
});
