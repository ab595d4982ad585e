// The five scenarios of the compatibility suite: what each driver is asked to
// do (the topic's partitions, the message count, the time it gets) and how
// the suite judges the result. Every check compares the driver's report with
// the broker's own state (broker-view.ts): the log, the group coordinator and
// the transaction coordinator.
import type { Cluster } from '../../src/broker/cluster.js';
import type { GroupTrace, LoggedRecord, TopicLog } from './broker-view.js';

export type ScenarioId = 'metadata' | 'produce-fetch' | 'group' | 'idempotent' | 'transactions' | 'transactions-v2' | 'consumer-group' | 'share-group';

/** [partition, offset, value], as every driver reports a record it read. */
export type ReadRecord = [number, number, string];

/** The JSON summary line of a driver (test/compat/README.md). */
export interface DriverReport {
  ok: boolean;
  errors: string[];
  client?: string;
  brokers?: number[];
  controller?: number;
  partitions?: { id: number; leader: number }[];
  produced?: number | { committed: number; aborted: number };
  read?: ReadRecord[];
  assignedBeforeProduce?: number[][];
  members?: { name: string; assigned: number[] | null; read: ReadRecord[] }[];
  api_version?: string;
  [key: string]: unknown;
}

export interface CheckContext {
  report: DriverReport;
  cluster: Cluster;
  topic: string;
  group: string;
  txnId: string;
  log: TopicLog;
  trace: GroupTrace | null;
}

export interface Scenario {
  id: ScenarioId;
  /** Column heading. */
  title: string;
  partitions: number;
  /** Messages (per transaction for 'transactions'). */
  n: number;
  /** The driver's --timeout, seconds. */
  timeoutS: number;
  /** One line for the docs: what is done and what is checked. */
  describes: string;
  /** Problems found; none means the scenario passed. */
  check(ctx: CheckContext): string[];
  /** A short fact for the docs' notes (batches, probed version …). */
  note?(ctx: CheckContext): string | null;
  /** Why kafkaesque cannot serve the scenario yet: every client that can do it is skipped with this reason. */
  notServed?: string;
  /** The Kafka version profile the scenario needs, when KAFKAESQUE_COMPAT_KAFKA_VERSION names none; a profile that lacks it is not served. */
  kafkaVersions?: { run: string; served: readonly string[]; what: string };
  /** The scenario the driver runs, when it is another's (transactions v2 is the transactions run on a 4.x cluster). */
  driverScenario?: ScenarioId;
  /** A scenario the client must support for this one to apply (its reason is this one's too). */
  needs?: ScenarioId;
  /** Configs of the scenario's group, set before the driver starts (what an application's Admin would set on the GROUP resource). */
  groupConfigs?: Record<string, string>;
}

export const values = (tag: string, n: number) => Array.from({ length: n }, (_, i) => `${tag}-${String(i).padStart(6, '0')}`);
const dataRecords = (log: TopicLog) => log.records;
const plural = (n: number, what: string) => `${n} ${what}${n === 1 ? '' : /(s|sh|ch|x)$/.test(what) ? 'es' : 's'}`;

/**
 * The log holds each expected value exactly once and nothing else, and within
 * each partition the values are in the order they were sent (the position in
 * `expected`). Which partition a value went to is the client's business (kcat
 * cannot choose one per message).
 */
function checkLogged(logged: LoggedRecord[], expected: string[]): string[] {
  const index = new Map(expected.map((v, i) => [v, i]));
  const seen = new Map<string, number>();
  const problems: string[] = [];
  for (const r of logged) seen.set(r.value, (seen.get(r.value) ?? 0) + 1);
  const missing = expected.filter((v) => !seen.has(v));
  const duplicated = [...seen].filter(([v, c]) => index.has(v) && c > 1);
  const unexpected = [...seen.keys()].filter((v) => !index.has(v));
  if (missing.length) problems.push(`broker log lacks ${plural(missing.length, 'sent message')} (first: ${missing[0]})`);
  if (duplicated.length) problems.push(`broker log holds ${plural(duplicated.length, 'message')} more than once (first: ${duplicated[0]![0]} x${duplicated[0]![1]})`);
  if (unexpected.length) problems.push(`broker log holds ${plural(unexpected.length, 'unexpected record')} (first: ${unexpected[0]})`);
  const last = new Map<number, number>();
  for (const r of logged) {
    const i = index.get(r.value);
    if (i === undefined) continue;
    if ((last.get(r.partition) ?? -1) > i) {
      problems.push(`partition ${r.partition}: ${r.value} at offset ${r.offset} is out of send order`);
      break;
    }
    last.set(r.partition, i);
  }
  return problems;
}

