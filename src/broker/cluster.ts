// The cluster model: broker nodes, topics and their partitions, leader
// election and simulated replication. Plain state with one owner; the server
// layer and the handlers call these methods, and so will the chaos layer.
import type { SharePartitions } from './share/share-partitions.js';
import { EventEmitter } from 'node:events';
import { randomUUID } from 'node:crypto';
import type { Clock, Timer } from './clock.js';
import { Partition } from './partition.js';
import { MetadataLag, type LagReader, type LaggedAnswer, type MetadataLagSpec, type TopicImage } from './metadata-lag.js';
import { topicConfigDefsFor, validateTopicConfig, type ConfigDef } from './configs.js';
import { defaultProfile, type KafkaVersionProfile } from './kafka-version/profiles.js';
import { INTERNAL_TOPICS, collisionKey, invalidTopicReason } from './topic-names.js';
import { checkNewPartitionAssignments, checkTopicAssignments, type AssignableBrokers, type ReplicaAssignment } from './manual-assignment.js';
import type { GroupCoordinator } from './groups/group-coordinator.js';
import { GroupConfigs } from './groups/group-configs.js';
import { maybeCompleteReassignment } from './reassignments.js';
import { ScramCredentialStore } from './scram-credentials.js';
import { ClientQuotas } from './quotas/client-quota-manager.js';
import type { TransactionCoordinator } from './transactions/transaction-coordinator.js';
import type { ErrorName } from '../protocol/errors.js';
import { Authorizer, type AuthorizerOptions } from './acl/authorizer.js';
import type { Logger } from '../logger.js';

export interface BrokerNode {
  readonly nodeId: number;
  /** Host and port that Metadata advertises for this node. */
  host: string;
  port: number;
  rack: string | null;
  alive: boolean;
}

export interface Topic {
  readonly name: string;
  readonly topicId: string;
  readonly partitions: Partition[];
  readonly configs: Map<string, string>;
  readonly internal: boolean;
}

export interface ClusterModelOptions {
  nodeIds: number[];
  /** The Kafka version whose broker behaviour this cluster has (docs/protocol.md#kafka-versions); default 3.9. */
  kafkaVersion?: KafkaVersionProfile;
  clusterId: string;
  /** auto.create.topics.enable */
  autoCreateTopics: boolean;
  /** num.partitions */
  defaultPartitions: number;
  /** default.replication.factor */
  defaultReplicationFactor: number;
  /** Broker-level min.insync.replicas, used where a topic sets none. */
  minInsyncReplicas: number;
  /** How long followers take to copy a leader's appends; 0 = at once. */
  replicationLagMs: number;
  /** producer.id.expiration.ms: idle producer ids are forgotten after this long. */
  producerIdExpirationMs?: number;
  /** producer.id.expiration.check.interval.ms: how often the cluster looks for idle producer ids (Kafka: 600000). */
  producerIdExpirationCheckIntervalMs?: number;
  /** transaction.max.timeout.ms */
  transactionMaxTimeoutMs?: number;
  /** authorizer.class.name set (StandardAuthorizer) with these settings; absent: no authorizer, everything allowed. */
  authorizer?: AuthorizerOptions;
  clock: Clock;
  logger: Logger;
  /** Makes the cluster's coordinators (createCoordinators in ./cluster-coordinators.ts): given, not imported, so that the model loads without them. */
  coordinators: (cluster: Cluster, options: { transactionMaxTimeoutMs?: number }) => ClusterCoordinators;
}

/** What a cluster's coordinators are: see ./cluster-coordinators.ts. */
export interface ClusterCoordinators {
  groups: GroupCoordinator;
  shares: SharePartitions;
  transactions: TransactionCoordinator;
}

export interface CreateTopicSpec {
  numPartitions?: number;
  replicationFactor?: number;
  /** Replica lists given by hand (CreateTopics assignments); numPartitions and replicationFactor must then be unset or -1. */
  assignments?: ReplicaAssignment[];
  configs?: Record<string, string | null>;
}

export type Result<T> = { ok: true; value: T } | { ok: false; error: ErrorName; message: string };

/** KRaft's ReplicationControlManager.MAX_PARTITIONS_PER_BATCH: the most partitions one request may create. */
export const MAX_PARTITIONS_PER_REQUEST = 10_000;
export const TOO_MANY_PARTITIONS = 'Excessively large number of partitions per request.';

