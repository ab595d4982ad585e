// Waits instead of sleeps: promises over the cluster model that resolve when
// a topic holds enough records, a group committed an offset, or a group is
// Stable and caught up. Event-driven: each subscribes to what can change its
// answer (a partition's changes — appends, high-watermark moves, leader
// moves —, the group coordinator's commits and state changes, topic creation
// and deletion), looks again in a microtask after each, and gives up after
// its timeout with what it last saw. No polling.
import type { EventEmitter } from 'node:events';
import type { Cluster } from './cluster.js';
import type { GroupState as ClassicGroupState } from './groups/group.js';
import type { ConsumerGroupState } from './groups/consumer-group.js';

/** A classic group's state, or a KIP-848 group's. */
type GroupState = ClassicGroupState | ConsumerGroupState;
import type { Partition } from './partition.js';
import { isControlBatch, readBatchHeader } from '../protocol/record-batch.js';

export const WAIT_DEFAULT_TIMEOUT_MS = 10_000;

export interface WaitOptions {
  /** Give up after this long with a WaitTimeoutError naming what was last seen; default 10000 ms. */
  timeoutMs?: number;
  /** Stop waiting (the promise rejects with the signal's reason). */
  signal?: AbortSignal;
}

/** A wait that ran out of time; `lastSeen` is what it saw last ("group g committed orders-0 at 3, waiting for 5"). */
export class WaitTimeoutError extends Error {
  override name = 'WaitTimeoutError';
  constructor(
    readonly lastSeen: string,
    readonly timeoutMs: number,
  ) {
    super(`${lastSeen} (gave up after ${timeoutMs} ms)`);
  }
}

type Look<T> = { done: true; value: T } | { done: false; seen: string };

/**
 * The one waiting loop: `look` says whether the condition holds (or what it
 * sees instead); `watch` subscribes `wake` to whatever can change that and
 * returns the unsubscribe function. It is called again after each look, so
 * that the set of things watched can follow the state (a group's partitions).
 */
function waitUntil<T>(look: () => Look<T>, watch: (wake: () => void) => () => void, options: WaitOptions): Promise<T> {
  const timeoutMs = options.timeoutMs ?? WAIT_DEFAULT_TIMEOUT_MS;
  const { signal } = options;
  if (signal?.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    let unwatch = () => {};
    let scheduled = false;
    let last = '';
    const finish = () => {
      unwatch();
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    };
    const check = () => {
      scheduled = false;
      const seen = look();
      if (seen.done) {
        finish();
        resolve(seen.value);
        return;
      }
      last = seen.seen;
      unwatch();
      unwatch = watch(wake);
    };
    // Events fire in the middle of a change (before the high watermark moves): look once it is over.
    const wake = () => {
      if (scheduled) return;
      scheduled = true;
      queueMicrotask(check);
    };
    const onAbort = () => {
      finish();
      reject(signal!.reason);
    };
    const timer = setTimeout(() => {
      finish();
      reject(new WaitTimeoutError(last, timeoutMs));
    }, timeoutMs);
    signal?.addEventListener('abort', onAbort);
    check();
  });
}

type Listener = (arg: never) => void;
/** One listener per emitter and event, whatever the number of waits (no MaxListenersExceededWarning with many). */
const fanOuts = new WeakMap<EventEmitter, Map<string, Set<Listener>>>();

function listen<A>(emitter: EventEmitter, event: string, fn: (arg: A) => void): () => void {
  let events = fanOuts.get(emitter);
  if (!events) fanOuts.set(emitter, (events = new Map()));
  let set = events.get(event);
  if (!set) {
    const listeners = (set = new Set());
    events.set(event, listeners);
    emitter.on(event, (arg: unknown) => {
      for (const l of [...listeners]) l(arg as never);
    });
  }
  set.add(fn as Listener);
  return () => set.delete(fn as Listener);
}

function listenAll<A>(emitter: EventEmitter, events: readonly string[], fn: (arg: A) => void): () => void {
  const offs = events.map((e) => listen(emitter, e, fn));
  return () => offs.forEach((off) => off());
}

/** Subscribes to the changes of some partitions, and of the topic set. */
function watchPartitions(cluster: Cluster, partitions: Iterable<Partition>, wake: () => void): () => void {
  const offs = [...partitions].map((p) => p.onChange(wake));
  offs.push(listenAll(cluster as EventEmitter, ['topic-created', 'topic-deleted', 'records-appended'], wake));
  return () => offs.forEach((off) => off());
}

