// KRaft's metadata lag (the metadata-lag fault). A KRaft broker knows the
// cluster's topics, partitions and leaders only from the controller's
// metadata log, replayed into its KRaftMetadataCache and ReplicaManager
// (BrokerMetadataPublisher applies each delta to both), so a broker that has
// not caught up answers from the image it last applied. Here a lagging
// node keeps, per topic changed while it lagged, the image it had before
// the change (`base`) and the changes still on their way (`entries`, each
// visible from `at`, in the log's order); a topic with nothing pending is
// read live. The lag ends per change after `ms` (cluster clock), or for
// the whole node after `requests` answers that showed it, whichever first.
// Changes captured: creation, deletion, CreatePartitions, a leader move
// (election, node stop). Not captured: ISR-only changes, reassignments'
// replica lists, config changes (a pending topic shows its image's).
import type { Clock } from './clock.js';

export interface PartitionImage {
  readonly index: number;
  readonly leader: number;
  readonly leaderEpoch: number;
  readonly replicas: readonly number[];
  readonly isr: readonly number[];
}

/** A topic as one node's metadata cache has it; a live Topic is one too. */
export interface TopicImage {
  readonly name: string;
  readonly topicId: string;
  readonly internal: boolean;
  readonly partitions: readonly PartitionImage[];
  readonly configs: ReadonlyMap<string, string>;
}

/** Who reads a node's metadata: one request (its identity counts the `requests` budget once). */
export interface LagReader {
  readonly nodeId: number;
}

/** A lagging node's view of a topic: null image when it does not know the topic; undefined when it is caught up (read live). */
export type TopicView = { image: TopicImage | null } | undefined;

/** A lagging node's answer for a partition, with the leader it knows (KIP-951's current leader). */
export interface LaggedAnswer {
  error: 'UNKNOWN_TOPIC_OR_PARTITION' | 'NOT_LEADER_OR_FOLLOWER';
  leader: number;
  leaderEpoch: number;
}

export interface MetadataLagSpec {
  /** How long after a change the node sees it; undefined: until the requests budget is spent. */
  ms?: number;
  /** How many answers showing the lag the node gives before it catches up. */
  requests?: number;
}

interface PendingTopic {
  base: TopicImage | null;
  entries: { at: number; image: TopicImage | null }[];
}

interface NodeLag {
  /** Armed: changes from now on lag on this node. Null: only what is pending still lags. */
  spec: MetadataLagSpec | null;
  requestsLeft: number | null;
  readonly counted: WeakSet<LagReader>;
  readonly pending: Map<string, PendingTopic>;
}

export function snapshot(topic: TopicImage | undefined): TopicImage | null {
  if (!topic) return null;
  return {
    name: topic.name,
    topicId: topic.topicId,
    internal: topic.internal,
    partitions: topic.partitions.map((p) => ({ index: p.index, leader: p.leader, leaderEpoch: p.leaderEpoch, replicas: [...p.replicas], isr: [...p.isr] })),
    configs: new Map(topic.configs),
  };
}

export class MetadataLag {
  private readonly nodes = new Map<number, NodeLag>();

  constructor(private readonly clock: Clock) {}

  /** Arms (or, with neither ms > 0 nor requests, disarms) the lag on nodes; what is pending keeps its lag. */
  set(nodeIds: readonly number[], spec: MetadataLagSpec): void {
    const armed = (spec.ms ?? 0) > 0 || spec.requests !== undefined;
    for (const nodeId of nodeIds) {
      const n = this.nodes.get(nodeId) ?? { spec: null, requestsLeft: null, counted: new WeakSet(), pending: new Map() };
      n.spec = armed ? { ...(spec.ms ? { ms: spec.ms } : {}), ...(spec.requests !== undefined ? { requests: spec.requests } : {}) } : null;
      if (armed) n.requestsLeft = spec.requests ?? null;
      this.nodes.set(nodeId, n);
    }
  }

  /** Every node sees everything at once (reset). */
  clear(): void {
    this.nodes.clear();
  }

  /** Before the controller changes a topic: each armed node keeps the image it has. */
  beforeChange(name: string, live: TopicImage | undefined): void {
    for (const n of this.nodes.values()) {
      if (n.spec && !n.pending.has(name)) n.pending.set(name, { base: snapshot(live), entries: [] });
    }
  }

  /** After the change: it reaches each armed node after its lag, never before an earlier change. */
  afterChange(name: string, live: TopicImage | undefined): void {
    const now = this.clock.now();
    for (const n of this.nodes.values()) {
      const pending = n.pending.get(name);
      if (!n.spec || !pending) continue;
      const last = pending.entries.at(-1)?.at ?? now;
      const at = n.spec.ms === undefined ? Infinity : Math.max(now + n.spec.ms, last);
      pending.entries.push({ at, image: snapshot(live) });
    }
  }

  /** The node's view of a topic for this reader; undefined when the node is caught up on it. */
  view(reader: LagReader, name: string): TopicView {
    const n = this.settle(reader);
    const pending = n?.pending.get(name);
    return pending ? { image: pending.base } : undefined;
  }

  /** The names with something pending on the reader's node (an all-topics Metadata lists their images). */
  pendingNames(reader: LagReader): string[] {
    return [...(this.settle(reader)?.pending.keys() ?? [])];
  }

  /** Counts an answer that showed the lag against the node's requests budget (once per request). */
  shown(reader: LagReader): void {
    const n = this.nodes.get(reader.nodeId);
    if (!n || n.requestsLeft === null || n.counted.has(reader)) return;
    n.counted.add(reader);
    n.requestsLeft--;
  }

  /** Applies what has arrived; a spent budget catches the node up, from the next request on. */
  private settle(reader: LagReader): NodeLag | undefined {
    const n = this.nodes.get(reader.nodeId);
    if (!n) return undefined;
    if (n.requestsLeft !== null && n.requestsLeft <= 0 && !n.counted.has(reader)) {
      this.nodes.delete(reader.nodeId);
      return undefined;
    }
    const now = this.clock.now();
    for (const [name, pending] of n.pending) {
      while (pending.entries.length > 0 && pending.entries[0]!.at <= now) pending.base = pending.entries.shift()!.image;
      if (pending.entries.length === 0) n.pending.delete(name);
    }
    if (!n.spec && n.pending.size === 0) this.nodes.delete(reader.nodeId);
    return n;
  }
}
