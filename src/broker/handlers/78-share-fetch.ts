// ShareFetch (78), v1-2: a share-group member's fetch (KIP-932), as Kafka
// 4.4's KafkaApis#handleShareFetchRequest and SharePartitionManager serve it.
// 1. The share session: epoch 0 opens one (no acknowledgements allowed),
//    -1 closes it after its acknowledgements (the member's acquired records
//    go back), any other epoch must be the session's next one; a later fetch
//    reads every partition of the session and answers only those with news.
// 2. Acknowledgements first, all or nothing per partition, so that records
//    released here can be acquired again by this same fetch.
// 3. Then the fetch: it waits up to MaxWaitMs for MinBytes from partitions
//    that can hand out records, woken by appends and by records becoming
//    available again (a release, a lock that ran out), never polled; the
//    share partitions acquire records for the member, and the answer carries
//    whole stored batches with the AcquiredRecords ranges that are the
//    member's (a client ignores the other records of those batches).
// Checks in KafkaApis' order: a group id (INVALID_REQUEST), READ on the group
// (GROUP_AUTHORIZATION_FAILED), a member id of 1 to 36 characters
// (INVALID_REQUEST); READ on each topic; a topic id this broker does not
// know is UNKNOWN_TOPIC_ID. The member need not be one of the group's:
// Kafka does not ask the group coordinator either.
// Differs from Kafka: partitions are read in session order (Kafka rotates
// them by session epoch); the byte budget is split evenly, with no random
// remainder.
import { ShareFetchApi, type ShareFetchRequest, type ShareFetchResponsePartitionData } from '../../protocol/messages/index.js';
import { ErrorCode, type ErrorName } from '../../protocol/errors.js';
import type { MessageInput } from '../../protocol/api-schema.js';
import { ByteChunks } from '../../protocol/primitives.js';
import type { Partition } from '../partition.js';
import type { Topic } from '../cluster.js';
import type { RequestContext } from './handler.js';
import { defineHandler } from './handler.js';
import { FETCH_MAX_BYTES, leaderEndpoints } from './shared.js';
import { authorize } from './authorize.js';
import { isShareMemberIdValid } from './share-shared.js';
import { acknowledgeAll, type AckResult } from './share-acknowledgements.js';
import { abortedBatches, type SharePartition } from '../share/share-partition.js';
import { FINAL_SHARE_SESSION_EPOCH, INITIAL_SHARE_SESSION_EPOCH, partitionKey, ShareSessionError, type ShareSession } from '../share/share-sessions.js';

/** ShareAcquireMode record_limit (v2): exactly MaxRecords, batches split (ShareAcquireMode#RECORD_LIMIT). */
const SHARE_ACQUIRE_MODE_RECORD_LIMIT = 1;

type PartitionData = MessageInput<ShareFetchResponsePartitionData>;

interface Target {
  topicId: string;
  partition: number;
  topic: Topic | undefined;
  p: Partition | undefined;
  error: ErrorName | null;
  sp?: SharePartition;
}

