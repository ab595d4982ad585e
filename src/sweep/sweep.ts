// The preset sweep (`kafkaesque sweep`): runs a test command once per
// preset × seed, each run (a cell) against a fresh cluster of its own,
// started in this process on free ports and stopped after the command, so no
// cell inherits another's topics, groups, producer ids or rules, and cells
// can run side by side. A baseline cell without any preset runs first: a
// suite that fails without faults says nothing about any preset.
//
// The command learns its cell from the environment:
//   KAFKA_BROKERS              the bootstrap, through the chaos proxy
//   KAFKAESQUE_DIRECT_BROKERS  the fault-free side door, for the test's own clients
//   KAFKAESQUE_URL             the control API
//   KAFKAESQUE_PRESET          the cell's preset (unset for the baseline)
//   KAFKAESQUE_SEED            the cell's seed
//   KAFKAESQUE_AUDIT_OUT       where the delivery audit writes what it found
//   KAFKAESQUE_PRESETS, KAFKAESQUE_OPTIONS  the same cell for a suite whose
//                              jest fixture starts a cluster of its own
import { spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startCluster, type RunningCluster } from '../start.js';
import { writeReport } from '../report/report.js';
import type { KafkaesqueOptions } from '../options.js';
import { AUDIT_OUT_ENV } from '../audit/audit-out.js';

export interface SweepCell {
  /** The preset under test; null for the baseline. */
  readonly preset: string | null;
  readonly seed: number;
}

export type CellOutcome = 'passed' | 'failed' | 'timed-out';

export interface CellResult extends SweepCell {
  readonly outcome: CellOutcome;
  /** The command's exit code; null when a signal ended it. */
  readonly exitCode: number | null;
  readonly signal: string | null;
  readonly durationMs: number;
  /** How many times the cell's rules fired on the sweep's cluster. */
  readonly faultsFired: number;
  /** What the delivery audit found, from KAFKAESQUE_AUDIT_OUT. */
  readonly anomalies: string[];
  /** With reportDir, the HTML report of a cell that did not pass. */
  readonly report?: string;
  /** The last lines the command wrote (stdout and stderr, as they came). */
  readonly outputTail: string[];
  /** The environment that told the command its cell (without the inherited one). */
  readonly env: Readonly<Record<string, string>>;
}

export interface SweepOptions {
  /** The test command: one string runs in a shell, several are a program and its arguments. */
  command: readonly string[];
  /** Presets to sweep (built-in names or preset file paths). */
  presets: readonly string[];
  seeds: readonly number[];
  /** Cells run at once, each with its own cluster. */
  jobs: number;
  /** A cell's command is killed (with its process group) after this long. */
  timeoutMs: number;
  /** Cluster options for every cell (brokers, topics …); ports are always free ones. */
  cluster?: Partial<KafkaesqueOptions>;
  /** Run the no-preset baseline first, and stop when it fails (default true). */
  baseline?: boolean;
  /** Write an HTML report (docs/web-view.md) of each cell that does not pass into this directory. */
  reportDir?: string;
  /** Lines of output kept per cell. */
  tailLines?: number;
  /** Called as each cell ends (in completion order). */
  onCell?: (result: CellResult) => void;
  cwd?: string;
  /** The environment the command inherits; default process.env. */
  env?: NodeJS.ProcessEnv;
  /** Aborting kills the running cells' commands (their process groups), starts no more, and rejects with SweepInterrupted. */
  signal?: AbortSignal;
}

/** The sweep was stopped by its AbortSignal (Ctrl-C on the CLI): the cells that ran are in `done`. */
export class SweepInterrupted extends Error {
  override name = 'SweepInterrupted';
  constructor(readonly done: CellResult[]) {
    super(`sweep interrupted after ${done.length} cell(s)`);
  }
}

export interface SweepResult {
  readonly baseline: CellResult | null;
  /** The preset cells, in preset then seed order; empty when the baseline failed. */
  readonly cells: CellResult[];
  /** Whether every cell (and the baseline) passed. */
  readonly ok: boolean;
}

/** Every preset × seed cell, in preset order then seed order. */
export function sweepCells(presets: readonly string[], seeds: readonly number[]): SweepCell[] {
  return presets.flatMap((preset) => seeds.map((seed) => ({ preset, seed })));
}

