// Fetch (1), v0-17. Reads whole stored batches up to the high watermark
// (read_uncommitted) or the last stable offset (read_committed), within the
// request's byte limits; parks the request until min_bytes are readable or
// max_wait_ms passes, woken by partition changes rather than polling.
// read_committed stops at the last stable offset and lists the aborted
// transactions that overlap the returned range. consumer_byte_rate quotas
// throttle as Kafka's do: an empty answer with throttle_time_ms, the
// connection muted for that long.
// Broker caps (startCluster fetchMaxBytes, maxRecordsPerFetch) act on whole
// batches; the first batch is served even when larger, as Kafka does.
// Differs from Kafka: fetch sessions are never created (session id 0 is
// always a valid answer, and clients then send full fetches); a partial
// trailing batch is never returned, only whole batches (v3+); the records
// cap is kafkaesque's own. Fetches are read as a consumer's (READ on each
// topic); a follower's CLUSTER_ACTION fetch is not modelled.
import { FetchApi, type FetchRequest, type FetchResponsePartitionData } from '../../protocol/messages/index.js';
import { ErrorCode, type ErrorName } from '../../protocol/errors.js';
import type { MessageInput } from '../../protocol/api-schema.js';
import { ByteChunks, Writer } from '../../protocol/primitives.js';
import type { Partition } from '../partition.js';
import type { RequestContext } from './handler.js';
import { defineHandler } from './handler.js';
import { FETCH_MAX_BYTES, leaderEndpoints } from './shared.js';
import { authorize } from './authorize.js';
import { quotaIdentity } from '../quotas/client-quota-manager.js';

const READ_COMMITTED = 1;

type PartitionData = MessageInput<FetchResponsePartitionData>;

interface Target {
  topic: string;
  topicId: string;
  index: number;
  partition: Partition | undefined;
  unknownError: ErrorName;
  /** READ on the topic refused (KafkaApis.handleFetchRequest): TOPIC_AUTHORIZATION_FAILED, before the topic is looked up. */
  denied: boolean;
  request: FetchRequest['topics'][number]['partitions'][number];
  /** The leader this node's metadata knows, when its lag made the answer (metadata-lag). */
  lag?: { leader: number; leaderEpoch: number };
}

function resolveTargets(req: FetchRequest, ctx: RequestContext): Target[] {
  const byId = ctx.apiVersion >= 13;
  const readable = new Map<string, boolean>();
  const mayRead = (name: string) => readable.get(name) ?? (readable.set(name, authorize(ctx, 'READ', 'TOPIC', name)), readable.get(name)!);
  return req.topics.flatMap((t) => {
    // By id: the ids this node's metadata has (metadata-lag); the partition read is the live one.
    const known = byId ? ctx.cluster.topicByIdOn(ctx, t.topicId) : undefined;
    const live = ctx.cluster.topic(byId ? (known?.name ?? '') : t.topic);
    const topic = byId ? known && { name: known.name, topicId: known.topicId, partitions: live?.topicId === known.topicId ? live.partitions : [] } : live;
    // An unknown topic id answers UNKNOWN_TOPIC_ID whoever asks; a name is authorized before it is looked up.
    const denied = byId ? !!topic && !mayRead(topic.name) : !mayRead(t.topic);
    return t.partitions.map((rp) => ({
      topic: topic?.name ?? t.topic,
      topicId: byId ? t.topicId : (topic?.topicId ?? t.topicId),
      index: rp.partition,
      partition: topic?.partitions[rp.partition],
      unknownError: (byId && !topic ? 'UNKNOWN_TOPIC_ID' : 'UNKNOWN_TOPIC_OR_PARTITION') as ErrorName,
      denied,
      request: rp,
    }));
  });
}

/** The error a partition answers with before any read, or null. */
function partitionError(t: Target, ctx: RequestContext): ErrorName | null {
  if (t.denied) return 'TOPIC_AUTHORIZATION_FAILED';
  if (t.unknownError === 'UNKNOWN_TOPIC_ID') return t.unknownError;
  // What this node's metadata has not caught up with (metadata-lag): ReplicaManager.getPartitionOrError on it.
  const lag = ctx.cluster.laggedPartition(ctx, t.topic, t.index);
  t.lag = lag ?? undefined;
  if (lag) return lag.error;
  const p = t.partition;
  if (!p) return t.unknownError;
  if (p.leader !== ctx.nodeId) return 'NOT_LEADER_OR_FOLLOWER';
  const epoch = t.request.currentLeaderEpoch;
  if (ctx.apiVersion >= 9 && epoch >= 0) {
    if (epoch < p.leaderEpoch) return 'FENCED_LEADER_EPOCH';
    if (epoch > p.leaderEpoch) return 'UNKNOWN_LEADER_EPOCH';
  }
  const offset = t.request.fetchOffset;
  if (offset < p.logStartOffset || offset > p.logEndOffset) return 'OFFSET_OUT_OF_RANGE';
  return null;
}