const ok = <T>(value: T): Result<T> => ({ ok: true, value });
const fail = <T>(error: ErrorName, message: string): Result<T> => ({ ok: false, error, message });

export interface LeaderChange {
  topic: string;
  partition: number;
  leader: number;
  leaderEpoch: number;
  unclean: boolean;
  /** Offset the log was truncated to, when the new leader lacked the tail. */
  truncatedFrom: number | null;
}

/** A Produce's batches appended to one partition, or recognised as a retry (the delivery audit links them to the fault events of that request). */
export interface RecordsAppended {
  topic: string;
  topicId: string;
  partition: number;
  baseOffset: number;
  lastOffset: number;
  clientId: string | null;
  /** The Produce request's correlation id (the proxy forwards it unchanged); -1 when unknown. */
  correlationId: number;
  /** A retried batch already in the log, answered with its offsets and not appended again. */
  duplicate: boolean;
  /** The Produce's acks: an acks=all batch cut off the log before the ISR had it was never acknowledged. */
  acks: number;
}

export interface ClusterEvents {
  'records-appended': [append: RecordsAppended];
  'node-stopped': [nodeId: number];
  'node-started': [nodeId: number];
  'leader-changed': [change: LeaderChange];
  'topic-created': [topic: string];
  'topic-deleted': [topic: string];
}

export class Cluster extends EventEmitter<ClusterEvents> {
  readonly nodes = new Map<number, BrokerNode>();
  readonly topics = new Map<string, Topic>();
  private readonly topicsById = new Map<string, Topic>();
  private readonly pausedFollowers = new Set<number>();
  /** KRaft's metadata lag (the metadata-lag fault): what each lagging node's metadata cache has not caught up with. */
  readonly metadataLag: MetadataLag;
  private placementCursor = 0;
  readonly clock: Clock;
  readonly log: Logger;
  /** Consumer groups and committed offsets (the classic group coordinator of every node). */
  readonly groups: GroupCoordinator;
  /** Per-group configs (GROUP config resources), on the profiles whose Kafka has them. */
  readonly groupConfigs = new GroupConfigs();
  /** Share groups' share partitions and share sessions (KIP-932). */
  readonly shares: SharePartitions;
  /** Producer ids and transactions (one coordinator state for the whole cluster). */
  readonly transactions: TransactionCoordinator;
  /** SCRAM credentials per user and mechanism (the metadata's, in KRaft): SASL SCRAM authenticates against them. */
  readonly scramCredentials = new ScramCredentialStore();
  /** Client quotas (AlterClientQuotas) and the Produce/Fetch bandwidth throttling that reads them. */
  readonly quotas: ClientQuotas;
  private producerExpirationTimer: Timer | null = null;
  /** The ACLs and who may do what; null without an authorizer (Kafka without authorizer.class.name). */
  readonly authorizer: Authorizer | null;

  /** The replication lag the cluster started with, restored by resetReplication. */
  private readonly startReplicationLagMs: number;

  /** The Kafka version this cluster behaves as. */
  readonly profile: KafkaVersionProfile;
  /** That version's topic configs (LogConfig): names, defaults, validation. */
  readonly topicConfigDefs: ReadonlyMap<string, ConfigDef>;

  constructor(readonly options: ClusterModelOptions) {
    super();
    this.profile = options.kafkaVersion ?? defaultProfile;
    this.topicConfigDefs = topicConfigDefsFor(this.profile);
    this.startReplicationLagMs = options.replicationLagMs;
    this.clock = options.clock;
    this.metadataLag = new MetadataLag(options.clock);
    this.log = options.logger;
    this.quotas = new ClientQuotas(options.clock);
    for (const nodeId of options.nodeIds) this.nodes.set(nodeId, { nodeId, host: '127.0.0.1', port: 0, rack: null, alive: true });
    this.authorizer = options.authorizer ? new Authorizer(options.authorizer) : null;
    if (typeof options.coordinators !== 'function') {
      throw new TypeError('new Cluster(options): options.coordinators is required (createCoordinators from broker/cluster-coordinators); startCluster() builds a whole cluster');
    }
    const coordinators = options.coordinators(this, { transactionMaxTimeoutMs: options.transactionMaxTimeoutMs });
    this.groups = coordinators.groups;
    this.shares = coordinators.shares;
    this.transactions = coordinators.transactions;
    this.scheduleProducerExpiration();
  }