/** What the client read is exactly `logged`: every record once, with the logged value, in offset order per partition. */
function checkRead(read: ReadRecord[] | undefined, logged: LoggedRecord[], who = 'the client'): string[] {
  if (!Array.isArray(read)) return [`${who} reported no records read`];
  const problems: string[] = [];
  const want = new Map(logged.map((r) => [`${r.partition}:${r.offset}`, r.value]));
  const got = new Set<string>();
  const lastOffset = new Map<number, number>();
  let dup = 0;
  let wrong = 0;
  let unknown = 0;
  let disorder = 0;
  for (const [p, o, v] of read) {
    const k = `${p}:${o}`;
    if (got.has(k)) dup++;
    got.add(k);
    if (!want.has(k)) unknown++;
    else if (want.get(k) !== v) wrong++;
    if ((lastOffset.get(p) ?? -1) >= o) disorder++;
    lastOffset.set(p, o);
  }
  const unread = [...want.keys()].filter((k) => !got.has(k));
  if (unread.length) problems.push(`${who} did not read ${plural(unread.length, 'record')} of the ${logged.length} expected (first: partition:offset ${unread[0]})`);
  if (dup) problems.push(`${who} read ${plural(dup, 'record')} twice`);
  if (unknown) problems.push(`${who} read ${plural(unknown, 'record')} at offsets the broker does not hold for it`);
  if (wrong) problems.push(`${who} read ${plural(wrong, 'value')} that differ from the broker's log`);
  if (disorder) problems.push(`${who} read ${plural(disorder, 'record')} out of offset order`);
  return problems;
}

function checkMetadata({ report, cluster, topic }: CheckContext): string[] {
  const problems: string[] = [];
  const nodes = cluster.liveNodes().map((n) => n.nodeId).sort((a, b) => a - b);
  if (JSON.stringify(report.brokers) !== JSON.stringify(nodes)) problems.push(`brokers ${JSON.stringify(report.brokers)}, the cluster has ${JSON.stringify(nodes)}`);
  const t = cluster.topic(topic)!;
  const parts = report.partitions ?? [];
  if (parts.length !== t.partitions.length || parts.some((p, i) => p.id !== i)) problems.push(`partitions ${JSON.stringify(parts.map((p) => p.id))}, the topic has 0..${t.partitions.length - 1}`);
  for (const p of parts) {
    const leader = t.partitions[p.id]?.leader;
    if (leader !== undefined && p.leader !== leader) problems.push(`partition ${p.id}: leader ${p.leader}, the broker says ${leader}`);
  }
  // Some clients ask with Metadata v0, which carries no controller (-1).
  if (report.controller !== undefined && report.controller !== -1 && report.controller !== cluster.controllerId) problems.push(`controller ${report.controller}, the broker says ${cluster.controllerId}`);
  return problems;
}

function checkProduceFetch(ctx: CheckContext, tag: string, n: number): string[] {
  const { report, log } = ctx;
  const problems: string[] = [];
  if (report.produced !== n) problems.push(`the driver acknowledged ${JSON.stringify(report.produced)} of ${n} messages`);
  problems.push(...checkLogged(dataRecords(log), values(tag, n)));
  problems.push(...checkRead(report.read, dataRecords(log)));
  return problems;
}

/** Each producer's batches in a partition carry consecutive sequences from 0, with one producer id and no transaction. */
function checkSequences({ log }: CheckContext): string[] {
  const problems: string[] = [];
  const data = log.batches.filter((b) => b.control === null);
  if (data.some((b) => b.producerId < 0)) problems.push(`${plural(data.filter((b) => b.producerId < 0).length, 'batch')} without a producer id: the producer was not idempotent`);
  if (data.some((b) => b.transactional)) problems.push('transactional batches in an idempotent-only run');
  const next = new Map<string, number>();
  for (const b of data) {
    if (b.producerId < 0) continue;
    const k = `${b.partition}/${b.producerId}/${b.producerEpoch}`;
    const want = next.get(k) ?? 0;
    if (b.baseSequence !== want) problems.push(`partition ${b.partition}: batch at offset ${b.baseOffset} has sequence ${b.baseSequence}, expected ${want}`);
    next.set(k, b.baseSequence + b.count);
  }
  return problems;
}