export default defineHandler(ShareFetchApi, async (req, ctx) => {
  const top = (error: ErrorName) => ({ throttleTimeMs: 0, errorCode: ErrorCode[error], errorMessage: null, acquisitionLockTimeoutMs: 0, responses: [], nodeEndpoints: [] });
  if (req.groupId === null) return top('INVALID_REQUEST');
  const groupId = req.groupId;
  if (!authorize(ctx, 'READ', 'GROUP', groupId)) return top('GROUP_AUTHORIZATION_FAILED');
  if (!isShareMemberIdValid(req.memberId)) return top('INVALID_REQUEST');
  const memberId = req.memberId;
  const renewOnly = ctx.apiVersion >= 2 && req.isRenewAck;
  if (renewOnly && (req.maxBytes !== 0 || req.minBytes !== 0 || req.maxRecords !== 0 || req.maxWaitMs !== 0)) return top('INVALID_REQUEST');
  const hasAcks = req.topics.some((t) => t.partitions.some((p) => p.acknowledgementBatches.length > 0));
  const shares = ctx.cluster.shares;

  // 1. The session (SharePartitionManager#newContext).
  let session: ShareSession;
  const epoch = req.shareSessionEpoch;
  try {
    if (epoch === INITIAL_SHARE_SESSION_EPOCH) {
      if (hasAcks) return top('INVALID_REQUEST');
      session = shares.sessionsOn(ctx.nodeId).open(groupId, memberId, ctx.connection.id);
      const opened = session;
      ctx.connection.onClose(() => shares.releaseSession(opened));
    } else {
      session = shares.sessionsOn(ctx.nodeId).advance(groupId, memberId, epoch);
    }
  } catch (e) {
    if (!(e instanceof ShareSessionError)) throw e;
    // SHARE_SESSION_LIMIT_REACHED is answered once MaxWaitMs has passed (SharePartitionManager#createIdleShareFetchTimerTask).
    if (e.error === 'SHARE_SESSION_LIMIT_REACHED') await new Promise<void>((resolve) => ctx.cluster.clock.setTimer(Math.max(0, req.maxWaitMs), resolve));
    return top(e.error);
  }
  const full = epoch === INITIAL_SHARE_SESSION_EPOCH;
  if (epoch !== FINAL_SHARE_SESSION_EPOCH) {
    for (const t of req.topics) for (const p of t.partitions) session.add(t.topicId, p.partitionIndex);
    if (!full) for (const f of req.forgottenTopicsData) for (const p of f.partitions) session.forget(f.topicId, p);
  }

  // 2. Acknowledgements, before anything is acquired.
  const acks = acknowledgeAll(ctx, groupId, memberId, req.topics, renewOnly);

  // 3. The fetch: the request's partitions on a new session, every session partition after.
  const fetchNothing = epoch === FINAL_SHARE_SESSION_EPOCH || renewOnly;
  const wanted = fetchNothing ? [] : full ? req.topics.flatMap((t) => t.partitions.map((p) => ({ topicId: t.topicId, partition: p.partitionIndex }))) : [...session.partitions.values()];
  const targets = wanted.map((w) => resolve(ctx, groupId, w.topicId, w.partition));
  const isolation = ctx.cluster.groupConfigs.share(groupId).isolationLevel;
  const bound = (p: Partition) => (isolation === 1 ? p.lastStableOffset : p.highWatermark);
  const maxBytes = Math.min(req.maxBytes, ctx.fetchLimits?.maxBytes ?? FETCH_MAX_BYTES);
  const minBytes = Math.min(req.minBytes, maxBytes);
  const acquirable = () => targets.filter((t) => t.sp && t.sp.canAcquireRecords());
  const ready = () => {
    if (targets.some((t) => t.error)) return true;
    let bytes = 0;
    for (const t of acquirable()) {
      const sp = t.sp!;
      const from = sp.nextFetchOffset();
      // Records back in the window count as there: they were read before.
      bytes += from <= sp.endOffset ? Math.max(1, minBytes) : t.p!.log.bytesBetween(Math.max(from, t.p!.logStartOffset), bound(t.p!), maxBytes);
      if (bytes >= minBytes && bytes > 0) return true;
    }
    return minBytes <= 0 && acquirable().length > 0;
  };
  const nothingToDo = targets.length === 0 || req.maxRecords <= 0 || maxBytes <= 0;
  if (!nothingToDo && req.maxWaitMs > 0 && !ready()) await parkUntil(ctx, groupId, targets, req.maxWaitMs, ready);

  const results = new Map<string, PartitionData>();
  const notLeader: Partition[] = [];
  if (!nothingToDo) {
    const live = acquirable();
    const perPartitionBytes = live.length > 0 ? Math.floor(maxBytes / live.length) : 0;
    let recordsLeft = req.maxRecords;
    for (const t of targets) {
      if (t.error) {
        if (t.error === 'NOT_LEADER_OR_FOLLOWER' && t.p) notLeader.push(t.p);
        results.set(partitionKey(t.topicId, t.partition), errorPartition(t));
        continue;
      }
      const sp = t.sp!;
      let acquired: ReturnType<SharePartition['acquire']> = { acquired: [], batches: [] };
      if (recordsLeft > 0 && live.includes(t)) {
        const from = sp.prepareFetch();
        const batches = t.p!.log.read(from, bound(t.p!), perPartitionBytes, true);
        acquired = sp.acquire(memberId, batches, recordsLeft, isolation === 1 ? (bs) => abortedBatches(t.p!, bs) : undefined, ctx.apiVersion >= 2 && req.shareAcquireMode === SHARE_ACQUIRE_MODE_RECORD_LIMIT);
        for (const a of acquired.acquired) recordsLeft -= a.lastOffset - a.firstOffset + 1;
      }
      results.set(partitionKey(t.topicId, t.partition), {
        partitionIndex: t.partition,
        errorCode: ErrorCode.NONE,
        errorMessage: null,
        acknowledgeErrorCode: ErrorCode.NONE,
        acknowledgeErrorMessage: null,
        currentLeader: { leaderId: 0, leaderEpoch: 0 },
        records: acquired.batches.length === 1 ? acquired.batches[0]!.bytes : acquired.batches.length === 0 ? Buffer.alloc(0) : new ByteChunks(acquired.batches.map((b) => b.bytes)),
        acquiredRecords: acquired.acquired,
      });
    }
  }

  // The answer: a new session answers every partition; a later one those with records, an error, or news.
  const byTopic = new Map<string, PartitionData[]>();
  const put = (topicId: string, data: PartitionData) => {
    let list = byTopic.get(topicId);
    if (!list) byTopic.set(topicId, (list = []));
    list.push(data);
  };
  for (const t of targets) {
    const key = partitionKey(t.topicId, t.partition);
    const data = results.get(key) ?? emptyPartition(t.partition);
    const ack = acks.get(key);
    if (ack) {
      data.acknowledgeErrorCode = ErrorCode[ack.error];
      data.acknowledgeErrorMessage = ack.message;
    }
    const cached = session.partitions.get(key);
    const news = full || data.errorCode !== ErrorCode.NONE || (data.acquiredRecords?.length ?? 0) > 0 || ack !== undefined || (cached?.reportPending ?? false);
    if (cached) cached.reportPending = data.errorCode !== ErrorCode.NONE;
    if (news) put(t.topicId, data);
  }
  // Acknowledgement results of partitions this answer has no entry for.
  for (const [key, ack] of acks) {
    if (targets.some((t) => partitionKey(t.topicId, t.partition) === key)) continue;
    const [topicId, partition] = splitKey(key);
    put(topicId, { ...emptyPartition(partition), acknowledgeErrorCode: ErrorCode[ack.error], acknowledgeErrorMessage: ack.message });
  }
  const response = {
    throttleTimeMs: 0,
    errorCode: ErrorCode.NONE,
    errorMessage: null,
    acquisitionLockTimeoutMs: ctx.cluster.groupConfigs.share(groupId).recordLockDurationMs,
    responses: [...byTopic].map(([topicId, partitions]) => ({ topicId, partitions })),
    nodeEndpoints: leaderEndpoints(ctx, notLeader),
  };
  // The final epoch: the session ends once its acknowledgements are in, and what the member still holds goes back.
  if (epoch === FINAL_SHARE_SESSION_EPOCH) shares.releaseSession(session);
  return response;
});

