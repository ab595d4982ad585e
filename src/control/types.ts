// The control API's wire types: every route as "METHOD /path", with its
// query, body and response. The server's route table (routes.ts) must
// implement exactly these keys and the typed client (client.ts) builds its
// requests from them, so the two cannot drift. Types only: the client imports
// this file without loading the broker.
import type { ChaosEvent, FaultRule, FaultRuleInput } from '../chaos/api.js';
import type { Preset } from '../presets/validate.js';
import type { AuditInput, AuditReport, IdFromJson } from '../audit/types.js';
import type { AuditRecord } from '../audit/audit-history.js';
import type { CommittedProgress, GroupPartitionProgress, GroupProgress, RecordsProgress } from '../broker/waits.js';
import type { GroupState } from '../broker/groups/group.js';

export type { ChaosEvent, FaultRule, FaultRuleInput, Preset, AuditReport, CommittedProgress, GroupPartitionProgress, GroupProgress, RecordsProgress, GroupState };

/** The body of POST /v1/audit: the library's audit input with `idFrom` as JSON ('key' or { header }). */
export type AuditRequest = AuditInput<IdFromJson>;

/** The body of every non-2xx answer. */
export interface ErrorBody {
  /** Machine-readable code: 'not_found', 'bad_parameter', 'invalid_rule', 'topic_already_exists', … */
  error: string;
  message: string;
  /** The request field (body path or query parameter) that is wrong. */
  field?: string;
  /** Why the field is wrong (invalid_rule). */
  reason?: string;
}

export interface VersionInfo {
  name: 'kafkaesque';
  version: string;
  /** Version of the control API's routes (the /v1 prefix). */
  api: 'v1';
}

export interface NodeView {
  nodeId: number;
  /** Host and port that Metadata advertises for this node. */
  host: string;
  port: number;
  rack: string | null;
  alive: boolean;
  /** Upstream mode: the upstream broker's own host:port, which this proxy listener forwards to. */
  upstream?: string;
}

export interface ClusterView {
  clusterId: string;
  /** Lowest live node id; -1 when every node is stopped. */
  controllerId: number;
  /** Comma-separated host:port of the live brokers. */
  bootstrap: string;
  /** The Kafka version profile the brokers behave as ('2.8', '3.9', '4.0', '4.4'); absent in upstream mode. */
  kafkaVersion?: string;
  nodes: NodeView[];
  /** Whether the chaos proxy is on (fault routes answer 503 without it). */
  proxy: boolean;
  /** The run's random seed (the same seed and traffic fire the same faults); null without a fault controller. */
  seed: number | null;
  /**
   * Upstream mode (docs/upstream.md): the bootstrap of the cluster the proxy
   * fronts, as given. Then clusterId and controllerId are the upstream's as
   * its last Metadata answer said ('' and -1 before one), `nodes` are the
   * proxy listeners of the brokers seen so far, and the cluster-model routes
   * (topics, groups, transactions, nodes, leaders) answer 409 upstream_mode.
   */
  upstream?: string;
}

export interface TopicSummary {
  name: string;
  topicId: string;
  internal: boolean;
  partitions: number;
  replicationFactor: number;
}

export interface PartitionView {
  partition: number;
  /** -1 when offline. */
  leader: number;
  leaderEpoch: number;
  replicas: number[];
  isr: number[];
  logStartOffset: number;
  logEndOffset: number;
  highWatermark: number;
  lastStableOffset: number;
}

export interface TopicView {
  name: string;
  topicId: string;
  internal: boolean;
  /** Topic-level overrides only (what CreateTopics or AlterConfigs set). */
  configs: Record<string, string>;
  partitions: PartitionView[];
}

/** A node as GET /v1/nodes shows it: what GET /v1/cluster says, and how many partitions it leads. */
export interface NodeOverview extends NodeView {
  /** Partitions (of every topic, internal ones included) whose leader it is. */
  leaderships: number;
}

export interface PartitionsQuery {
  /** Index of the first partition; default 0. */
  from?: number;
  /** Most partitions; default 1000, at most 10000. */
  limit?: number;
}