/** tag: the prefix of the values the driver sends, its scenario's name. */
function checkGroup({ report, cluster, topic, group, log, trace }: CheckContext, n: number, partitions: number, tag = 'group'): string[] {
  const problems: string[] = [];
  if (report.produced !== n) problems.push(`the driver acknowledged ${JSON.stringify(report.produced)} of ${n} messages`);
  problems.push(...checkLogged(dataRecords(log), values(tag, n)));
  const assigned = report.assignedBeforeProduce ?? [];
  const members = report.members ?? [];
  const all = assigned.flat();
  if (assigned.length !== 2 || assigned.some((a) => !a.length) || all.length !== partitions || new Set(all).size !== partitions) {
    problems.push(`members' assignments ${JSON.stringify(assigned)} do not split partitions 0..${partitions - 1} between two members`);
  }
  if (members.length !== 2) problems.push(`${members.length} members reported`);
  members.forEach((m, i) => {
    if (!m.read.length) problems.push(`member ${m.name} read nothing`);
    const own = new Set(assigned[i] ?? []);
    const foreign = m.read.filter(([p]) => !own.has(p));
    if (foreign.length) problems.push(`member ${m.name} read ${plural(foreign.length, 'record')} from partitions it was not assigned (first: partition ${foreign[0]![0]})`);
  });
  problems.push(...checkRead(members.flatMap((m) => m.read), dataRecords(log), 'the two members'));
  if (!trace?.stableSplit) problems.push(`the broker never had a Stable generation with two members splitting the partitions (most members seen: ${trace?.maxMembers ?? 0})`);
  // Offsets committed up to the end, and both members gone (LeaveGroup) once the driver stopped them.
  for (const p of log.partitions) {
    if (p.logEndOffset === 0) continue;
    const committed = cluster.groups.committedOffset(group, topic, p.partition);
    if (committed !== p.logEndOffset) problems.push(`partition ${p.partition}: committed offset ${committed ?? 'none'}, log end ${p.logEndOffset}`);
  }
  const left = cluster.groups.describe(group);
  if (left && left.members.length) problems.push(`${plural(left.members.length, 'member')} still in the group after the driver stopped (no LeaveGroup)`);
  return problems;
}

/**
 * Share groups: every record the log holds was read by a member, each once
 * (a normal run redelivers nothing), and the broker's
 * share partitions were acknowledged to the end (their start offsets at the
 * log end); no member is left once the driver stopped.
 */
function checkShareGroup({ report, cluster, topic, group, log }: CheckContext, n: number): string[] {
  const problems: string[] = [];
  if (report.produced !== n) problems.push(`the driver acknowledged ${JSON.stringify(report.produced)} of ${n} messages`);
  problems.push(...checkLogged(dataRecords(log), values('share-group', n)));
  const members = report.members ?? [];
  if (members.length !== 2) problems.push(`${members.length} members reported`);
  // One member may drain what it was assigned before the other joins: which member reads what is the group's business.
  const read = members.flatMap((m) => m.read ?? []).sort((x, y) => x[0] - y[0] || x[1] - y[1]);
  problems.push(...checkRead(read, dataRecords(log), 'the two members'));
  const t = cluster.topic(topic);
  for (const p of log.partitions) {
    if (!t || p.logEndOffset === 0) continue;
    const start = cluster.shares.get(group, t.topicId, p.partition)?.startOffset;
    if (start !== p.logEndOffset) problems.push(`partition ${p.partition}: the share group's start offset is ${start ?? 'none'}, log end ${p.logEndOffset} (not everything was acknowledged)`);
  }
  const left = cluster.groups.shareGroups.get(group);
  if (left && left.members.size) problems.push(`${plural(left.members.size, 'member')} still in the share group after the driver stopped`);
  return problems;
}

