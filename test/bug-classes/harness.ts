// Runs one cell of the bug-class matrix: one application (buggy or fixed
// twin) under one preset and one seed, on a fresh 3-broker cluster, as an
// application's own test suite would: the test's traffic (an admin client
// creating the topics, an input producer, a checking consumer) on the same
// cluster, the application in a child process of its own (kafkajs state and
// timers isolated, exit codes real), then the delivery audit as the judge.
//
//   const result = await runCell({ app: 'no-dedup', twin: 'buggy', preset: 'redelivery', seed: 1 });
//   result.verdict  // 'caught' | 'passed' | 'other' (anomalies, none of them the bug's symptom)
//
// The test's traffic uses the cluster's fault-free bootstrap when it has one
// (`directBootstrap`), else the chaos proxy's like the application.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Kafka, logLevel, type Admin } from 'kafkajs';
import { auditDelivery, startCluster, type Anomaly, type KafkaesqueOptions, type RunningCluster, type SentItem } from '../../src/index.js';
import { fetchPartition } from '../support/kafkajs.js';
import { bugClass, type BugClass } from './bug-classes.js';

const appsDir = path.join(path.dirname(fileURLToPath(import.meta.url)), 'apps');

/** The longest an application lives (it exits with code 3 then, as a test's timeout would end it). */
export const LIFE_MS = 4500;
/** Lives of a consumer application: it is started again while its group has not committed the whole input. */
export const MAX_LIVES = 2;
/** Records of input (consumer and pipeline shapes), or records a producer application sends. */
export const COUNT = 20;
const ORDERS = 'orders';
const INVOICES = 'invoices';

export type Twin = 'buggy' | 'fixed';

export interface Cell {
  /** A bug class's application (bug-classes.ts). */
  app: string;
  twin: Twin;
  /** A built-in preset's name or a preset file's path, applied at start; null: none (the baseline, where a buggy twin must pass too). */
  preset: string | null;
  seed: number;
  /** More start options (merged over { brokers: 3, seed, presets: [preset] }), for presets that need them. */
  clusterOptions?: Partial<KafkaesqueOptions>;
}

export interface CellResult extends Cell {
  /**
   * caught: an anomaly that is the bug's symptom; other: anomalies, none of them its symptom; passed: none;
   * unfinished: the application's last life ran out (or crashed) with input it never got to, and that is all the audit found
   * (records `unseen`: the preset outlasts a test of seconds, as transaction-timeout's 75 s holds do on a wall clock);
   * error: the test's own traffic failed (the message is in `anomalies`).
   */
  verdict: 'caught' | 'passed' | 'other' | 'unfinished' | 'error';
  /** The audit's anomalies (`kind: message`) and unmatched items. */
  anomalies: string[];
  /** Wall time of the whole cell, ms. */
  ms: number;
  /** Exit code of each life of the application (3: its life ran out; 1: it crashed). */
  exits: number[];
  /** Errors the application logged (kafkajs errors it met, the life running out). */
  appErrors: string[];
  /** Records audited and processed. */
  records: number;
  processed: number;
}

/** Where the test's own clients connect: the fault-free side door when the cluster has one (`directBootstrap`). */
export function testBootstrap(running: RunningCluster): string {
  const direct = (running as RunningCluster & { directBootstrap?: unknown }).directBootstrap;
  return typeof direct === 'string' && direct !== '' ? direct : running.bootstrap;
}

function testClient(running: RunningCluster): Kafka {
  // A 1 s request timeout: a test waits seconds, not kafkajs's 30 s, for a held answer.
  return new Kafka({
    clientId: 'test-suite',
    brokers: testBootstrap(running).split(','),
    logLevel: logLevel.NOTHING,
    requestTimeout: 1000,
    retry: { retries: 10, initialRetryTime: 50, maxRetryTime: 500 },
  });
}

/** Retries a step of the test's own traffic that a fault broke (with no side door, the test meets the faults too). */
async function again<T>(what: string, step: () => Promise<T>, attempts = 6): Promise<T> {
  for (let i = 1; ; i++) {
    try {
      return await step();
    } catch (err) {
      if (i >= attempts) throw new Error(`test traffic: ${what} failed ${attempts} times: ${(err as Error).message}`);
    }
  }
}

/** Runs a step with a connected admin client (connecting is part of the step: a fault may reset it). */
async function withAdmin<T>(client: Kafka, what: string, step: (admin: Admin) => Promise<T>): Promise<T> {
  return again(what, async () => {
    const admin = client.admin();
    try {
      await admin.connect();
      return await step(admin);
    } finally {
      await admin.disconnect();
    }
  });
}

function createTopics(client: Kafka, topics: string[]): Promise<void> {
  return withAdmin(client, 'create topics', (admin) =>
    admin.createTopics({ topics: topics.map((topic) => ({ topic, numPartitions: 1, replicationFactor: 3 })), waitForLeaders: true }).then(() => {}),
  );
}

/** The test's input: COUNT orders o-0 … in one idempotent send (resent when a fault fails it: the broker keeps one copy). */
async function produceInput(client: Kafka): Promise<void> {
  const producer = client.producer({ idempotent: true, maxInFlightRequests: 1 });
  try {
    await again('connect the input producer', () => producer.connect());
    const messages = Array.from({ length: COUNT }, (_, i) => ({ key: `o-${i}`, value: JSON.stringify({ id: `o-${i}`, amount: 10 }) }));
    await again('produce the input', () => producer.send({ topic: ORDERS, acks: -1, messages }));
  } finally {
    await producer.disconnect();
  }
}

