// Produce (0), v0-11. Appends each partition's batch on its leader
// (broker/append.ts), then answers at once (acks=1), after the high
// watermark covers the batch (acks=all), or never (acks=0, which closes the
// connection instead if any partition failed). producer_byte_rate quotas
// throttle as Kafka's do: throttle_time_ms in the answer, the connection muted.
// Authorization (KafkaApis.handleProduceRequest): transactional batches need
// WRITE on the transactional id (else every partition gets
// TRANSACTIONAL_ID_AUTHORIZATION_FAILED), each topic WRITE (else
// TOPIC_AUTHORIZATION_FAILED, before the topic is looked up).
// Differs from Kafka: magic 0/1 message sets (Produce v0-2 from pre-0.11
// clients) are refused with UNSUPPORTED_FOR_MESSAGE_FORMAT, not converted.
import { ProduceApi, type ProduceRequest, type ProduceResponsePartitionProduceResponse } from '../../protocol/messages/index.js';
import { RECORD_BATCH_OVERHEAD, isTransactional } from '../../protocol/record-batch.js';
import { ErrorCode, type ErrorName } from '../../protocol/errors.js';
import type { MessageInput } from '../../protocol/api-schema.js';
import { appendRecords, awaitReplication, replicationOutcome, type AppendOutcome } from '../append.js';
import type { Partition } from '../partition.js';
import type { Topic } from '../cluster.js';
import { CLOSE_CONNECTION, NO_RESPONSE, defineHandler, type RequestContext } from './handler.js';
import { authorize, authorizedNames } from './authorize.js';
import { leaderEndpoints } from './shared.js';
import { quotaIdentity } from '../quotas/client-quota-manager.js';

type PartitionAnswer = MessageInput<ProduceResponsePartitionProduceResponse>;

/** Errors known before the append get log_start_offset -1 (ReplicaManager); the others carry the real one. */
const BEFORE_APPEND = new Set<ErrorName>([
  'UNKNOWN_TOPIC_OR_PARTITION', 'NOT_LEADER_OR_FOLLOWER', 'MESSAGE_TOO_LARGE', 'RECORD_LIST_TOO_LARGE',
  'CORRUPT_MESSAGE', 'KAFKA_STORAGE_ERROR', 'INVALID_REQUIRED_ACKS', 'TOPIC_AUTHORIZATION_FAILED', 'TRANSACTIONAL_ID_AUTHORIZATION_FAILED',
]);

/**
 * Request-level producer checks (KafkaApis, ReplicaManager): transactional
 * batches need a transactional id, and may carry only one producer id.
 */
function requestLevelError(req: ProduceRequest, ctx: RequestContext): ErrorName | null {
  const transactionalPids = new Set<number>();
  for (const t of req.topicData) {
    for (const pd of t.partitionData) {
      const r = pd.records;
      if (!r || r.length < RECORD_BATCH_OVERHEAD || r.readInt8(16) !== 2) continue;
      // Only the attributes and producer id matter here: the append reads the full header later.
      if (isTransactional(r.readInt16BE(21))) transactionalPids.add(Number(r.readBigInt64BE(43)));
    }
  }
  if (transactionalPids.size === 0) return null;
  if (req.transactionalId === null || !authorize(ctx, 'WRITE', 'TRANSACTIONAL_ID', req.transactionalId)) return 'TRANSACTIONAL_ID_AUTHORIZATION_FAILED';
  if (transactionalPids.size > 1) return 'INVALID_PRODUCER_ID_MAPPING';
  return null;
}

/** An acks=all answer once replication is settled: anything but NONE replaces the append's outcome. */
function settle(a: PartitionAnswer, result: ErrorName): void {
  if (result === 'NONE') return;
  a.errorCode = ErrorCode[result];
  if (result === 'NOT_LEADER_OR_FOLLOWER') a.baseOffset = -1;
}