  /** Stops the cluster's own timers (the producer-id expiration scan, group timers); the model stays readable. */
  shutdown(): void {
    this.producerExpirationTimer?.cancel();
    this.producerExpirationTimer = null;
    this.groups.shutdown();
    this.shares.shutdown();
  }

  /**
   * Kafka's PeriodicProducerExpirationCheck: every
   * producer.id.expiration.check.interval.ms, on the cluster clock, each
   * partition forgets its idle producer ids. This scan is the only place they
   * expire (never at lookup). Kafka runs one per log, from the log's creation;
   * here one scan covers every partition, from the cluster's start.
   */
  private scheduleProducerExpiration(): void {
    const intervalMs = this.options.producerIdExpirationCheckIntervalMs ?? 600_000;
    this.producerExpirationTimer = this.clock.setTimer(intervalMs, () => {
      this.removeExpiredProducers();
      this.scheduleProducerExpiration();
    });
  }

  /** One expiration scan over every partition, now (what the periodic check runs). */
  removeExpiredProducers(): void {
    const now = this.clock.now();
    for (const topic of this.topics.values()) {
      for (const p of topic.partitions) {
        const removed = p.producers.removeExpiredProducers(now);
        if (removed.length) this.log.debug({ topic: topic.name, partition: p.index, producerIds: removed }, 'idle producer ids expired');
      }
    }
  }

  private readonly producerIdExpirationMs = () => this.options.producerIdExpirationMs ?? 86_400_000;

  get clusterId(): string {
    return this.options.clusterId;
  }

  liveNodes(): BrokerNode[] {
    return [...this.nodes.values()].filter((n) => n.alive);
  }

  /** Registered brokers (a stopped node stays registered, as a fenced one in KRaft) and which are alive, for hand-made assignments. */
  private readonly assignableBrokers: AssignableBrokers = {
    isRegistered: (nodeId) => this.nodes.has(nodeId),
    isAlive: (nodeId) => this.isAlive(nodeId),
  };

  isAlive(nodeId: number): boolean {
    return this.nodes.get(nodeId)?.alive ?? false;
  }

  /** The controller a KRaft broker reports: here, the lowest live node id. */
  get controllerId(): number {
    const live = this.liveNodes();
    return live.length ? Math.min(...live.map((n) => n.nodeId)) : -1;
  }

  // ---------- topics ----------

  topic(name: string): Topic | undefined {
    return this.topics.get(name);
  }

  topicById(id: string): Topic | undefined {
    return this.topicsById.get(id);
  }

  partition(topic: string, index: number): Partition | undefined {
    return this.topics.get(topic)?.partitions[index];
  }

  /** Validates a topic creation without creating it (CreateTopics validate_only shares it). */
  checkCreateTopic(name: string, spec: CreateTopicSpec): Result<{ replicas: number[][]; configs: Map<string, string> }> {
    const invalid = invalidTopicReason(name);
    if (invalid) return fail('INVALID_TOPIC_EXCEPTION', invalid);
    if (this.topics.has(name)) return fail('TOPIC_ALREADY_EXISTS', `Topic '${name}' already exists.`);
    const key = collisionKey(name);
    for (const existing of this.topics.keys()) {
      if (collisionKey(existing) === key) return fail('INVALID_TOPIC_EXCEPTION', `Topic '${name}' collides with existing topic: ${existing}`);
    }
    const configs = new Map<string, string>();
    for (const [k, v] of Object.entries(spec.configs ?? {})) {
      const why = validateTopicConfig(k, v, this.topicConfigDefs);
      if (why) return fail('INVALID_CONFIG', why);
      configs.set(k, v!);
    }
    if (spec.assignments?.length) {
      if (spec.replicationFactor !== undefined && spec.replicationFactor !== -1) {
        return fail('INVALID_REQUEST', 'A manual partition assignment was specified, but replication factor was not set to -1.');
      }
      if (spec.numPartitions !== undefined && spec.numPartitions !== -1) {
        return fail('INVALID_REQUEST', 'A manual partition assignment was specified, but numPartitions was not set to -1.');
      }
      const checked = checkTopicAssignments(spec.assignments, this.assignableBrokers);
      if (!checked.ok) return fail('INVALID_REPLICA_ASSIGNMENT', checked.message);
      return ok({ replicas: checked.replicas, configs });
    }
    const rf = spec.replicationFactor === undefined || spec.replicationFactor === -1 ? this.options.defaultReplicationFactor : spec.replicationFactor;
    const np = spec.numPartitions === undefined || spec.numPartitions === -1 ? this.options.defaultPartitions : spec.numPartitions;
    if (rf <= 0) return fail('INVALID_REPLICATION_FACTOR', 'Replication factor must be larger than 0, or -1 to use the default value.');
    if (np <= 0) return fail('INVALID_PARTITIONS', 'Number of partitions was set to an invalid non-positive value.');
    if (np > MAX_PARTITIONS_PER_REQUEST) return fail('POLICY_VIOLATION', TOO_MANY_PARTITIONS);
    const nodeIds = [...this.nodes.keys()].sort((a, b) => a - b);
    if (rf > nodeIds.length) {
      return fail('INVALID_REPLICATION_FACTOR', `Unable to replicate the partition ${rf} time(s): The target replication factor of ${rf} cannot be reached because only ${nodeIds.length} broker(s) are registered.`);
    }
    return ok({ replicas: this.placeReplicas(np, rf, nodeIds, this.placementCursor), configs });
  }

