// Which Produce request stored which batch, and which of those requests had
// their answer kept from the producer by a fault. The broker tells of every
// append (clientId, correlationId, offsets); the fault controller tells of
// every event. A fault on a Produce whose action loses or replaces the answer
// (LOSES_ANSWER) makes the batch that request stored "unacknowledged": the
// producer was never told it was written — until an idempotent retry of it
// is answered with its offsets. Each append also remembers the seq
// of the last event before it, which orders events and appends.
import type { Cluster, LeaderChange, RecordsAppended } from '../broker/cluster.js';
import type { ChaosController, ChaosEvent } from '../chaos/api.js';

/** Actions after which the producer does not get the broker's answer to a request the broker processed. */
export const LOSES_ANSWER: ReadonlySet<string> = new Set(['drop-response', 'error', 'close', 'blackhole', 'corrupt']);

/**
 * One Produce's batch, or a run of consecutive ones from the same client with
 * no event between them and none unacknowledged (merged, so that a long
 * quiet run costs one entry).
 */
export interface JournalEntry {
  baseOffset: number;
  lastOffset: number;
  clientId: string | null;
  correlationId: number;
  /** Seq of the last event before the append (0: none). */
  afterSeq: number;
  /** The fault event that kept this request's answer from the producer (cleared when an idempotent retry's answer arrives). */
  unacknowledgedBy?: ChaosEvent;
  /** Cut off the log by a leader change (offsets since reused). */
  truncated?: boolean;
  /** The Produce's acks (-1: all). */
  acks: number;
}

/** How many answer-losing Produce faults are remembered while waiting for their append. */
const PENDING_LIMIT = 1000;
/**
 * A request is appended moments after the proxy forwards it; an older fault
 * with the same client and correlation id was another connection's request
 * (correlation ids are per connection).
 */
const APPEND_WITHIN_MS = 30_000;

interface PendingFault {
  event: ChaosEvent;
  /** Partitions already matched ("topic:partition"): a request appends once per partition. */
  matched: Set<string>;
}

export class ProduceJournal {
  private readonly entries = new Map<string, JournalEntry[]>();
  private readonly pending: PendingFault[] = [];
  private lastSeq = 0;
  private readonly detachers: (() => void)[] = [];

  constructor(
    private readonly cluster: Cluster,
    chaos?: ChaosController,
  ) {
    const onAppend = (a: RecordsAppended) => this.append(a);
    const onLeader = (c: LeaderChange) => this.truncate(c);
    const onDeleted = () => this.forgetDeleted();
    cluster.on('records-appended', onAppend);
    cluster.on('leader-changed', onLeader);
    cluster.on('topic-deleted', onDeleted);
    this.detachers.push(
      () => cluster.off('records-appended', onAppend),
      () => cluster.off('leader-changed', onLeader),
      () => cluster.off('topic-deleted', onDeleted),
    );
    if (chaos) {
      this.lastSeq = chaos.events().at(-1)?.seq ?? 0;
      this.detachers.push(chaos.onEvent((e) => this.event(e)));
    }
  }

  /** The batches appended to a partition (by topic id: a re-created topic starts empty), oldest first. */
  batches(topicId: string, partition: number): readonly JournalEntry[] {
    return this.entries.get(`${topicId}:${partition}`) ?? [];
  }

  /** The entries of batches still in the log, in offset order. */
  liveBatches(topicId: string, partition: number): JournalEntry[] {
    return this.batches(topicId, partition).filter((e) => !e.truncated);
  }

  detach(): void {
    for (const d of this.detachers.splice(0)) d();
  }

  private event(e: ChaosEvent): void {
    this.lastSeq = e.seq;
    if (e.kind === 'fault' && e.api === 'Produce' && e.action !== undefined && LOSES_ANSWER.has(e.action) && e.correlationId !== undefined) {
      this.pending.push({ event: e, matched: new Set() });
      if (this.pending.length > PENDING_LIMIT) this.pending.shift();
    }
  }