function splitKey(key: string): [string, number] {
  const i = key.lastIndexOf(':');
  return [key.slice(0, i), Number(key.slice(i + 1))];
}

/** A partition to fetch, with the error it answers before any read (KafkaApis#handleFetchFromShareFetchRequest), or its share partition. */
function resolve(ctx: RequestContext, groupId: string, topicId: string, partition: number): Target {
  const image = ctx.cluster.topicByIdOn(ctx, topicId);
  const topic = image ? ctx.cluster.topic(image.name) : undefined;
  const p = topic?.topicId === topicId ? topic.partitions[partition] : undefined;
  const t: Target = { topicId, partition, topic, p, error: null };
  if (!image || !topic || topic.topicId !== topicId) t.error = 'UNKNOWN_TOPIC_ID';
  else if (!authorize(ctx, 'READ', 'TOPIC', topic.name)) t.error = 'TOPIC_AUTHORIZATION_FAILED';
  else if (ctx.cluster.laggedPartition(ctx, topic.name, partition)) t.error = ctx.cluster.laggedPartition(ctx, topic.name, partition)!.error;
  else if (!p) t.error = 'UNKNOWN_TOPIC_OR_PARTITION';
  else if (p.leader !== ctx.nodeId) t.error = 'NOT_LEADER_OR_FOLLOWER';
  else t.sp = ctx.cluster.shares.getOrCreate(groupId, topic, p);
  return t;
}

function emptyPartition(partitionIndex: number): PartitionData {
  return {
    partitionIndex,
    errorCode: ErrorCode.NONE,
    errorMessage: null,
    acknowledgeErrorCode: ErrorCode.NONE,
    acknowledgeErrorMessage: null,
    currentLeader: { leaderId: 0, leaderEpoch: 0 },
    records: Buffer.alloc(0),
    acquiredRecords: [],
  };
}

function errorPartition(t: Target): PartitionData {
  const fenced = t.error === 'NOT_LEADER_OR_FOLLOWER' && t.p;
  return {
    ...emptyPartition(t.partition),
    errorCode: ErrorCode[t.error!],
    currentLeader: fenced ? { leaderId: t.p!.leader, leaderEpoch: t.p!.leaderEpoch } : { leaderId: 0, leaderEpoch: 0 },
  };
}

/** Waits until a watched partition has records to give, or for MaxWaitMs (DelayedShareFetch). */
function parkUntil(ctx: RequestContext, groupId: string, targets: Target[], maxWaitMs: number, ready: () => boolean): Promise<void> {
  return new Promise((resolve) => {
    const unsubscribers: (() => void)[] = [];
    const done = () => {
      for (const u of unsubscribers) u();
      timer.cancel();
      resolve();
    };
    const timer = ctx.cluster.clock.setTimer(maxWaitMs, done);
    const check = () => ready() && done();
    for (const t of targets) {
      if (!t.p) continue;
      unsubscribers.push(t.p.onChange(check));
      unsubscribers.push(ctx.cluster.shares.onAvailable(groupId, t.topicId, t.partition, check));
    }
  });
}

export type { AckResult, ShareFetchRequest };