export async function sweep(o: SweepOptions): Promise<SweepResult> {
  if (o.command.length === 0) throw new RangeError('command: give the test command to run, after --');
  if (!Number.isInteger(o.jobs) || o.jobs < 1) throw new RangeError(`jobs must be a whole number >= 1, got ${o.jobs}`);
  const done: CellResult[] = [];
  const run = (cell: SweepCell) => runCell(cell, o).then((r) => (done.push(r), o.onCell?.(r), r));
  const interrupted = () => o.signal?.aborted === true;
  let baseline: CellResult | null = null;
  if (o.baseline !== false) {
    baseline = await run({ preset: null, seed: o.seeds[0] ?? 1 });
    if (interrupted()) throw new SweepInterrupted(done);
    if (baseline.outcome !== 'passed') return { baseline, cells: [], ok: false };
  }
  const cells = await inPool(sweepCells(o.presets, o.seeds), o.jobs, run, interrupted);
  if (interrupted()) throw new SweepInterrupted(done);
  return { baseline, cells, ok: cells.every((c) => c.outcome === 'passed') };
}

/** Runs `work` over `items` with at most `jobs` at once, none started once `stop()` says so; results in item order. */
async function inPool<T, R>(items: readonly T[], jobs: number, work: (item: T) => Promise<R>, stop: () => boolean): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length && !stop()) {
      const i = next++;
      results[i] = await work(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(jobs, items.length) }, worker));
  return results;
}

/** The environment that names a cell to its command. */
function cellEnv(cell: SweepCell, running: { bootstrap: string; directBootstrap: string | null; controlUrl: string }, auditOut: string, inherited: NodeJS.ProcessEnv, fixtureReport?: string): Record<string, string> {
  let fixtureOptions: Record<string, unknown> = {};
  try {
    fixtureOptions = inherited.KAFKAESQUE_OPTIONS ? (JSON.parse(inherited.KAFKAESQUE_OPTIONS) as Record<string, unknown>) : {};
  } catch {
    // A bad KAFKAESQUE_OPTIONS is the fixture's to report; the seed still goes in.
  }
  return {
    KAFKA_BROKERS: running.bootstrap,
    ...(running.directBootstrap ? { KAFKAESQUE_DIRECT_BROKERS: running.directBootstrap } : {}),
    KAFKAESQUE_URL: running.controlUrl,
    ...(cell.preset !== null ? { KAFKAESQUE_PRESET: cell.preset, KAFKAESQUE_PRESETS: cell.preset } : {}),
    KAFKAESQUE_SEED: String(cell.seed),
    // A suite whose fixture starts its own cluster writes that cluster's report here.
    KAFKAESQUE_OPTIONS: JSON.stringify({ ...fixtureOptions, seed: cell.seed, ...(fixtureReport ? { report: fixtureReport } : {}) }),
    [AUDIT_OUT_ENV]: auditOut,
  };
}

const LEAKS = /^KAFKAESQUE_(PRESETS?|DIRECT_BROKERS|TOKEN|TLS_.*)$/;