  /** The latest answer-losing fault on this very request (same client and correlation id, this partition or an unnamed one). */
  private lostAnswer(a: RecordsAppended): ChaosEvent | undefined {
    // The common case, on every append: no answer-losing fault waits.
    if (this.pending.length === 0) return undefined;
    const now = this.cluster.clock.now();
    const tp = `${a.topic}:${a.partition}`;
    for (let i = this.pending.length - 1; i >= 0; i--) {
      const { event: e, matched } = this.pending[i]!;
      if (e.correlationId !== a.correlationId || (e.clientId ?? null) !== a.clientId || matched.has(tp)) continue;
      if (e.topic !== undefined && e.topic !== a.topic) continue;
      if (e.partition !== undefined && e.partition !== a.partition) continue;
      if (now - e.time > APPEND_WITHIN_MS) continue;
      matched.add(tp);
      return e;
    }
    return undefined;
  }

  private append(a: RecordsAppended): void {
    const key = `${a.topicId}:${a.partition}`;
    let list = this.entries.get(key);
    if (!list) this.entries.set(key, (list = []));
    const lost = this.lostAnswer(a);
    if (a.duplicate) {
      // An idempotent retry answered with the stored batch's offsets: if this answer reaches the producer, the batch is acknowledged after all.
      if (!lost) for (const e of list) if (!e.truncated && e.baseOffset === a.baseOffset && e.lastOffset === a.lastOffset) delete e.unacknowledgedBy;
      return;
    }
    const last = list[list.length - 1];
    // Checked before any entry is made: a quiet run (the usual produce traffic) allocates nothing per append.
    if (!lost && last && !last.unacknowledgedBy && !last.truncated && last.clientId === a.clientId && last.acks === a.acks && last.afterSeq === this.lastSeq && last.lastOffset + 1 === a.baseOffset) {
      last.lastOffset = a.lastOffset;
      last.correlationId = a.correlationId;
      return;
    }
    const entry: JournalEntry = { baseOffset: a.baseOffset, lastOffset: a.lastOffset, clientId: a.clientId, correlationId: a.correlationId, afterSeq: this.lastSeq, acks: a.acks };
    if (lost) entry.unacknowledgedBy = lost;
    list.push(entry);
  }

  /** A deleted topic's batches go (reset deletes every topic; a re-created one has a new topic id). */
  private forgetDeleted(): void {
    const live = new Set([...this.cluster.topics.values()].map((t) => t.topicId));
    for (const key of [...this.entries.keys()]) if (!live.has(key.slice(0, key.lastIndexOf(':')))) this.entries.delete(key);
  }

  private truncate(c: LeaderChange): void {
    if (c.truncatedFrom === null) return;
    const topic = this.cluster.topic(c.topic);
    if (!topic) return;
    const list = this.entries.get(`${topic.topicId}:${c.partition}`) ?? [];
    const from = c.truncatedFrom;
    for (let i = 0; i < list.length; i++) {
      const e = list[i]!;
      if (e.truncated || e.lastOffset < from) continue;
      if (e.baseOffset < from) {
        // A merged run the cut goes through (the log cuts between batches): its tail goes.
        list.splice(i + 1, 0, { ...e, baseOffset: from, truncated: true });
        e.lastOffset = from - 1;
        i++;
      } else e.truncated = true;
    }
  }
}

const journals = new WeakMap<Cluster, ProduceJournal>();

/** Starts the journal of a cluster (startCluster does this); the audit finds it by the cluster. */
export function attachProduceJournal(cluster: Cluster, chaos?: ChaosController): ProduceJournal {
  let j = journals.get(cluster);
  if (!j) journals.set(cluster, (j = new ProduceJournal(cluster, chaos)));
  return j;
}

export function produceJournalOf(cluster: Cluster): ProduceJournal | undefined {
  return journals.get(cluster);
}