/** A page of a topic's partitions, for a topic too large to read whole. */
export interface PartitionsPage {
  topic: string;
  /** Partitions the topic has. */
  total: number;
  from: number;
  partitions: PartitionView[];
}

/** An audit that found something, as the cluster keeps it (the last 50): what the web view and the HTML report show. */
export type AuditRecordView = AuditRecord;

export interface CreateTopicRequest {
  name: string;
  /** Default: the broker's num.partitions. */
  partitions?: number;
  /** Default: the broker's default.replication.factor. */
  replicationFactor?: number;
  configs?: Record<string, string>;
}

export interface RecordsQuery {
  /** First offset to read; default the log start offset. */
  from?: number;
  /** Most records to return; default 100, at most 10000. */
  limit?: number;
}

export interface RecordHeaderView {
  key: string;
  /** UTF-8 (lossy for binary); valueBase64 holds the exact bytes. */
  value: string | null;
  valueBase64: string | null;
}

export interface RecordView {
  offset: number;
  timestamp: number;
  /** UTF-8 (lossy for binary); keyBase64 holds the exact bytes. */
  key: string | null;
  keyBase64: string | null;
  value: string | null;
  valueBase64: string | null;
  headers: RecordHeaderView[];
  /** 'COMMIT' or 'ABORT' for a transaction marker (another control type as its number); null for a data record. */
  control: 'COMMIT' | 'ABORT' | number | null;
  /** The batch the record was stored in. */
  batch: {
    baseOffset: number;
    leaderEpoch: number;
    producerId: number;
    producerEpoch: number;
    baseSequence: number;
    transactional: boolean;
    /** A transactional batch whose transaction ended with an ABORT marker (read_committed consumers skip it). */
    aborted: boolean;
    compression: 'none' | 'gzip' | 'snappy' | 'lz4' | 'zstd';
  };
}

export interface RecordsPage {
  topic: string;
  partition: number;
  logStartOffset: number;
  logEndOffset: number;
  /** Records at or above it are not yet visible to consumers. */
  highWatermark: number;
  /** read_committed consumers stop here. */
  lastStableOffset: number;
  /** Where the next page starts (`from` of the next call). */
  nextOffset: number;
  records: RecordView[];
  /** Batches that could not be decoded (should not happen: batches are checked on produce). */
  errors: { baseOffset: number; message: string }[];
}

export interface ProducerView {
  producerId: number;
  producerEpoch: number;
  /** Sequence of the last batch appended; -1 when none is remembered. */
  lastSequence: number;
  lastTimestamp: number;
  coordinatorEpoch: number;
  /** First offset of the producer's open transaction in this partition, or null. */
  currentTxnStartOffset: number | null;
}

export interface MoveLeaderRequest {
  /** The new leader; default the next live in-sync replica. */
  to?: number;
  /** Allow a replica outside the ISR (the log is truncated to what it has). */
  unclean?: boolean;
}

export interface LeaderChangeView {
  topic: string;
  partition: number;
  leader: number;
  leaderEpoch: number;
  unclean: boolean;
  /** Offset the log was truncated to, when the new leader lacked the tail. */
  truncatedFrom: number | null;
}

/** A classic group's state, or a KIP-848 ("consumer" protocol) group's: Assigning and Reconciling are those of ConsumerGroup. */
export type GroupStateName = 'Empty' | 'PreparingRebalance' | 'CompletingRebalance' | 'Stable' | 'Dead' | 'Assigning' | 'Reconciling';

export interface GroupSummaryView {
  groupId: string;
  state: GroupStateName;
  protocolType: string | null;
  protocolName: string | null;
  members: number;
  /** The node coordinating the group; -1 when none can. */
  coordinator: number;
}

export interface GroupMemberView {
  memberId: string;
  groupInstanceId: string | null;
  clientId: string;
  clientHost: string;
  sessionTimeoutMs: number;
  rebalanceTimeoutMs: number;
  /** Decoded consumer assignment; null when the group is not a consumer group or the bytes are not one. */
  assignment: { topic: string; partitions: number[] }[] | null;
}

