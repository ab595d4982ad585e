// One request as the proxy sees it: the raw frame plus what its fixed header
// says. The client id, the decoded body and what the body names (topics,
// partitions, group ids, transactional ids) are worked out only when a rule
// asks, and at most once.
import { ApiKey, apiSchemas } from '../protocol/messages/index.js';
import { readHeader } from '../protocol/headers.js';
import { Reader } from '../protocol/primitives.js';
import type { ApiSchema } from '../protocol/api-schema.js';

export interface RequestScope {
  /** Topics the request names, each with the partitions it names (null: the whole topic). */
  topics: { topic: string; partitions: number[] | null }[];
  groupIds: string[];
  transactionalIds: string[];
  /** A share-group request carrying acknowledgements (ShareAcknowledge, or a ShareFetch with some). */
  acknowledgements: boolean;
}

const apiNames = new Map<number, string>(Object.entries(ApiKey).map(([name, key]) => [key, name]));

export function apiName(apiKey: number): string {
  return apiNames.get(apiKey) ?? `ApiKey${apiKey}`;
}

export class ProxiedRequest {
  private decoded: { clientId: string | null; body: unknown } | null | undefined;
  private scoped: RequestScope | undefined;

  constructor(
    /** The frame without its size prefix. */
    readonly frame: Buffer,
    readonly apiKey: number,
    readonly apiVersion: number,
    readonly correlationId: number,
    /** The broker node the client sent it to. */
    readonly nodeId: number,
    readonly connectionId: number,
    /** Topic ids to names, for the versions that name topics by id (Fetch v13+, Produce v13+, OffsetCommit/OffsetFetch v10+, TxnOffsetCommit v6+). */
    private readonly topicName: (topicId: string) => string | undefined = () => undefined,
  ) {}

  get api(): ApiSchema | undefined {
    return apiSchemas.get(this.apiKey);
  }

  get apiName(): string {
    return apiName(this.apiKey);
  }

  /** The client id of the header; null also when the header cannot be read. */
  get clientId(): string | null {
    const known = this.decoded?.clientId;
    if (known !== undefined) return known;
    // The client id sits right after the fixed header in every header version >= 1.
    if (this.frame.length < 10) return null;
    const len = this.frame.readInt16BE(8);
    if (len < 0 || 10 + len > this.frame.length) return null;
    return this.frame.toString('utf8', 10, 10 + len);
  }

  /** The decoded request, or undefined when this API or version cannot be decoded. */
  body(): unknown {
    if (this.decoded === undefined) {
      const api = this.api;
      try {
        if (!api || this.apiVersion < api.minVersion || this.apiVersion > api.maxVersion) throw new Error('not decodable');
        const r = new Reader(this.frame);
        const { clientId } = readHeader(r, api, this.apiVersion);
        this.decoded = { clientId, body: api.readRequest(r, this.apiVersion) };
      } catch {
        this.decoded = null;
      }
    }
    return this.decoded?.body;
  }

  get decodable(): boolean {
    return this.body() !== undefined;
  }

  scope(): RequestScope {
    this.scoped ??= requestScope(this.apiKey, this.body(), this.topicName);
    return this.scoped;
  }
}

type AnyBody = Record<string, any>;