// ---------------------------------------------------------------- records

/** Data records (transaction markers left out) below a partition's high watermark, counted as the log grows. */
class RecordCounter {
  private from = -1;
  private count = 0;

  constructor(private readonly p: Partition) {}

  get records(): number {
    const { p } = this;
    // Truncated (a new leader) or trimmed (DeleteRecords) under us: count again.
    if (this.from < p.logStartOffset || this.from > p.highWatermark) {
      this.from = p.logStartOffset;
      this.count = 0;
    }
    for (const b of p.log.read(this.from, p.highWatermark, Infinity, false)) {
      const h = readBatchHeader(b.bytes);
      if (!isControlBatch(h.attributes)) this.count += b.baseOffset < p.logStartOffset ? Math.min(h.recordsCount, b.lastOffset - p.logStartOffset + 1) : h.recordsCount;
      this.from = b.lastOffset + 1;
    }
    return this.count;
  }
}

export interface RecordsProgress {
  topic: string;
  /** Data records counted (in `partition` only, when given). */
  records: number;
  partitions: { partition: number; records: number }[];
}

/**
 * Resolves when the topic holds at least `count` data records below the high
 * watermark (what a read_uncommitted consumer can fetch, transaction markers
 * not counted) — in all its partitions, or in `partition` only.
 */
export function waitForRecords(cluster: Cluster, topic: string, count: number, options: WaitOptions & { partition?: number } = {}): Promise<RecordsProgress> {
  const counters = new Map<Partition, RecordCounter>();
  const partitionsOf = () => {
    const all = cluster.topic(topic)?.partitions ?? [];
    return options.partition === undefined ? all : all.filter((p) => p.index === options.partition);
  };
  const where = options.partition === undefined ? `topic ${topic}` : `${topic}-${options.partition}`;
  return waitUntil<RecordsProgress>(
    () => {
      const t = cluster.topic(topic);
      if (!t) return { done: false, seen: `topic ${topic} does not exist, waiting for ${count} records` };
      const parts = partitionsOf();
      if (parts.length === 0) return { done: false, seen: `topic ${topic} has no partition ${options.partition}, waiting for ${count} records` };
      const partitions = parts.map((p) => {
        let c = counters.get(p);
        if (!c) counters.set(p, (c = new RecordCounter(p)));
        return { partition: p.index, records: c.records };
      });
      const records = partitions.reduce((n, p) => n + p.records, 0);
      if (records >= count) return { done: true, value: { topic, records, partitions } };
      const each = partitions.length > 1 ? ` (${partitions.map((p) => `${topic}-${p.partition}: ${p.records}`).join(', ')})` : '';
      return { done: false, seen: `${where} holds ${records} of ${count} records${each}` };
    },
    (wake) => watchPartitions(cluster, partitionsOf(), wake),
    options,
  );
}

// ---------------------------------------------------------------- committed offsets

export interface CommittedProgress {
  groupId: string;
  topic: string;
  partition: number;
  /** The committed offset (the next offset the group will read), at least the one waited for. */
  offset: number;
}

/** Resolves when the group's committed offset for topic-partition is at least `offset` (a commit of 5 means offsets 0–4 are done). */
export function waitForCommitted(cluster: Cluster, groupId: string, topic: string, partition: number, offset: number, options: WaitOptions = {}): Promise<CommittedProgress> {
  const tp = `${topic}-${partition}`;
  return waitUntil<CommittedProgress>(
    () => {
      const committed = cluster.groups.committedOffset(groupId, topic, partition);
      if (committed !== undefined && committed >= offset) return { done: true, value: { groupId, topic, partition, offset: committed } };
      if (committed !== undefined) return { done: false, seen: `group ${groupId} committed ${tp} at ${committed}, waiting for ${offset}` };
      const exists = cluster.groups.describe(groupId) !== undefined;
      return { done: false, seen: `group ${groupId} ${exists ? `has committed no offset for ${tp}` : 'does not exist'}, waiting for ${tp} at ${offset}` };
    },
    (wake) => listen(cluster.groups as EventEmitter, 'offsets-committed', (e: { groupId: string }) => e.groupId === groupId && wake()),
    options,
  );
}