/** Errors KafkaApis answers before ReplicaManager reads (its `erroneous` partitions). */
function beforeRead(error: ErrorName | null): boolean {
  return error === null || error === 'UNKNOWN_TOPIC_OR_PARTITION' || error === 'UNKNOWN_TOPIC_ID' || error === 'TOPIC_AUTHORIZATION_FAILED';
}

function readBound(p: Partition, isolation: number): number {
  return isolation === READ_COMMITTED ? p.lastStableOffset : p.highWatermark;
}

// Served up to v17: v18 (the high watermark, KIP-1166) is in the codecs, not served yet.
export default defineHandler(FetchApi, async (req, ctx) => {
  const version = ctx.apiVersion;
  const isolation = version >= 4 ? req.isolationLevel : 0;
  const quota = ctx.cluster.quotas.fetch;
  const who = quotaIdentity(ctx.sasl.principal, ctx.clientId);
  // A consumer fetch never asks for more than its quota allows in one window (KafkaApis: getMaxValueInQuotaWindow).
  const budget = Math.min(version >= 3 ? req.maxBytes : 0x7fffffff, ctx.fetchLimits?.maxBytes ?? FETCH_MAX_BYTES, quota.maxValueInQuotaWindow(...who));
  const minBytes = Math.min(req.minBytes, budget);
  const targets = resolveTargets(req, ctx);

  if (version >= 7 && req.sessionEpoch > 0) {
    // We never hand out sessions, so an incremental fetch names one we do not know.
    return { errorCode: ErrorCode.FETCH_SESSION_ID_NOT_FOUND, sessionId: 0, responses: [] };
  }

  const available = (): { bytes: number; error: boolean } => {
    let bytes = 0;
    let error = false;
    for (const t of targets) {
      if (partitionError(t, ctx)) {
        error = true;
        continue;
      }
      const p = t.partition!;
      bytes += p.log.bytesBetween(t.request.fetchOffset, readBound(p, isolation), Math.min(t.request.partitionMaxBytes, budget));
    }
    return { bytes, error };
  };

  const first = available();
  if (!(req.maxWaitMs <= 0 || targets.length === 0 || first.error || first.bytes >= minBytes)) {
    await parkUntil(ctx, targets, req.maxWaitMs, () => {
      const a = available();
      return a.error || a.bytes >= minBytes;
    });
  }
  const response = read(req, ctx, targets, isolation, budget);
  if (!quota.enabled) return response;
  // KafkaApis: the answer's size counts against consumer_byte_rate; a
  // violation is answered with no data and the throttle time (the size taken
  // back), and the connection is muted for as long (KIP-219).
  const w = new Writer();
  FetchApi.writeResponse(w, response, version);
  const size = 4 + w.length;
  const throttleTimeMs = quota.recordAndGetThrottleTimeMs(...who, size);
  if (throttleTimeMs <= 0) return response;
  quota.unrecord(...who, size);
  ctx.throttle(throttleTimeMs);
  return { throttleTimeMs, errorCode: ErrorCode.NONE, sessionId: 0, responses: [], nodeEndpoints: [] };
}, { max: 17 });

/** Waits for any watched partition to change enough, or for the timeout. */
function parkUntil(ctx: RequestContext, targets: Target[], maxWaitMs: number, ready: () => boolean): Promise<void> {
  return new Promise((resolve) => {
    const unsubscribers: (() => void)[] = [];
    const done = () => {
      for (const u of unsubscribers) u();
      timer.cancel();
      resolve();
    };
    const timer = ctx.cluster.clock.setTimer(maxWaitMs, done);
    for (const t of targets) {
      if (t.partition) unsubscribers.push(t.partition.onChange(() => ready() && done()));
    }
  });
}

/** The aborted transactions a read_committed reader needs for the batches returned (LocalLog#collectAbortedTransactions). */
function abortedIn(p: Partition, fetchOffset: number, batches: readonly { lastOffset: number }[]) {
  if (batches.length === 0) return [];
  const upperBound = batches[batches.length - 1]!.lastOffset + 1;
  return p.producers.abortedBetween(fetchOffset, upperBound).map((a) => ({ producerId: a.producerId, firstOffset: a.firstOffset }));
}