/** The test's checking consumer: every committed record of a topic, read to its end. */
async function readBack(client: Kafka, topic: string): Promise<string[]> {
  const records = await again(`read ${topic} back`, () => fetchPartition(client, topic, 0, 0, 1), 12);
  return records.map((r) => r.key ?? '');
}

/** Whether the application's group has committed every input record. */
async function caughtUp(client: Kafka, groupId: string): Promise<boolean> {
  const [ends, committed] = await withAdmin(client, 'read the group lag', (admin) => Promise.all([admin.fetchTopicOffsets(ORDERS), admin.fetchOffsets({ groupId, topics: [ORDERS] })]));
  const at = new Map(committed[0]?.partitions.map((p) => [p.partition, Number(p.offset)]) ?? []);
  return ends.every((e) => (at.get(e.partition) ?? -1) >= Number(e.high));
}

/** One life of the application: resolves its exit code (it is killed if it outlives LIFE_MS by 3 s). */
function live(cls: BugClass, twin: Twin, running: RunningCluster, effectsFile: string): Promise<number> {
  const child = spawn(process.execPath, [path.join(appsDir, `${cls.name}.mjs`)], {
    env: { ...process.env, KAFKA_BROKERS: running.bootstrap, BUG_FIXED: twin === 'fixed' ? '1' : '0', EFFECTS_FILE: effectsFile, LIFE_MS: String(LIFE_MS), COUNT: String(COUNT) },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-2000)));
  const killer = setTimeout(() => child.kill('SIGKILL'), LIFE_MS + 3000);
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      clearTimeout(killer);
      if (stderr.trim()) fs.appendFileSync(effectsFile, JSON.stringify({ error: `stderr: ${stderr.trim()}` }) + '\n');
      resolve(code ?? (signal ? 137 : 1));
    });
  });
}

interface Effects {
  sent: string[];
  effects: string[];
  errors: string[];
}

function readEffects(file: string): Effects {
  const lines = fs.existsSync(file) ? fs.readFileSync(file, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, string>) : [];
  const of = (field: string) => lines.flatMap((l) => (l[field] !== undefined ? [l[field]!] : []));
  return { sent: of('sent'), effects: of('effect'), errors: of('error') };
}

function describe(a: Anomaly): string {
  return `${a.kind}: ${a.message}`;
}

/** Runs one cell on a fresh cluster and judges it with the delivery audit. */
export async function runCell(cell: Cell): Promise<CellResult> {
  const started = performance.now();
  try {
    return await playCell(cell, started);
  } catch (err) {
    const ms = Math.round(performance.now() - started);
    return { ...cell, verdict: 'error', anomalies: [(err as Error).message], ms, exits: [], appErrors: [], records: 0, processed: 0 };
  }
}

async function playCell(cell: Cell, started: number): Promise<CellResult> {
  const cls = bugClass(cell.app);
  const running = await startCluster({ brokers: 3, ...cell.clusterOptions, seed: cell.seed, presets: [...(cell.preset === null ? [] : [cell.preset]), ...(cell.clusterOptions?.presets ?? [])] });
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `bug-${cell.app}-`));
  const effectsFile = path.join(dir, 'effects.jsonl');
  try {
    const client = testClient(running);
    await createTopics(client, cls.shape === 'pipeline' ? [ORDERS, INVOICES] : [ORDERS]);
    const consumes = cls.shape === 'consumer' || cls.shape === 'pipeline';
    if (consumes) await produceInput(client);
    const exits: number[] = [];
    do exits.push(await live(cls, cell.twin, running, effectsFile));
    while (consumes && exits.length < MAX_LIVES && !(await caughtUp(client, cls.groupId!)));

    const { sent, effects, errors } = readEffects(effectsFile);
    const processed =
      cls.shape === 'producer' ? await readBack(client, ORDERS)
      : cls.shape === 'pipeline' ? await readBack(client, INVOICES)
      : effects;
    const report = auditDelivery(running, {
      topics: [ORDERS],
      idFrom: 'key',
      processed,
      ...(cls.shape === 'producer' ? { sent: sent.map((id): SentItem => ({ id, producer: 'order-service' })) } : {}),
    });
    const symptomatic = report.anomalies.some((a) => cls.symptoms.includes(a.kind));
    const unfinished = exits.at(-1) !== 0 && report.unmatched.length === 0 && report.anomalies.every((a) => a.kind === 'unseen');
    // The fixed twin is judged by what it promises: anomalies its guarantee allows are no alarm.
    const alarming = report.anomalies.filter((a) => cell.twin === 'buggy' || !(cls.allows ?? []).includes(a.kind));
    const ok = alarming.length === 0 && report.unmatched.length === 0;
    return {
      ...cell,
      verdict: ok ? 'passed' : unfinished ? 'unfinished' : symptomatic ? 'caught' : 'other',
      anomalies: [...report.anomalies.map(describe), ...report.unmatched.map((u) => `unmatched: item ${u.index}: ${u.reason}`)],
      ms: Math.round(performance.now() - started),
      exits,
      appErrors: [...new Set(errors)],
      records: report.counts.records,
      processed: report.counts.processed,
    };
  } finally {
    await running.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** Runs cells `jobs` at a time (2 on a 2-core machine), in the order given; `onResult` hears each as it ends. */
export async function runCells(cells: readonly Cell[], { jobs = 2, onResult }: { jobs?: number; onResult?: (r: CellResult) => void } = {}): Promise<CellResult[]> {
  const results: CellResult[] = new Array(cells.length);
  let next = 0;
  const worker = async () => {
    while (next < cells.length) {
      const i = next++;
      results[i] = await runCell(cells[i]!);
      onResult?.(results[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(jobs, cells.length) }, worker));
  return results;
}