// ---------------------------------------------------------------- groups

export interface GroupPartitionProgress {
  topic: string;
  partition: number;
  /** null: nothing committed yet (its lag counts from the log start). */
  committed: number | null;
  highWatermark: number;
  lag: number;
}

export interface GroupProgress {
  groupId: string;
  state: GroupState;
  generationId: number;
  /** Sum of the partitions' lags (0 without `lag`'s partitions). */
  lag: number;
  partitions: GroupPartitionProgress[];
}

export interface WaitForGroupOptions extends WaitOptions {
  /** The state to reach; default 'Stable' (every member joined and has its assignment). */
  state?: GroupState;
  /**
   * Also wait until the group's total lag is at most this: the sum, over the
   * partitions it consumes, of high watermark − committed offset (from the
   * log start where nothing is committed). The partitions it consumes are its
   * members' assigned ones; with no member (an Empty group), those it has
   * committed offsets for.
   */
  lag?: number;
}

function groupProgress(cluster: Cluster, groupId: string): GroupProgress | undefined {
  const d = cluster.groups.describe(groupId);
  if (!d) return undefined;
  const committed = new Map(d.offsets.map((o) => [`${o.topic}\0${o.partition}`, o.offset]));
  const consumed = new Map<string, { topic: string; partition: number }>();
  for (const m of d.members) for (const a of m.assignment ?? []) for (const partition of a.partitions) consumed.set(`${a.topic}\0${partition}`, { topic: a.topic, partition });
  if (d.members.length === 0) for (const o of d.offsets) consumed.set(`${o.topic}\0${o.partition}`, { topic: o.topic, partition: o.partition });
  const partitions = [...consumed.values()]
    .sort((a, b) => (a.topic < b.topic ? -1 : a.topic > b.topic ? 1 : a.partition - b.partition))
    .map(({ topic, partition }) => {
      const p = cluster.partition(topic, partition);
      const highWatermark = p?.highWatermark ?? 0;
      const c = committed.get(`${topic}\0${partition}`) ?? null;
      return { topic, partition, committed: c, highWatermark, lag: Math.max(0, highWatermark - (c ?? p?.logStartOffset ?? 0)) };
    });
  return { groupId, state: d.state, generationId: d.generationId, lag: partitions.reduce((n, p) => n + p.lag, 0), partitions };
}

/**
 * Resolves when the group is in `state` (default Stable) and, with `lag`,
 * its total lag is at most `lag`: `{ lag: 0 }` waits until a Stable group
 * has committed up to the high watermark of every partition it consumes.
 */
export function waitForGroup(cluster: Cluster, groupId: string, options: WaitForGroupOptions = {}): Promise<GroupProgress> {
  const state = options.state ?? 'Stable';
  const want = `${state}${options.lag !== undefined ? ` with lag <= ${options.lag}` : ''}`;
  return waitUntil<GroupProgress>(
    () => {
      const g = groupProgress(cluster, groupId);
      if (!g) return { done: false, seen: `group ${groupId} does not exist, waiting for ${want}` };
      if (g.state !== state) return { done: false, seen: `group ${groupId} is ${g.state} (generation ${g.generationId}), waiting for ${want}` };
      if (options.lag === undefined || g.lag <= options.lag) return { done: true, value: g };
      const behind = g.partitions.filter((p) => p.lag > 0).map((p) => `${p.topic}-${p.partition} committed ${p.committed ?? 'nothing'} of ${p.highWatermark}`);
      return { done: false, seen: `group ${groupId} is ${state} with lag ${g.lag} (${behind.join(', ')}), waiting for lag <= ${options.lag}` };
    },
    (wake) => {
      const offGroup = listenAll(cluster.groups as EventEmitter, ['state-changed', 'offsets-committed', 'member-removed'], (e: { groupId: string }) => e.groupId === groupId && wake());
      const parts = (groupProgress(cluster, groupId)?.partitions ?? []).map((p) => cluster.partition(p.topic, p.partition)).filter((p): p is Partition => p !== undefined);
      const offPartitions = options.lag === undefined ? () => {} : watchPartitions(cluster, parts, wake);
      return () => {
        offGroup();
        offPartitions();
      };
    },
    options,
  );
}