export interface CommittedOffsetView {
  topic: string;
  partition: number;
  offset: number;
  leaderEpoch: number;
  metadata: string;
  commitTimestamp: number;
  /** High watermark minus the committed offset; null when the partition is gone. */
  lag: number | null;
}

export interface GroupView {
  groupId: string;
  /** "consumer" for a KIP-848 group, "share" for a KIP-932 one: their generationId is the group epoch. */
  groupType: 'classic' | 'consumer' | 'share';
  state: GroupStateName;
  generationId: number;
  protocolType: string | null;
  protocolName: string | null;
  leaderId: string | null;
  coordinator: number;
  members: GroupMemberView[];
  offsets: CommittedOffsetView[];
}

export type TransactionStateName = 'Empty' | 'Ongoing' | 'PrepareCommit' | 'PrepareAbort' | 'CompleteCommit' | 'CompleteAbort' | 'Dead' | 'PrepareEpochFence';

export interface TransactionView {
  transactionalId: string;
  producerId: number;
  producerEpoch: number;
  state: TransactionStateName;
  /** A transition in flight (markers waiting for a partition leader). */
  pendingState: TransactionStateName | null;
  timeoutMs: number;
  /** Partitions of the open transaction (markers still to write while completing). */
  partitions: { topic: string; partition: number }[];
  /** Cluster-clock time the open transaction started; -1 when none is open. */
  startTimestamp: number;
  lastUpdateTimestamp: number;
}

export interface WaitForFaultRequest {
  /** Resolve once the rule has fired this many times in all; default 1. */
  count?: number;
  /** Default 10000, at most 60000. */
  timeoutMs?: number;
}

export interface EventsQuery {
  /** The last seq already seen; default 0. */
  since?: number;
  /** Most events to return; default 1000. */
  limit?: number;
  /** Long poll: with nothing after `since`, wait up to this many ms (at most 30000) for the next event. */
  wait?: number;
}

export interface EventsPage {
  events: ChaosEvent[];
  /** The seq to pass as `since` next time. */
  next: number;
}

export interface ResetResult {
  /** Fault rules removed (0 without the proxy). */
  rulesCleared: number;
  /** Stopped nodes that were started again. */
  nodesStarted: number[];
  /** Every topic, internal ones included. */
  topicsDeleted: string[];
  groupsDeleted: number;
  transactionsDeleted: number;
  /** The topics of the `topics` start option, created again. */
  topicsCreated: string[];
  /** The presets of the `presets` start option (`--preset`), applied again: their triggers count from zero. */
  presetsApplied: string[];
}

/** A built-in preset as GET /v1/presets lists it. */
export interface PresetSummary {
  name: string;
  description: string;
  /** How many rules applying it adds. */
  rules: number;
}

/**
 * The optional body of POST /v1/presets/:name/apply: a preset of your own
 * (its name must be the one in the path), and values for the parameters the
 * preset takes (an exact name or { regex }).
 */
export interface ApplyPresetRequest {
  preset?: Preset;
  params?: Record<string, string | { regex: string }>;
}

/** What POST /v1/presets/:name/apply answers: the rules it added, in order. */
export interface AppliedPreset {
  preset: string;
  rules: FaultRule[];
}

/** The body of POST /v1/topics/:name/wait: answers once the topic (or `partition`) holds `count` data records below the high watermark. */
export interface WaitForRecordsRequest {
  count: number;
  partition?: number;
  /** Default 10000, at most 60000; 408 timeout after it, naming what was last seen. */
  timeoutMs?: number;
}

/** The body of POST /v1/groups/:id/committed/wait: answers once the group's committed offset of topic-partition is at least `offset`. */
export interface WaitForCommittedRequest {
  topic: string;
  partition: number;
  offset: number;
  /** Default 10000, at most 60000; 408 timeout after it, naming what was last seen. */
  timeoutMs?: number;
}

/** The body of POST /v1/groups/:id/wait: answers once the group is in `state` (default Stable) and, with `lag`, its total lag is at most `lag`. */
export interface WaitForGroupRequest {
  state?: GroupState;
  lag?: number;
  /** Default 10000, at most 60000; 408 timeout after it, naming what was last seen. */
  timeoutMs?: number;
}