/** The leading batches holding at most `left` records (by offset span); the first one regardless when minOne. */
function withinRecords<B extends { baseOffset: number; lastOffset: number }>(batches: B[], left: number, minOne: boolean): B[] {
  let n = 0;
  for (const b of batches) {
    const records = b.lastOffset - b.baseOffset + 1;
    if (records > left && !(n === 0 && minOne)) break;
    left -= records;
    n++;
  }
  return n === batches.length ? batches : batches.slice(0, n);
}

function read(req: FetchRequest, ctx: RequestContext, targets: Target[], isolation: number, budget: number) {
  const version = ctx.apiVersion;
  let remaining = budget;
  let recordsLeft = ctx.fetchLimits?.maxRecords ?? Infinity;
  let gotData = false;
  const notLeader: { leader: number }[] = [];
  const byTopic = new Map<string, { topic: string; topicId: string; partitions: PartitionData[] }>();
  for (const t of targets) {
    const key = version >= 13 ? t.topicId : t.topic;
    let entry = byTopic.get(key);
    if (!entry) byTopic.set(key, (entry = { topic: t.topic, topicId: t.topicId, partitions: [] }));
    const error = partitionError(t, ctx);
    const p = t.partition;
    if (error || !p) {
      const known = t.lag ?? p;
      if (error === 'NOT_LEADER_OR_FOLLOWER' && known) notLeader.push(known);
      const fenced = (error === 'NOT_LEADER_OR_FOLLOWER' || error === 'FENCED_LEADER_EPOCH') && known && version >= 12;
      entry.partitions.push({
        partitionIndex: t.index,
        errorCode: ErrorCode[error ?? 'UNKNOWN_TOPIC_OR_PARTITION'],
        highWatermark: -1,
        lastStableOffset: -1,
        logStartOffset: -1,
        currentLeader: fenced ? { leaderId: known.leader, leaderEpoch: known.leaderEpoch } : undefined,
        // Empty records either way. The errors KafkaApis#handleFetchRequest
        // finds before the read (unknown or unauthorized topic) answer with
        // FetchResponse#partitionResponse, whose aborted list is the
        // message's default, empty; a read error from ReplicaManager
        // (OFFSET_OUT_OF_RANGE, NOT_LEADER_OR_FOLLOWER, ...) carries none,
        // null. As a real 3.9.1 and 4.0.2 broker answer (test/conformance).
        abortedTransactions: beforeRead(error) ? [] : null,
        records: Buffer.alloc(0),
      });
      continue;
    }
    const limit = Math.min(t.request.partitionMaxBytes, remaining);
    const minOne = version >= 3 && !gotData;
    let batches = p.log.read(t.request.fetchOffset, readBound(p, isolation), limit, minOne);
    if (recordsLeft !== Infinity) batches = withinRecords(batches, recordsLeft, minOne);
    let records: Buffer | ByteChunks;
    if (batches.length === 0 && version < 3 && limit > 0) {
      // v0-2 have a hard limit and no minimum of one batch: an oversized first batch comes back cut.
      const next = p.log.read(t.request.fetchOffset, readBound(p, isolation), Infinity, true)[0];
      records = next ? next.bytes.subarray(0, limit) : Buffer.alloc(0);
      batches = [];
    } else {
      // The stored batches go out as they are: one field, never joined into a copy.
      records = batches.length === 1 ? batches[0]!.bytes : new ByteChunks(batches.map((b) => b.bytes));
    }
    if (records.length > 0) gotData = true;
    remaining -= records.length;
    for (const b of batches) recordsLeft -= b.lastOffset - b.baseOffset + 1;
    entry.partitions.push({
      partitionIndex: t.index,
      errorCode: ErrorCode.NONE,
      highWatermark: p.highWatermark,
      lastStableOffset: p.lastStableOffset,
      logStartOffset: p.logStartOffset,
      abortedTransactions: isolation === READ_COMMITTED ? abortedIn(p, t.request.fetchOffset, batches) : null,
      records,
    });
  }
  return {
    throttleTimeMs: 0,
    errorCode: ErrorCode.NONE,
    sessionId: 0,
    responses: [...byTopic.values()],
    nodeEndpoints: version >= 16 ? leaderEndpoints(ctx, notLeader) : [],
  };
}