function checkTransactions({ report, cluster, txnId, log }: CheckContext, n: number): string[] {
  const problems: string[] = [];
  const committedValues = [...values('commit1', n), ...values('commit2', n)];
  const isCommitted = new Set(committedValues);
  const committed = log.records.filter((r) => isCommitted.has(r.value));
  const aborted = log.records.filter((r) => r.value.startsWith('abort'));
  const other = log.records.filter((r) => !isCommitted.has(r.value) && !r.value.startsWith('abort'));
  problems.push(...checkLogged(committed, committedValues));
  if (other.length) problems.push(`broker log holds ${plural(other.length, 'unexpected record')} (first: ${other[0]!.value})`);
  const notCommitted = committed.filter((r) => !r.transactional || r.outcome !== 'COMMIT');
  if (notCommitted.length) problems.push(`${plural(notCommitted.length, 'committed-transaction record')} not closed by a COMMIT marker (first: ${notCommitted[0]!.value}: ${notCommitted[0]!.outcome})`);
  // Without aborted records in the log, read_committed would have nothing to hide: the check could not fail.
  if (!aborted.length) problems.push('no record of the aborted transaction reached the log');
  const notAborted = aborted.filter((r) => !r.transactional || r.outcome !== 'ABORT');
  if (notAborted.length) problems.push(`${plural(notAborted.length, 'aborted-transaction record')} not closed by an ABORT marker`);
  const unstable = log.partitions.filter((p) => p.lastStableOffset !== p.highWatermark);
  if (unstable.length) problems.push(`partition ${unstable[0]!.partition}: last stable offset ${unstable[0]!.lastStableOffset} below the high watermark ${unstable[0]!.highWatermark} (a transaction left open)`);
  const sawAborted = (report.read ?? []).filter(([, , v]) => v.startsWith('abort'));
  if (sawAborted.length) problems.push(`read_committed returned ${plural(sawAborted.length, 'aborted record')} (first: ${sawAborted[0]![2]})`);
  problems.push(...checkRead(report.read, committed, 'the read_committed consumer'));
  const state = cluster.transactions.get(txnId)?.state;
  if (state !== 'CompleteCommit') problems.push(`transaction ${txnId} is ${state ?? 'unknown'} on the coordinator, expected CompleteCommit`);
  return problems;
}