/** What a route declares: its answer, its body and its query. */
export interface RouteSpec<Response, Body = undefined, Query = Record<string, never>> {
  response: Response;
  body: Body;
  query: Query;
}

export interface Routes {
  'GET /v1/version': RouteSpec<VersionInfo>;
  'GET /v1/cluster': RouteSpec<ClusterView>;
  'GET /v1/nodes': RouteSpec<{ nodes: NodeOverview[] }>;
  'POST /v1/nodes/:id/stop': RouteSpec<NodeView>;
  'POST /v1/nodes/:id/start': RouteSpec<NodeView>;
  'GET /v1/topics': RouteSpec<{ topics: TopicSummary[] }>;
  'POST /v1/topics': RouteSpec<TopicView, CreateTopicRequest>;
  'GET /v1/topics/:name': RouteSpec<TopicView>;
  'DELETE /v1/topics/:name': RouteSpec<{ deleted: string }>;
  'GET /v1/topics/:name/partitions': RouteSpec<PartitionsPage, undefined, PartitionsQuery>;
  'GET /v1/topics/:name/partitions/:partition/records': RouteSpec<RecordsPage, undefined, RecordsQuery>;
  'GET /v1/topics/:name/partitions/:partition/producers': RouteSpec<{ producers: ProducerView[] }>;
  'POST /v1/topics/:name/partitions/:partition/leader': RouteSpec<LeaderChangeView, MoveLeaderRequest>;
  'POST /v1/topics/:name/wait': RouteSpec<RecordsProgress, WaitForRecordsRequest>;
  'GET /v1/groups': RouteSpec<{ groups: GroupSummaryView[] }>;
  'GET /v1/groups/:id': RouteSpec<GroupView>;
  'POST /v1/groups/:id/wait': RouteSpec<GroupProgress, WaitForGroupRequest | undefined>;
  'POST /v1/groups/:id/committed/wait': RouteSpec<CommittedProgress, WaitForCommittedRequest>;
  'GET /v1/transactions': RouteSpec<{ transactions: TransactionView[] }>;
  'GET /v1/transactions/:id': RouteSpec<TransactionView>;
  'GET /v1/faults': RouteSpec<{ faults: FaultRule[] }>;
  'POST /v1/faults': RouteSpec<FaultRule, FaultRuleInput>;
  'DELETE /v1/faults': RouteSpec<{ removed: number }>;
  'GET /v1/faults/:id': RouteSpec<FaultRule>;
  'DELETE /v1/faults/:id': RouteSpec<{ removed: string }>;
  'POST /v1/faults/:id/wait': RouteSpec<FaultRule, WaitForFaultRequest | undefined>;
  'GET /v1/events': RouteSpec<EventsPage, undefined, EventsQuery>;
  'POST /v1/reset': RouteSpec<ResetResult>;
  'POST /v1/audit': RouteSpec<AuditReport, AuditRequest>;
  'GET /v1/audits': RouteSpec<{ audits: AuditRecordView[] }>;
  'GET /v1/presets': RouteSpec<{ presets: PresetSummary[] }>;
  'GET /v1/presets/:name': RouteSpec<Preset>;
  'POST /v1/presets/:name/apply': RouteSpec<AppliedPreset, ApplyPresetRequest | undefined>;
}

export type RouteKey = keyof Routes;
export type Method = 'GET' | 'POST' | 'DELETE';

export type MethodOf<K extends string> = K extends `${infer M} ${string}` ? M : never;
export type PathOf<K extends string> = K extends `${string} ${infer P}` ? P : never;

/** The `:name` segments of a path pattern. */
export type ParamNames<P extends string> = P extends `${string}:${infer Name}/${infer Rest}`
  ? Name | ParamNames<`/${Rest}`>
  : P extends `${string}:${infer Name}`
    ? Name
    : never;

export type RouteParams<K extends RouteKey, V = string> = { [N in ParamNames<PathOf<K>>]: V };
