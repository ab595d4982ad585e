// `kafkaesque sweep -- <test command>`: runs the test command once per
// preset × seed, each against a fresh cluster of its own (src/sweep/), and
// prints which presets broke the suite, the audit's anomaly lines, and the
// command that replays a failed cell. Exit 1 when any cell (or the baseline)
// failed, 2 for usage errors, 130 when interrupted, 0 otherwise.
import { writeFileSync } from 'node:fs';
import type { CommandModule } from 'yargs';
import { isValidSeed } from '../chaos/random.js';
import { listPresetNames, resolvePreset } from '../presets/load.js';
import { SweepInterrupted, sweep, type CellResult } from '../sweep/sweep.js';
import { sweepJUnit, sweepJson, sweepText } from '../sweep/report.js';
import { EXIT_FAILED, UsageError, print, printJson, run, wholeNumber } from './common.js';
import { optionFlag, wholeFlag } from './flags.js';
import { MAX_INT32 } from '../options-schema.js';
import { parseTopic } from './start.js';

interface SweepArgs {
  presets?: string;
  seeds?: string;
  'seed-count'?: number;
  jobs: number;
  'timeout-ms': number;
  baseline: boolean;
  brokers: number;
  topic: string[];
  json: boolean;
  junit?: string;
  'report-dir'?: string;
  '--'?: (string | number)[];
  _: (string | number)[];
}

const DEFAULT_SEEDS = [1, 2, 3];
const DEFAULT_TIMEOUT_MS = 120_000;
/** 128 + SIGINT, as a shell reports a command ended by Ctrl-C. */
const EXIT_INTERRUPTED = 130;

/** "a,b" → ['a', 'b'], each resolved now so a bad name or file is a usage error before any cell runs; "none": the baseline only. */
function presetsFrom(spec: string | undefined): string[] {
  if (spec === undefined) return listPresetNames();
  if (spec.trim() === 'none') return [];
  const names = spec.split(',').map((s) => s.trim()).filter(Boolean);
  if (names.length === 0) throw new UsageError(`--presets takes preset names or files separated by commas, got "${spec}"`);
  for (const n of names) {
    try {
      resolvePreset(n);
    } catch (err) {
      throw new UsageError(`--presets ${n}: ${(err as Error).message}`);
    }
  }
  return names;
}

function seedsFrom(args: SweepArgs): number[] {
  if (args.seeds !== undefined && args['seed-count'] !== undefined) throw new UsageError('give --seeds or --seed-count, not both');
  if (args['seed-count'] !== undefined) {
    const n = wholeNumber(args['seed-count'], '--seed-count', 1);
    return Array.from({ length: n }, (_, i) => i + 1);
  }
  if (args.seeds === undefined) return DEFAULT_SEEDS;
  const seeds = String(args.seeds).split(',').map((s) => s.trim()).filter(Boolean).map(Number);
  if (seeds.length === 0 || seeds.some((s) => !isValidSeed(s))) throw new UsageError(`--seeds takes seeds (whole numbers from 0 to 4294967295) separated by commas, got "${args.seeds}"`);
  return seeds;
}