/** What a decoded request names, per API; APIs that name nothing give an empty scope. */
export function requestScope(apiKey: number, body: unknown, topicName: (id: string) => string | undefined = () => undefined): RequestScope {
  const scope: RequestScope = { topics: [], groupIds: [], transactionalIds: [], acknowledgements: false };
  if (body === undefined || body === null) return scope;
  const b = body as AnyBody;
  const topic = (name: string | null | undefined, partitions: number[] | null) => {
    if (name) scope.topics.push({ topic: name, partitions });
  };
  const group = (id: string | null | undefined) => id && scope.groupIds.push(id);
  const txn = (id: string | null | undefined) => id && scope.transactionalIds.push(id);
  switch (apiKey) {
    case ApiKey.Produce:
      txn(b.transactionalId);
      for (const t of b.topicData) topic(t.name || topicName(t.topicId), t.partitionData.map((p: AnyBody) => p.index));
      break;
    case ApiKey.Fetch:
      for (const t of b.topics) topic(t.topic || topicName(t.topicId), t.partitions.map((p: AnyBody) => p.partition));
      break;
    case ApiKey.ListOffsets:
    case ApiKey.DeleteRecords:
      for (const t of b.topics) topic(t.name, t.partitions.map((p: AnyBody) => p.partitionIndex));
      break;
    case ApiKey.Metadata:
      for (const t of b.topics ?? []) topic(t.name ?? topicName(t.topicId), null);
      break;
    case ApiKey.OffsetCommit:
    case ApiKey.OffsetDelete:
      group(b.groupId);
      for (const t of b.topics) topic(t.name || topicName(t.topicId), t.partitions.map((p: AnyBody) => p.partitionIndex));
      break;
    case ApiKey.TxnOffsetCommit:
      txn(b.transactionalId);
      group(b.groupId);
      for (const t of b.topics) topic(t.name || topicName(t.topicId), t.partitions.map((p: AnyBody) => p.partitionIndex));
      break;
    case ApiKey.OffsetFetch:
      group(b.groupId);
      for (const t of b.topics ?? []) topic(t.name, t.partitionIndexes);
      for (const g of b.groups) {
        group(g.groupId);
        for (const t of g.topics ?? []) topic(t.name || topicName(t.topicId), t.partitionIndexes);
      }
      break;
    case ApiKey.FindCoordinator: {
      const keys: string[] = b.coordinatorKeys.length ? b.coordinatorKeys : [b.key];
      for (const k of keys) (b.keyType === 1 ? txn : group)(k);
      break;
    }
    case ApiKey.JoinGroup:
    case ApiKey.Heartbeat:
    case ApiKey.LeaveGroup:
    case ApiKey.SyncGroup:
    case ApiKey.ConsumerGroupHeartbeat:
      group(b.groupId);
      break;
    case ApiKey.DescribeGroups:
    case ApiKey.ConsumerGroupDescribe:
    case ApiKey.ShareGroupDescribe:
      for (const g of b.groups ?? b.groupIds ?? []) group(g);
      break;
    case ApiKey.ShareGroupHeartbeat:
      group(b.groupId);
      for (const name of b.subscribedTopicNames ?? []) topic(name, null);
      break;
    case ApiKey.ShareFetch:
    case ApiKey.ShareAcknowledge:
      group(b.groupId);
      for (const t of b.topics) topic(topicName(t.topicId), t.partitions.map((p: AnyBody) => p.partitionIndex));
      scope.acknowledgements = apiKey === ApiKey.ShareAcknowledge || b.topics.some((t: AnyBody) => t.partitions.some((p: AnyBody) => p.acknowledgementBatches.length > 0));
      break;
    case ApiKey.DescribeShareGroupOffsets:
      for (const g of b.groups) {
        group(g.groupId);
        for (const t of g.topics ?? []) topic(t.topicName, t.partitions);
      }
      break;
    case ApiKey.AlterShareGroupOffsets:
      group(b.groupId);
      for (const t of b.topics) topic(t.topicName, t.partitions.map((p: AnyBody) => p.partitionIndex));
      break;
    case ApiKey.DeleteShareGroupOffsets:
      group(b.groupId);
      for (const t of b.topics) topic(t.topicName, null);
      break;
    case ApiKey.DeleteGroups:
      for (const g of b.groupsNames) group(g);
      break;
    case ApiKey.InitProducerId:
    case ApiKey.EndTxn:
      txn(b.transactionalId);
      break;
    case ApiKey.AddOffsetsToTxn:
      txn(b.transactionalId);
      group(b.groupId);
      break;
    case ApiKey.AddPartitionsToTxn:
      txn(b.v3AndBelowTransactionalId);
      for (const t of b.v3AndBelowTopics) topic(t.name, t.partitions);
      for (const x of b.transactions) {
        txn(x.transactionalId);
        for (const t of x.topics) topic(t.name, t.partitions);
      }
      break;
    case ApiKey.DescribeTransactions:
      for (const id of b.transactionalIds) txn(id);
      break;
    case ApiKey.OffsetForLeaderEpoch:
      for (const t of b.topics) topic(t.topic, t.partitions.map((p: AnyBody) => p.partition));
      break;
    case ApiKey.DescribeProducers:
      for (const t of b.topics) topic(t.name, t.partitionIndexes);
      break;
    case ApiKey.CreateTopics:
    case ApiKey.CreatePartitions:
      for (const t of b.topics) topic(t.name, null);
      break;
    case ApiKey.DeleteTopics:
      for (const n of b.topicNames) topic(n, null);
      for (const t of b.topics) topic(t.name ?? topicName(t.topicId), null);
      break;
    case ApiKey.DescribeTopicPartitions:
      for (const t of b.topics) topic(t.name, null);
      break;
    case ApiKey.ElectLeaders:
      for (const t of b.topicPartitions ?? []) topic(t.topic, t.partitions);
      break;
    case ApiKey.AlterPartitionReassignments:
      for (const t of b.topics) topic(t.name, t.partitions.map((p: AnyBody) => p.partitionIndex));
      break;
    case ApiKey.ListPartitionReassignments:
      for (const t of b.topics ?? []) topic(t.name, t.partitionIndexes);
      break;
    case ApiKey.DescribeLogDirs:
      for (const t of b.topics ?? []) topic(t.topic, t.partitions);
      break;
  }
  return scope;
}
