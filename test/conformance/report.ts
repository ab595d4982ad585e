// docs/conformance.md, written by each run of the suite (generated: edit
// this file or the sequences, not that one).
import type { Difference } from './normalise.js';
import { NORMALISATION_RULES } from './normalise.js';
import type { Sequence } from './sequences.js';

export interface SequenceResult {
  sequence: Sequence;
  steps: number;
  /** Differences with the known reason, if listed. */
  differences: (Difference & { step: string; reason?: string })[];
  error?: string;
  seconds: number;
}

export interface ConformanceRun {
  date: string;
  kafkaVersion: string;
  profile: string;
  node: string;
  fetchMs: number;
  startMs: number;
  suiteSeconds: number;
}

export function outcome(r: SequenceResult): 'same' | 'known differences' | 'DIFFERENT' | 'ERROR' {
  if (r.error) return 'ERROR';
  if (r.differences.some((d) => !d.reason)) return 'DIFFERENT';
  return r.differences.length > 0 ? 'known differences' : 'same';
}

const md = (s: string) => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');
const show = (v: unknown) => {
  const text = JSON.stringify(v) ?? 'absent';
  return md(text.length > 120 ? `${text.slice(0, 117)}...` : text);
};

/** This run's section: one Kafka version, its results and its differences. */
export function section(results: SequenceResult[], run: ConformanceRun): string {
  const out: string[] = [];
  out.push(`## Apache Kafka ${run.kafkaVersion} against the \`${run.profile}\` profile`, '');
  out.push(`Last run: ${run.date}, Node ${run.node}. Kafka's jars ready in ${(run.fetchMs / 1000).toFixed(1)} s, the broker serving in ${(run.startMs / 1000).toFixed(1)} s, the sequences in ${run.suiteSeconds.toFixed(1)} s.`, '');
  if (/^4\.4\./.test(run.kafkaVersion)) {
    out.push(
      'Against 4.4 only the sequences of what only 4.4 serves (share groups) run: the rest of the `4.4` profile answers as the `4.0` one, which the 4.0.2 section checks. ' +
        'A real 4.4.0 also differs there, not modelled yet: KIP-848 group epochs start at 1 (the first member gets epoch 2) and a new target is computed at most once a second (`group.consumer.assignment.interval.ms`, the group `Assigning` meanwhile); ' +
        'CreateTopics and DescribeConfigs list 4.4\'s new topic configs (`max.decompressed.message.bytes`, `remote.copy.lag.bytes`, `remote.copy.lag.ms`) and `min.insync.replicas` from the broker\'s static config.',
      '',
    );
  }
  out.push('| sequence | what it shows | answers | result |', '|---|---|---|---|');
  for (const r of results) out.push(`| ${md(r.sequence.title)} | ${md(r.sequence.rules)} | ${r.steps} | ${outcome(r)} |`);
  const total = results.reduce((n, r) => n + r.steps, 0);
  out.push('', `${results.length} sequences, ${total} compared answers.`, '');
  // Known differences grouped by their reason: how many answers show it, where, and one example.
  const known = new Map<string, { count: number; sequences: Set<string>; example: Difference & { step: string } }>();
  for (const r of results) {
    for (const d of r.differences) {
      if (!d.reason) continue;
      const k = known.get(d.reason) ?? { count: 0, sequences: new Set<string>(), example: d };
      k.count++;
      k.sequences.add(r.sequence.id);
      known.set(d.reason, k);
    }
  }
  if (known.size) {
    out.push('Known differences, kept on purpose, each with its reason (docs/unsupported.md lists them too):', '');
    out.push('| why | fields | in | for example |', '|---|---|---|---|');
    for (const [reason, k] of known) {
      const e = k.example;
      out.push(`| ${md(reason)} | ${k.count} | ${[...k.sequences].join(', ')} | ${md(e.step)}: \`${md(e.path)}\` Kafka ${show(e.kafka)}, kafkaesque ${show(e.kafkaesque)} |`);
    }
    out.push('');
  }
  const unknown = results.flatMap((r) => r.differences.filter((d) => !d.reason).map((d) => ({ r, d })));
  const errors = results.filter((r) => r.error);
  if (unknown.length || errors.length) {
    out.push('**Unexplained differences (the run failed):**', '');
    for (const { r, d } of unknown) out.push(`- ${r.sequence.id} / ${md(d.step)} / \`${md(d.path)}\`: Kafka ${show(d.kafka)}, kafkaesque ${show(d.kafkaesque)}`);
    for (const r of errors) out.push(`- ${r.sequence.id}: ${md(r.error!)}`);
    out.push('');
  }
  return out.join('\n');
}

const begin = (v: string) => `<!-- kafka ${v} -->`;
const end = (v: string) => `<!-- /kafka ${v} -->`;

/** The sections of an existing docs/conformance.md, by Kafka version, so that a run of one version keeps the others'. */
export function sectionsOf(doc: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const m of doc.matchAll(/<!-- kafka (\S+) -->\n([\s\S]*?)\n<!-- \/kafka \1 -->/g)) out.set(m[1]!, m[2]!);
  return out;
}

const byVersion = (a: string, b: string) => {
  const [x, y] = [a.split('.').map(Number), b.split('.').map(Number)];
  for (let i = 0; i < Math.max(x.length, y.length); i++) if ((x[i] ?? 0) !== (y[i] ?? 0)) return (x[i] ?? 0) - (y[i] ?? 0);
  return 0;
};

export function markdown(sections: Map<string, string>): string {
  const out: string[] = [];
  out.push('<!-- Generated by `npm run test:conformance` (test/conformance/). Do not edit: change the suite and run it again. -->');
  out.push('# Conformance against a real Apache Kafka broker', '');
  out.push(
    'The same request sequences, sent over raw sockets with kafkaesque\'s own codec (src/protocol), to a real Apache Kafka broker ' +
      '(KRaft, one node, scripts/real-kafka.mjs) and to a one-broker kafkaesque cluster with the matching `kafkaVersion` profile; ' +
      'each answer decoded and compared field by field after the normalisation below. Each side runs a sequence with the ids its own earlier answers gave (producer ids, member ids, generations). ' +
      'A difference the suite does not list as known fails it. `KAFKAESQUE_CONFORMANCE_KAFKA=3.9.1 npm run test:conformance` runs it against another release (its section below is rewritten, the others kept).',
    '',
  );
  out.push(
    'Both sides: one node, `__consumer_offsets` and `__transaction_state` in place before the first compared step (the real broker is warmed by FindCoordinator and InitProducerId; kafkaesque starts warm), ' +
      '`num.partitions=1`, replication factor 1, `group.initial.rebalance.delay.ms=0`, auto-creation on. A setup request (a topic for a sequence, waiting for its leader or for a transaction\'s markers) is retried while a broker is still settling and is not compared.',
    '',
  );
  for (const v of [...sections.keys()].sort(byVersion).reverse()) out.push(begin(v), sections.get(v)!, end(v), '');
  out.push('## Normalisation', '', 'Rewritten to the same placeholder on both sides before comparing; everything else is compared as decoded:', '');
  for (const rule of NORMALISATION_RULES) out.push(`- ${rule}`);
  out.push('');
  return out.join('\n');
}