  /** Round-robin placement: partition p leads on node (start + p), followers after it, so leaders spread. */
  private placeReplicas(count: number, rf: number, nodeIds: number[], start: number, firstPartition = 0): number[][] {
    const out: number[][] = [];
    for (let p = firstPartition; p < firstPartition + count; p++) {
      const replicas: number[] = [];
      for (let i = 0; i < rf; i++) replicas.push(nodeIds[(start + p + i) % nodeIds.length]!);
      out.push(replicas);
    }
    return out;
  }

  createTopic(name: string, spec: CreateTopicSpec = {}): Result<Topic> {
    const checked = this.checkCreateTopic(name, spec);
    if (!checked.ok) return checked;
    this.placementCursor++;
    const topic: Topic = {
      name,
      topicId: randomUUID(),
      partitions: checked.value.replicas.map((replicas, i) => new Partition(name, i, replicas, this.producerIdExpirationMs)),
      configs: checked.value.configs,
      internal: INTERNAL_TOPICS.has(name),
    };
    for (const p of topic.partitions) {
      const firstLive = p.replicas.find((r) => this.isAlive(r));
      if (!p.replicas.every((r) => this.isAlive(r))) p.isr = p.replicas.filter((r) => this.isAlive(r));
      if (firstLive === undefined) p.goOffline();
      else p.leader = firstLive;
    }
    this.metadataLag.beforeChange(name, undefined);
    this.topics.set(name, topic);
    this.topicsById.set(topic.topicId, topic);
    this.metadataLag.afterChange(name, topic);
    this.log.debug({ topic: name, partitions: topic.partitions.length }, 'topic created');
    this.emit('topic-created', name);
    return ok(topic);
  }

  /**
   * A topic as the reader's node's metadata cache has it (the metadata-lag
   * fault): the live topic when that node is caught up on it, else the
   * image it last applied (undefined: it does not know the topic, though the
   * controller may; or a deleted topic it still has). An answer built on a
   * lagged image counts against the node's requests budget.
   */
  topicOn(reader: LagReader, name: string): TopicImage | undefined {
    const view = this.metadataLag.view(reader, name);
    if (!view) return this.topics.get(name);
    this.metadataLag.shown(reader);
    return view.image ?? undefined;
  }

  /** topicOn by topic id. */
  topicByIdOn(reader: LagReader, id: string): TopicImage | undefined {
    const live = this.topicsById.get(id);
    if (live && !this.metadataLag.view(reader, live.name)) return live;
    for (const name of this.metadataLag.pendingNames(reader)) {
      const image = this.metadataLag.view(reader, name)?.image;
      if (image?.topicId === id) return (this.metadataLag.shown(reader), image);
    }
    if (live) this.metadataLag.shown(reader);
    return undefined;
  }

  /** Every topic the reader's node's metadata cache has (an all-topics Metadata). */
  topicsOn(reader: LagReader): TopicImage[] {
    const pending = new Set(this.metadataLag.pendingNames(reader));
    const out: TopicImage[] = [...this.topics.values()].filter((t) => !pending.has(t.name));
    for (const name of pending) {
      const image = this.topicOn(reader, name);
      if (image) out.push(image);
    }
    return out;
  }