// Answers synchronously unless an acks=all append must wait for followers:
// no promise, no extra tick, for acks=0/1 and for replicas already in step.
// Served up to v12 (v12: transactions v2, KIP-890 part 2: a transactional batch adds its partition to the
// transaction itself, append.ts); v13 (topic ids) is in the codecs, not served yet.
export default defineHandler(ProduceApi, (req, ctx) => {
  const { cluster } = ctx;
  const version = ctx.apiVersion;
  const validAcks = req.acks === -1 || req.acks === 0 || req.acks === 1;
  const requestError = requestLevelError(req, ctx);
  const writable = authorizedNames(ctx, 'WRITE', 'TOPIC', req.topicData.map((t) => t.name));
  const waits: Promise<void>[] = [];
  const notLeader: { leader: number }[] = [];
  let anyError = false;

  const answer = (p: Partition | undefined, index: number, error: ErrorName, outcome?: AppendOutcome, leader: { leaderId: number; leaderEpoch: number } | undefined = p && { leaderId: p.leader, leaderEpoch: p.leaderEpoch }): PartitionAnswer => {
    if (error !== 'NONE') anyError = true;
    const ok = error === 'NONE';
    return {
      index,
      errorCode: ErrorCode[error],
      baseOffset: ok && outcome ? outcome.baseOffset : -1,
      logAppendTimeMs: ok && outcome ? outcome.logAppendTimeMs : -1,
      logStartOffset: p && (ok || !BEFORE_APPEND.has(error)) && (ok || outcome?.inAppend) ? p.logStartOffset : -1,
      errorMessage: version >= 8 ? (outcome?.errorMessage ?? null) : null,
      recordErrors: version >= 8 ? (outcome?.recordErrors ?? []) : [],
      currentLeader: error === 'NOT_LEADER_OR_FOLLOWER' ? leader : undefined,
    };
  };

  const responses = req.topicData.map((t) => {
    const topic: Topic | undefined = cluster.topic(t.name);
    return {
      name: t.name,
      partitionResponses: t.partitionData.map((pd) => {
        const p = topic?.partitions[pd.index];
        if (requestError) return answer(p, pd.index, requestError);
        if (!writable.has(t.name)) return answer(undefined, pd.index, 'TOPIC_AUTHORIZATION_FAILED');
        // What this node's metadata has not caught up with (metadata-lag), answered with the leader it knows.
        const lag = cluster.laggedPartition(ctx, t.name, pd.index);
        if (lag?.error === 'UNKNOWN_TOPIC_OR_PARTITION') return answer(undefined, pd.index, lag.error);
        if (lag) {
          notLeader.push(lag);
          return answer(undefined, pd.index, lag.error, undefined, { leaderId: lag.leader, leaderEpoch: lag.leaderEpoch });
        }
        if (!topic || !p) return answer(undefined, pd.index, 'UNKNOWN_TOPIC_OR_PARTITION');
        if (!validAcks) return answer(p, pd.index, 'INVALID_REQUIRED_ACKS');
        if (p.leader !== ctx.nodeId) {
          notLeader.push(p);
          return answer(p, pd.index, 'NOT_LEADER_OR_FOLLOWER');
        }
        const outcome = appendRecords(cluster, topic, p, { records: pd.records, produceVersion: version, acks: req.acks, clientId: ctx.clientId, transactionalId: req.transactionalId, correlationId: ctx.correlationId });
        const a = answer(p, pd.index, outcome.error, outcome);
        if (outcome.error === 'NONE' && req.acks === -1) {
          const settled = replicationOutcome(cluster, topic, p, outcome.lastOffset);
          if (settled) settle(a, settled);
          else waits.push(awaitReplication(cluster, topic, p, outcome.lastOffset, req.timeoutMs).then((result) => settle(a, result)));
        }
        return a;
      }),
    };
  });

  // KafkaApis: the request's size counts against producer_byte_rate once the
  // append is settled; a violation is answered at once with the throttle
  // time, and the connection is muted for as long (KIP-219), acks=0 too.
  const throttle = () => {
    const throttleTimeMs = cluster.quotas.produce.recordAndGetThrottleTimeMs(...quotaIdentity(ctx.sasl.principal, ctx.clientId), ctx.requestSize);
    if (throttleTimeMs > 0) ctx.throttle(throttleTimeMs);
    return throttleTimeMs;
  };
  if (req.acks === 0) {
    if (anyError) return CLOSE_CONNECTION;
    throttle();
    return NO_RESPONSE;
  }
  const response = () => ({
    responses,
    throttleTimeMs: throttle(),
    nodeEndpoints: version >= 10 ? leaderEndpoints(ctx, notLeader) : [],
  });
  return waits.length === 0 ? response() : Promise.all(waits).then(response);
}, { max: 12 });