export const scenarios: Scenario[] = [
  {
    id: 'metadata',
    title: 'metadata',
    partitions: 4,
    n: 0,
    timeoutS: 20,
    describes: "Metadata for a 4-partition topic: the broker ids and each partition's leader match the cluster's (and the controller, when the client's request version carries one).",
    check: checkMetadata,
    note: ({ report }) => (report.controller === -1 ? 'controller id -1: the client asked with Metadata v0, which has none' : null),
  },
  {
    id: 'produce-fetch',
    title: 'produce/fetch',
    partitions: 3,
    n: 200,
    timeoutS: 30,
    describes: '200 messages with acks=all to a 3-partition topic, then read back from the beginning: the log holds each once in send order per partition, and the client read exactly the logged records, in offset order.',
    check: (ctx) => checkProduceFetch(ctx, 'produce-fetch', 200),
  },
  {
    id: 'group',
    title: 'group (2 members)',
    partitions: 4,
    n: 200,
    timeoutS: 45,
    describes:
      'Two members of one consumer group on a 4-partition topic. Once both are assigned (disjoint, covering 0..3) 200 messages are produced; every message is consumed once, each by the member that owns its partition, and both read some. The broker must have had a Stable generation with that split, the committed offsets must reach the log end, and both members must have left the group at the end.',
    check: (ctx) => checkGroup(ctx, 200, 4),
    note: ({ trace }) => (trace?.stableSplit ? `generation ${trace.stableSplit.generationId}: ${JSON.stringify(trace.stableSplit.assignments)}` : null),
  },
  {
    id: 'idempotent',
    title: 'idempotent producer',
    partitions: 3,
    n: 200,
    timeoutS: 30,
    describes: '200 messages with the idempotent producer (in several sends or small batches), read back: as produce/fetch, and every batch carries a producer id with consecutive sequence numbers from 0 per partition.',
    check: (ctx) => [...checkProduceFetch(ctx, 'idempotent', 200), ...checkSequences(ctx)],
    note: ({ log }) => {
      const data = log.batches.filter((b) => b.control === null);
      return `${plural(data.length, 'batch')}, producer ids ${JSON.stringify([...new Set(data.map((b) => b.producerId))])}`;
    },
  },
  {
    id: 'transactions',
    title: 'transactions (read_committed)',
    partitions: 2,
    n: 10,
    timeoutS: 40,
    describes:
      'One transactional id: a transaction of 10 messages committed, one of 10 aborted (after its records reached the log), one of 10 committed; then a read_committed consumer reads the topic. The log must hold the committed records under COMMIT markers and the aborted ones under ABORT markers, the consumer must read exactly the 20 committed ones, and the coordinator must end in CompleteCommit.',
    check: (ctx) => checkTransactions(ctx, 10),
    note: ({ log }) => `${plural(log.records.filter((r) => r.outcome === 'ABORT').length, 'aborted record')} in the log`,
  },
  {
    id: 'consumer-group',
    title: 'group, KIP-848 protocol',
    partitions: 4,
    n: 200,
    timeoutS: 45,
    describes:
      'The group scenario with `group.protocol=consumer` (KIP-848: ConsumerGroupHeartbeat, the broker assigns the partitions), for the clients that have it.',
    // The trace reads KIP-848 groups through the same describe(): Stable, the group epoch as generation.
    check: (ctx) => checkGroup(ctx, 200, 4, 'consumer-group'),
    note: ({ trace }) => (trace?.stableSplit ? `group epoch ${trace.stableSplit.generationId}: ${JSON.stringify(trace.stableSplit.assignments)}` : null),
    // KIP-848 is served on the 4.x profiles only (group.version 1), as a default 3.9 broker does not advertise it.
    kafkaVersions: { run: '4.4', served: ['4.0', '4.4'], what: 'ConsumerGroupHeartbeat (KIP-848)' },
  },
  {
    id: 'transactions-v2',
    title: 'transactions v2 (KIP-890 part 2)',
    partitions: 2,
    n: 10,
    timeoutS: 40,
    describes:
      'The transactions scenario on a cluster that finalizes `transaction.version` 2 (the `4.4` profile, as a default 4.x cluster): a client with KIP-890 part 2 adds partitions through its Produce v12 and gets a new epoch from every EndTxn v5. Checked as the transactions scenario, and the coordinator must have seen transactions v2 (no AddPartitionsToTxn, an epoch bumped at every end).',
    check: (ctx) => {
      const problems = checkTransactions(ctx, 10);
      const txn = ctx.cluster.transactions.get(ctx.txnId);
      if (txn && txn.clientTransactionVersion !== 2) problems.push(`the client ran transactions v1 (AddPartitionsToTxn, EndTxn v4) on a transaction.version 2 cluster`);
      return problems;
    },
    note: ({ cluster, txnId }) => {
      const txn = cluster.transactions.get(txnId);
      return txn ? `epoch ${txn.producerEpoch} after 3 transactions` : null;
    },
    driverScenario: 'transactions',
    needs: 'transactions',
    kafkaVersions: { run: '4.4', served: ['4.0', '4.4'], what: 'transaction.version 2 (KIP-890 part 2)' },
  },
  {
    id: 'share-group',
    title: 'share group (KIP-932)',
    partitions: 3,
    n: 60,
    timeoutS: 45,
    describes:
      'Two members of a share group (KIP-932, a queue: the broker hands each record to one member under an acquisition lock) read a topic of 3 partitions from the earliest (the suite sets `share.auto.offset.reset`, as an application does with IncrementalAlterConfigs on the GROUP resource). Checked: every record read once across the two members, the share partitions acknowledged to the log end, the members gone after.',
    check: (ctx) => checkShareGroup(ctx, 60),
    note: ({ report }) => (report.members ? `read ${report.members.map((m) => (m.read ?? []).length).join(' + ')}` : null),
    kafkaVersions: { run: '4.4', served: ['4.4'], what: 'share groups (KIP-932)' },
    groupConfigs: { 'share.auto.offset.reset': 'earliest' },
  },
];