  /**
   * What a lagging node answers for a partition before its own checks, as
   * ReplicaManager.getPartitionOrError does from what that node hosts and
   * caches; null when its metadata agrees with the controller's there.
   * Unknown to its cache (creation or CreatePartitions not seen):
   * UNKNOWN_TOPIC_OR_PARTITION. In its cache but gone from the controller
   * (deletion not seen): NOT_LEADER_OR_FOLLOWER (see docs/chaos.md:
   * the `HostedPartition.None if metadataCache.contains` case,
   * ReplicaManager.scala). Led elsewhere in one of the two (a leader move
   * not seen): NOT_LEADER_OR_FOLLOWER. `leader` and `leaderEpoch` are the
   * node's own, as KafkaApis.getCurrentLeader answers them (KIP-951).
   */
  laggedPartition(reader: LagReader, name: string, index: number): LaggedAnswer | null {
    const view = this.metadataLag.view(reader, name);
    if (!view) return null;
    const known = view.image?.partitions[index];
    const liveTopic = this.topics.get(name);
    const live = liveTopic && liveTopic.topicId === view.image?.topicId ? liveTopic.partitions[index] : undefined;
    let answer: LaggedAnswer | null = null;
    if (!known) answer = { error: 'UNKNOWN_TOPIC_OR_PARTITION', leader: -1, leaderEpoch: -1 };
    else if (!live) answer = { error: 'NOT_LEADER_OR_FOLLOWER', leader: known.leader, leaderEpoch: known.leaderEpoch };
    else if ((known.leader !== live.leader || known.leaderEpoch !== live.leaderEpoch) && (known.leader !== reader.nodeId || live.leader !== reader.nodeId)) {
      answer = { error: 'NOT_LEADER_OR_FOLLOWER', leader: known.leader, leaderEpoch: known.leaderEpoch };
    }
    if (answer) this.metadataLag.shown(reader);
    return answer;
  }

  /**
   * Arms KRaft's metadata lag on the given nodes for the changes made from
   * now on (creations, deletions, CreatePartitions, leader moves): each
   * reaches the node `ms` later, or the node catches up after `requests`
   * answers that showed the lag, whichever comes first. ms 0 without
   * requests disarms; what is pending keeps its lag.
   */
  setMetadataLag(nodeIds: readonly number[], spec: MetadataLagSpec): void {
    this.metadataLag.set(nodeIds, spec);
  }

  /** Metadata's auto-creation with the broker defaults; null when not allowed. */
  autoCreateTopic(name: string): Result<Topic> | null {
    if (!this.options.autoCreateTopics) return null;
    const rf = Math.min(this.options.defaultReplicationFactor, this.nodes.size);
    return this.createTopic(name, { numPartitions: this.options.defaultPartitions, replicationFactor: rf });
  }

  deleteTopic(name: string): Result<Topic> {
    const topic = this.topics.get(name);
    if (!topic) return fail('UNKNOWN_TOPIC_OR_PARTITION', 'This server does not host this topic-partition.');
    this.metadataLag.beforeChange(name, topic);
    this.topics.delete(name);
    this.topicsById.delete(topic.topicId);
    this.metadataLag.afterChange(name, undefined);
    for (const p of topic.partitions) p.notify();
    this.emit('topic-deleted', name);
    return ok(topic);
  }