/** A word as a POSIX shell reads it back. */
export function shellQuote(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/** The command that runs this one cell again, with the same cluster flags. */
function replayOf(args: SweepArgs, command: readonly string[]) {
  const cluster = [...(args.brokers !== 3 ? ['--brokers', String(args.brokers)] : []), ...args.topic.flatMap((t) => ['--topic', t])];
  return (c: CellResult) => {
    const cell = c.preset === null ? ['--presets', 'none'] : ['--presets', c.preset, '--no-baseline'];
    const words = ['kafkaesque', 'sweep', ...cell, '--seeds', String(c.seed), ...cluster, ...(args['timeout-ms'] !== DEFAULT_TIMEOUT_MS ? ['--timeout-ms', String(args['timeout-ms'])] : []), '--', ...command];
    return words.map(shellQuote).join(' ');
  };
}

export const sweepCommand: CommandModule<object, SweepArgs> = {
  command: 'sweep',
  describe: 'Run a test command once per preset × seed, each against a fresh cluster, and say which presets broke it (exit 1 if any)',
  builder: (y) =>
    y
      .parserConfiguration({ 'populate--': true })
      .option('presets', { type: 'string', describe: 'Presets to sweep, comma-separated names or files (default: every built-in preset; none: the baseline only)' })
      .option('seeds', { type: 'string', describe: 'Seeds, comma-separated (default: 1,2,3)' })
      .option('seed-count', { type: 'number', describe: 'Seeds 1..N instead of --seeds' })
      .option('jobs', wholeFlag('jobs', 'Cells run at once, each with its own cluster', [1, 64], { default: 1 }))
      .option('timeout-ms', wholeFlag('timeout-ms', "A cell's command is killed (with its process group) after this long; the cell fails", [1, MAX_INT32], { default: DEFAULT_TIMEOUT_MS }))
      .option('baseline', { type: 'boolean', default: true, describe: 'Run once without any preset first, and stop if that fails (--no-baseline: skip)' })
      .option('brokers', optionFlag('brokers', 'brokers', "Broker nodes of each cell's cluster", { default: 3 }))
      .option('topic', { type: 'string', array: true, default: [], describe: "Create a topic in each cell's cluster: name[:partitions[:replication]] (repeatable)" })
      .option('json', { type: 'boolean', default: false, describe: 'Print the result as one JSON object' })
      .option('report-dir', { type: 'string', requiresArg: true, describe: 'Write an HTML report (timeline, anomalies, faults before each) of every cell that fails into this directory' })
      .option('junit', { type: 'string', describe: 'Also write a JUnit XML report (one testcase per cell) to this file' })
      .example('$0 sweep -- npm test', 'every built-in preset, seeds 1,2,3')
      .example('$0 sweep --presets lost-ack,slow-broker --seed-count 5 --jobs 2 -- node check.mjs', '')
      .example('$0 sweep --junit sweep.xml --topic orders:3 -- npx jest test/kafka', 'a JUnit report for the CI') as never,
  handler: run(async (args) => {
    const command = (args['--'] ?? []).map(String);
    if (command.length === 0) throw new UsageError('give the test command after --, e.g. kafkaesque sweep -- npm test');
    if (args._.length > 1) throw new UsageError(`unexpected ${args._.slice(1).join(' ')}: put the test command after --`);
    const presets = presetsFrom(args.presets);
    const seeds = seedsFrom(args);
    // Checked by their flags (src/cli/flags.ts), as start's are.
    const { jobs, brokers } = args;
    const timeoutMs = args['timeout-ms'];
    let topics;
    try {
      topics = args.topic.map(parseTopic);
    } catch (err) {
      throw new UsageError((err as Error).message);
    }
    // Ctrl-C (or a CI's cancel) ends the running commands and their clusters before the sweep exits.
    const interrupt = new AbortController();
    const onSignal = () => interrupt.abort();
    process.once('SIGINT', onSignal);
    process.once('SIGTERM', onSignal);
    const swept = sweep({
      signal: interrupt.signal,
      command,
      presets,
      seeds,
      jobs,
      timeoutMs,
      baseline: args.baseline,
      cluster: { brokers, topics },
      ...(args['report-dir'] !== undefined ? { reportDir: args['report-dir'] } : {}),
      onCell: args.json ? undefined : (c) => process.stderr.write(`kafkaesque sweep: ${c.preset ?? 'baseline'} seed ${c.seed}: ${c.outcome} (${(c.durationMs / 1000).toFixed(1)}s)\n`),
    }).finally(() => {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    });
    let result;
    try {
      result = await swept;
    } catch (err) {
      if (!(err instanceof SweepInterrupted)) throw err;
      process.stderr.write(`kafkaesque: ${err.message}\n`);
      process.exitCode = EXIT_INTERRUPTED;
      return;
    }
    const replay = replayOf(args, command);
    if (args.junit) writeFileSync(args.junit, sweepJUnit(result, replay));
    if (args.json) printJson(sweepJson(result, replay));
    else print(sweepText(result, replay).trimEnd());
    if (!result.ok) process.exitCode = EXIT_FAILED;
  }),
};