async function runCell(cell: SweepCell, o: SweepOptions): Promise<CellResult> {
  const started = Date.now();
  const running = await startCluster({
    ...o.cluster,
    port: 0,
    ports: undefined,
    controlPort: 0,
    seed: cell.seed,
    presets: cell.preset !== null ? [cell.preset] : [],
    logLevel: o.cluster?.logLevel ?? 'silent',
  });
  const dir = mkdtempSync(join(tmpdir(), 'kafkaesque-sweep-'));
  try {
    const auditOut = join(dir, 'audit.txt');
    const inherited = o.env ?? process.env;
    const fixtureReport = o.reportDir !== undefined ? join(dir, 'fixture-report.html') : undefined;
    const env = cellEnv(cell, running, auditOut, inherited, fixtureReport);
    // What a surrounding run set and this cell does not (a preset, a token, TLS files) must not leak into it.
    const base = Object.fromEntries(Object.entries(inherited).filter(([k]) => !LEAKS.test(k)));
    const exit = await runCommand(o.command, { ...base, ...env }, o.timeoutMs, o.tailLines ?? 30, o.cwd, o.signal);
    let anomalies: string[] = [];
    try {
      anomalies = readFileSync(auditOut, 'utf8').split('\n').filter((l) => l.trim() !== '');
    } catch {
      // No audit found anything (or none ran).
    }
    const faultsFired = running.chaos.rules().reduce((n, r) => n + r.fired, 0);
    const outcome: CellOutcome = exit.timedOut ? 'timed-out' : exit.code === 0 ? 'passed' : 'failed';
    const report = outcome !== 'passed' && o.reportDir !== undefined ? cellReport(cell, o.reportDir, fixtureReport!, running) : undefined;
    return { ...cell, outcome, exitCode: exit.code, signal: exit.signal, durationMs: Date.now() - started, faultsFired, anomalies, ...(report ? { report } : {}), outputTail: exit.tail, env };
  } finally {
    await running.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * The report of a cell that did not pass: the one the suite's own fixture
 * cluster wrote (it saw the traffic), else the sweep cluster's, which the
 * suite used through KAFKA_BROKERS.
 */
function cellReport(cell: SweepCell, reportDir: string, fixtureReport: string, running: RunningCluster): string | undefined {
  const file = join(reportDir, `${(cell.preset ?? 'baseline').replace(/[^\w.-]+/g, '_')}-seed-${cell.seed}.html`);
  try {
    mkdirSync(reportDir, { recursive: true });
    if (existsSync(fixtureReport)) copyFileSync(fixtureReport, file);
    else writeReport(file, { cluster: running.cluster, chaos: running.chaos, seed: running.seed, bootstrap: running.bootstrap, proxy: running.proxy });
    return file;
  } catch (err) {
    process.stderr.write(`kafkaesque sweep: cannot write the report ${file}: ${(err as Error).message}\n`);
    return undefined;
  }
}

interface CommandExit {
  code: number | null;
  signal: string | null;
  timedOut: boolean;
  tail: string[];
}

/** Runs the command in a process group of its own, so a timeout ends everything it started. */
function runCommand(command: readonly string[], env: NodeJS.ProcessEnv, timeoutMs: number, tailLines: number, cwd?: string, signal?: AbortSignal): Promise<CommandExit> {
  const [program, ...args] = command;
  const child = spawn(program!, args, { shell: command.length === 1, env, cwd, detached: process.platform !== 'win32', stdio: ['ignore', 'pipe', 'pipe'] });
  const tail = new OutputTail(tailLines);
  child.stdout.on('data', (c: Buffer) => tail.push(c));
  child.stderr.on('data', (c: Buffer) => tail.push(c));
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    killGroup(child.pid);
  }, timeoutMs);
  // In a group of its own the command does not get the terminal's Ctrl-C: pass it on.
  const abort = () => killGroup(child.pid);
  signal?.addEventListener('abort', abort, { once: true });
  if (signal?.aborted) abort();
  const settle = () => {
    clearTimeout(timer);
    signal?.removeEventListener('abort', abort);
  };
  return new Promise((resolve) => {
    child.once('error', (err) => {
      settle();
      tail.push(Buffer.from(`kafkaesque sweep: cannot run ${program}: ${err.message}\n`));
      resolve({ code: null, signal: null, timedOut: false, tail: tail.lines() });
    });
    child.once('close', (code, endedBy) => {
      settle();
      // Whatever the command left running in its group goes with it.
      killGroup(child.pid);
      resolve({ code, signal: endedBy, timedOut, tail: tail.lines() });
    });
  });
}

function killGroup(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    process.kill(process.platform === 'win32' ? pid : -pid, 'SIGKILL');
  } catch {
    // Already gone.
  }
}

/** The last n lines of a stream of chunks. */
class OutputTail {
  private kept: string[] = [];
  private partial = '';
  constructor(private readonly n: number) {}

  push(chunk: Buffer): void {
    const parts = (this.partial + chunk.toString('utf8')).split('\n');
    this.partial = parts.pop()!;
    this.kept.push(...parts);
    if (this.kept.length > this.n) this.kept = this.kept.slice(-this.n);
  }

  lines(): string[] {
    const all = this.partial ? [...this.kept, this.partial] : this.kept;
    return all.slice(-this.n);
  }
}