  createPartitions(name: string, totalCount: number, assignments?: number[][], validateOnly = false): Result<Topic> {
    const topic = this.topics.get(name);
    if (!topic) return fail('UNKNOWN_TOPIC_OR_PARTITION', `The topic '${name}' does not exist.`);
    const current = topic.partitions.length;
    if (totalCount < current) return fail('INVALID_PARTITIONS', `The topic ${name} currently has ${current} partition(s); ${totalCount} would not be an increase.`);
    if (totalCount === current) return fail('INVALID_PARTITIONS', `Topic already has ${current} partition(s).`);
    const rf = topic.partitions[0]?.replicas.length ?? 1;
    const added = totalCount - current;
    if (added > MAX_PARTITIONS_PER_REQUEST) return fail('POLICY_VIOLATION', TOO_MANY_PARTITIONS);
    if (assignments && assignments.length !== added) {
      return fail('INVALID_REPLICA_ASSIGNMENT', `Attempted to add ${added} additional partition(s), but only ${assignments.length} assignment(s) were specified.`);
    }
    let replicas: number[][];
    if (assignments) {
      const checked = checkNewPartitionAssignments(assignments, current, rf, this.assignableBrokers);
      if (!checked.ok) return fail('INVALID_REPLICA_ASSIGNMENT', checked.message);
      replicas = checked.replicas;
    } else {
      replicas = this.placeReplicas(added, rf, [...this.nodes.keys()].sort((a, b) => a - b), this.placementCursor, current);
    }
    if (validateOnly) return ok(topic);
    this.metadataLag.beforeChange(name, topic);
    replicas.forEach((r, i) => {
      const p = new Partition(name, current + i, r, this.producerIdExpirationMs);
      if (!p.replicas.every((n) => this.isAlive(n))) p.isr = p.replicas.filter((n) => this.isAlive(n));
      const firstLive = r.find((n) => this.isAlive(n));
      if (firstLive === undefined) p.goOffline();
      else p.leader = firstLive;
      topic.partitions.push(p);
    });
    this.metadataLag.afterChange(name, topic);
    return ok(topic);
  }

  /** A topic's min.insync.replicas, falling back to the broker's. */
  minInsyncReplicas(topic: Topic): number {
    const v = topic.configs.get('min.insync.replicas');
    return v === undefined ? this.options.minInsyncReplicas : Number(v);
  }

  // ---------- replication ----------

  /** Lets followers copy the leader's new records, at once or after the replication lag. */
  replicate(p: Partition): void {
    const target = p.logEndOffset;
    for (const r of p.replicas) {
      if (r === p.leader || !this.canFollow(r)) continue;
      if (this.options.replicationLagMs <= 0) this.catchUp(p, r, target);
      else this.clock.setTimer(this.options.replicationLagMs, () => this.catchUp(p, r, target));
    }
  }

  private canFollow(nodeId: number): boolean {
    return this.isAlive(nodeId) && !this.pausedFollowers.has(nodeId);
  }

  private catchUp(p: Partition, nodeId: number, target: number): void {
    // A replica reassigned away while its copy was scheduled copies nothing.
    if (p.leader < 0 || p.leader === nodeId || !this.canFollow(nodeId) || !p.replicas.includes(nodeId)) return;
    p.setReplicaLogEndOffset(nodeId, Math.max(p.replicaLogEndOffset(nodeId), target));
    // A follower that has everything the leader has rejoins the ISR, which may complete a reassignment.
    if (!p.isr.includes(nodeId) && p.replicaLogEndOffset(nodeId) >= p.logEndOffset) {
      p.setIsr(p.replicas.filter((r) => r === nodeId || p.isr.includes(r)));
      maybeCompleteReassignment(this, p);
    }
  }

  /** Sets how long followers lag behind leaders (ms); 0 makes replication immediate. */
  setReplicationLag(ms: number): void {
    this.options.replicationLagMs = Math.max(0, ms);
  }

  /** Stops the followers on a node from copying anything (they stay in the ISR, so acks=all waits). */
  pauseReplication(nodeId: number): void {
    this.pausedFollowers.add(nodeId);
  }

  resumeReplication(nodeId: number): void {
    this.pausedFollowers.delete(nodeId);
    for (const p of this.allPartitions()) if (p.replicas.includes(nodeId)) this.catchUp(p, nodeId, p.logEndOffset);
  }

  /**
   * Back to the start's replication: its lag, no follower paused, and no
   * metadata lag (the metadata log's replication: every node sees every
   * topic at once). Reset; chaos actions change all three.
   */
  resetReplication(): void {
    this.setReplicationLag(this.startReplicationLagMs);
    this.metadataLag.clear();
    for (const n of [...this.pausedFollowers]) this.resumeReplication(n);
  }

  /** Takes a follower out of the ISR (as replica.lag.time.max.ms would). */
  shrinkIsr(topic: string, partition: number, nodeId: number): void {
    const p = this.partition(topic, partition);
    if (!p || nodeId === p.leader) return;
    p.setIsr(p.isr.filter((r) => r !== nodeId));
  }

  *allPartitions(): Iterable<Partition> {
    for (const t of this.topics.values()) yield* t.partitions;
  }

  // ---------- leadership and node lifecycle ----------

  /**
   * Elects a leader: the given node, or the first live replica (in assignment
   * order) that is in the ISR. Unclean election may pick a replica outside
   * the ISR; the log is truncated to what the new leader has.
   */
  electLeader(topic: string, partition: number, opts: { nodeId?: number; unclean?: boolean } = {}): Result<LeaderChange> {
    const p = this.partition(topic, partition);
    if (!p) return fail('UNKNOWN_TOPIC_OR_PARTITION', `${topic}-${partition} does not exist`);
    let candidate: number | undefined;
    if (opts.nodeId !== undefined) {
      if (!p.replicas.includes(opts.nodeId)) return fail('INVALID_REPLICA_ASSIGNMENT', `node ${opts.nodeId} holds no replica of ${topic}-${partition}`);
      if (!this.isAlive(opts.nodeId)) return fail('BROKER_NOT_AVAILABLE', `node ${opts.nodeId} is stopped`);
      if (!p.isr.includes(opts.nodeId) && !opts.unclean) return fail('ELIGIBLE_LEADERS_NOT_AVAILABLE', `node ${opts.nodeId} is not in the ISR of ${topic}-${partition}; use unclean election`);
      candidate = opts.nodeId;
    } else {
      candidate = p.replicas.find((r) => r !== p.leader && p.isr.includes(r) && this.isAlive(r));
      if (candidate === undefined && opts.unclean) candidate = p.replicas.find((r) => r !== p.leader && this.isAlive(r));
      if (candidate === undefined) return fail('ELIGIBLE_LEADERS_NOT_AVAILABLE', `no other eligible replica for ${topic}-${partition}`);
    }
    const unclean = !p.isr.includes(candidate);
    this.metadataLag.beforeChange(topic, this.topics.get(topic));
    const { truncatedFrom } = p.becomeLeader(candidate);
    const isr = unclean ? [candidate] : p.isr.filter((r) => this.isAlive(r) && p.replicaLogEndOffset(r) <= p.logEndOffset);
    p.setIsr(isr.includes(candidate) ? isr : [candidate, ...isr]);
    this.replicate(p);
    this.metadataLag.afterChange(topic, this.topics.get(topic));
    const change: LeaderChange = { topic, partition, leader: candidate, leaderEpoch: p.leaderEpoch, unclean, truncatedFrom };
    this.emit('leader-changed', change);
    return ok(change);
  }

  /** Stops a node: it leaves every ISR (unless it is the last member), and its leaderships move. */
  stopNode(nodeId: number): Result<void> {
    const node = this.nodes.get(nodeId);
    if (!node) return fail('BROKER_NOT_AVAILABLE', `no node ${nodeId}`);
    if (!node.alive) return ok(undefined);
    node.alive = false;
    for (const p of this.allPartitions()) {
      if (!p.replicas.includes(nodeId)) continue;
      if (p.isr.length > 1) p.setIsr(p.isr.filter((r) => r !== nodeId));
      if (p.leader === nodeId) {
        const next = p.replicas.find((r) => r !== nodeId && p.isr.includes(r) && this.isAlive(r));
        if (next === undefined) {
          this.metadataLag.beforeChange(p.topic, this.topics.get(p.topic));
          p.goOffline();
          this.metadataLag.afterChange(p.topic, this.topics.get(p.topic));
          this.emit('leader-changed', { topic: p.topic, partition: p.index, leader: -1, leaderEpoch: p.leaderEpoch, unclean: false, truncatedFrom: null });
        } else {
          this.electLeader(p.topic, p.index, { nodeId: next });
        }
      }
    }
    this.emit('node-stopped', nodeId);
    return ok(undefined);
  }

  /** Starts a stopped node: its replicas catch up, and offline partitions it can lead come back. */
  startNode(nodeId: number): Result<void> {
    const node = this.nodes.get(nodeId);
    if (!node) return fail('BROKER_NOT_AVAILABLE', `no node ${nodeId}`);
    if (node.alive) return ok(undefined);
    node.alive = true;
    for (const p of this.allPartitions()) {
      if (!p.replicas.includes(nodeId)) continue;
      if (p.leader < 0 && p.isr.includes(nodeId)) this.electLeader(p.topic, p.index, { nodeId });
      else if (p.leader >= 0) this.catchUp(p, nodeId, p.logEndOffset);
    }
    this.emit('node-started', nodeId);
    return ok(undefined);
  }
}
