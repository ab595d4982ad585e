// Appending a Produce request's records to a partition leader, with the
// checks of Kafka's ReplicaManager, UnifiedLog and LogValidator in their
// order (see kafka-semantics.md §2). Only batch headers are read; the bytes
// are stored as sent, with the base offset and leader epoch written in.
import {
  Compression,
  compressionOf,
  readBatchHeader,
  setBaseOffset,
  setPartitionLeaderEpoch,
  splitBatches,
  updateCrc,
  validateBatchHeader,
  isTransactional,
  type RecordBatchHeader,
  verifyCrc,
  decodeRecords,
  TIMESTAMP_TYPE_MASK,
} from '../protocol/record-batch.js';
import type { ErrorName } from '../protocol/errors.js';
import type { Cluster, Topic } from './cluster.js';
import type { Partition } from './partition.js';
import { topicConfigValue } from './configs.js';
import type { IncomingBatch } from './producer-state.js';
import { TRANSACTION_VERSION_2 } from './transactions/transaction-metadata.js';

export interface AppendOutcome {
  error: ErrorName;
  errorMessage: string | null;
  baseOffset: number;
  /** Offset of the last appended record (for acks=all waits). */
  lastOffset: number;
  logAppendTimeMs: number;
  /** Whether the error was raised inside the log append (it decides log_start_offset in the answer). */
  inAppend: boolean;
  /** A retried batch that was already in the log: answered with its first offset, not appended again. */
  duplicate?: boolean;
  /** Produce v8+ record_errors: the records LogValidator refused, by index in the batch. */
  recordErrors?: RecordError[];
}

export interface RecordError {
  batchIndex: number;
  batchIndexErrorMessage: string | null;
}

const failed = (error: ErrorName, errorMessage: string | null = null, inAppend = false): AppendOutcome => ({
  error,
  errorMessage,
  baseOffset: -1,
  lastOffset: -1,
  logAppendTimeMs: -1,
  inAppend,
});

export interface AppendRequest {
  records: Buffer | null;
  produceVersion: number;
  acks: number;
  clientId: string | null;
  transactionalId?: string | null;
  /** For the 'records-appended' event (the delivery audit). */
  correlationId?: number;
}

export function appendRecords(cluster: Cluster, topic: Topic, p: Partition, req: AppendRequest): AppendOutcome {
  if (!req.records || req.records.length === 0) return failed('INVALID_RECORD', 'Produce requests with version 3 and above must have exactly one record batch per partition');
  const split = splitBatches(req.records);
  if (split.error === 'UNSUPPORTED_MAGIC') {
    // Produce v3+ must carry magic 2 (ProduceRequest.validateRecords); older
    // versions would need down-conversion, which kafkaesque does not do.
    return req.produceVersion >= 3
      ? failed('INVALID_RECORD', 'Produce requests with version 3 and above must have magic 2')
      : failed('UNSUPPORTED_FOR_MESSAGE_FORMAT', null);
  }
  if (split.error) return failed(split.error);
  if (req.produceVersion >= 3 && split.batches.length !== 1) {
    return failed('INVALID_RECORD', 'Produce requests with version 3 and above must have exactly one record batch per partition');
  }
  const headers = split.batches.map((b) => readBatchHeader(b));
  if (req.produceVersion < 7 && headers.some((h) => compressionOf(h.attributes) === Compression.Zstd)) {
    return failed('UNSUPPORTED_COMPRESSION_TYPE', null);
  }
  if (topic.internal && req.clientId !== '__admin_client') return failed('INVALID_TOPIC_EXCEPTION', `Cannot append to internal topic ${topic.name}`);
  if (req.acks === -1) {
    const required = Math.min(cluster.minInsyncReplicas(topic), p.replicas.length);
    if (p.isr.length < required) {
      return failed('NOT_ENOUGH_REPLICAS', `The size of the current ISR ${p.isr.length} is insufficient to satisfy the min.isr requirement of ${required} for partition ${topic.name}-${p.index}`);
    }
  }

  const maxMessageBytes = Number(topicConfigValue(topic.configs, 'max.message.bytes'));
  const logAppendTime = topicConfigValue(topic.configs, 'message.timestamp.type') === 'LogAppendTime';
  for (let i = 0; i < split.batches.length; i++) {
    const batch = split.batches[i]!;
    if (batch.length > maxMessageBytes) {
      // No error_message: ReplicaManager's LogAppendResult carries one only for
      // LogValidator's record errors (a real 4.0.2 answers null, test/conformance).
      return failed('MESSAGE_TOO_LARGE', null);
    }
    if (!verifyCrc(batch)) return failed('CORRUPT_MESSAGE', null);
    const invalid = validateBatchHeader(headers[i]!);
    if (invalid) return failed('INVALID_RECORD', invalid, true);
    if (!logAppendTime) {
      const recordErrors = timestampErrors(cluster, topic, batch, headers[i]!);
      if (recordErrors.length > 0) return { ...failed('INVALID_TIMESTAMP', 'One or more records have been rejected due to invalid timestamp', true), recordErrors };
    }
  }

  const now = cluster.clock.now();
  const producerBatches = headers.map((h) => (h.producerId >= 0 ? incomingOf(h) : null));
  for (const b of producerBatches) {
    if (!b) continue;
    const outcome = checkProducer(cluster, topic, p, b, req, now);
    if (outcome?.duplicate) cluster.emit('records-appended', { topic: topic.name, topicId: topic.topicId, partition: p.index, baseOffset: outcome.baseOffset, lastOffset: outcome.lastOffset, clientId: req.clientId, correlationId: req.correlationId ?? -1, duplicate: true, acks: req.acks });
    if (outcome) return outcome;
  }

  const first = p.logEndOffset;
  for (let i = 0; i < split.batches.length; i++) {
    const h = headers[i]!;
    // A view into the request frame: the connection hands over frames that
    // own their memory (server/connection.ts), so the log pins nothing else.
    const bytes = split.batches[i]!;
    const baseOffset = p.logEndOffset;
    setBaseOffset(bytes, baseOffset);
    setPartitionLeaderEpoch(bytes, p.leaderEpoch);
    let maxTimestamp = h.maxTimestamp;
    if (logAppendTime) {
      // LogAppendTime changes bytes under the CRC, so the broker recomputes it.
      bytes.writeInt16BE(h.attributes | TIMESTAMP_TYPE_MASK, 21);
      bytes.writeBigInt64BE(BigInt(now), 35);
      updateCrc(bytes);
      maxTimestamp = now;
    }
    p.log.append({ baseOffset, lastOffset: baseOffset + h.lastOffsetDelta, maxTimestamp, leaderEpoch: p.leaderEpoch, bytes });
    const producer = producerBatches[i];
    if (producer) p.producers.recordAppend(producer, baseOffset, maxTimestamp);
  }
  cluster.emit('records-appended', { topic: topic.name, topicId: topic.topicId, partition: p.index, baseOffset: first, lastOffset: p.logEndOffset - 1, clientId: req.clientId, correlationId: req.correlationId ?? -1, duplicate: false, acks: req.acks });
  cluster.replicate(p);
  p.updateHighWatermark();
  p.notify();
  return {
    error: 'NONE',
    errorMessage: null,
    baseOffset: first,
    lastOffset: p.logEndOffset - 1,
    logAppendTimeMs: logAppendTime ? now : -1,
    inAppend: false,
  };
}

/**
 * LogValidator#validateTimestamp on a CreateTime topic: a record stamped
 * before now - message.timestamp.before.max.ms or after now +
 * message.timestamp.after.max.ms is refused (KIP-937, 3.6+; 4.0's default
 * for after is one hour, KIP-1030), with Kafka's per-record message. The
 * bounds are longs (Long.MAX_VALUE by default), hence BigInt. Only the header
 * is read unless its max timestamp or the lower bound can fail.
 */
function timestampErrors(cluster: Cluster, topic: Topic, batch: Buffer, h: RecordBatchHeader): RecordError[] {
  const config = (name: string) => topic.configs.get(name) ?? cluster.topicConfigDefs.get(name)?.default;
  const [before, after] = [config('message.timestamp.before.max.ms'), config('message.timestamp.after.max.ms')];
  if (before === undefined || after === undefined) return []; // 2.8 has neither
  const now = BigInt(cluster.clock.now());
  const [lo, hi] = [now - BigInt(before), now + BigInt(after)];
  if (BigInt(h.maxTimestamp) <= hi && lo <= 0n) return [];
  return decodeRecords(batch).flatMap((r, i) => {
    const ts = BigInt(r.timestamp);
    if (ts === -1n || (ts >= lo && ts <= hi)) return [];
    return [{ batchIndex: i, batchIndexErrorMessage: `Timestamp ${ts} of message with offset ${i} is out of range. The timestamp should be within [${lo}, ${hi}]` }];
  });
}

function incomingOf(h: RecordBatchHeader): IncomingBatch {
  return { producerId: h.producerId, producerEpoch: h.producerEpoch, baseSequence: h.baseSequence, lastOffsetDelta: h.lastOffsetDelta, transactional: isTransactional(h.attributes) };
}

/**
 * The producer checks of UnifiedLog#analyzeAndValidateProducerState, in its
 * order: a duplicate of a cached batch is answered with its original offsets;
 * a transactional batch opening a transaction here is verified with the
 * coordinator (KIP-890); then epoch, sequence and transaction state.
 * Returns the outcome to answer with, or null to append.
 */
function checkProducer(cluster: Cluster, topic: Topic, p: Partition, b: IncomingBatch, req: AppendRequest, now: number): AppendOutcome | null {
  const dup = p.producers.findDuplicate(b);
  if (dup) {
    // Quirk kept from Kafka: log_append_time is the cached batch's max timestamp, even on CreateTime topics.
    return { error: 'NONE', errorMessage: null, baseOffset: dup.lastOffset - dup.offsetDelta, lastOffset: dup.lastOffset, logAppendTimeMs: dup.maxTimestamp, inAppend: false, duplicate: true };
  }
  // KIP-890 verification (3.6+); 2.x appends a batch for a partition never added, which then hangs its transaction.
  // From Produce v12 (transactions v2, KIP-890 part 2) the broker adds the partition itself
  // (AddPartitionsToTxnManager.produceRequestVersionToTransactionSupportedOperation: version > 11 is addPartition).
  if (b.transactional && cluster.profile.transactionVerification && !p.producers.hasOpenTransaction(b.producerId)) {
    const verdict =
      req.produceVersion >= 12
        ? cluster.transactions.addPartitions(req.transactionalId ?? '', b.producerId, b.producerEpoch, [{ topic: topic.name, partition: p.index }], TRANSACTION_VERSION_2)
        : cluster.transactions.verify(req.transactionalId ?? '', b.producerId, b.producerEpoch, topic.name, p.index);
    switch (verdict) {
      case 'NONE':
        break;
      case 'PRODUCER_FENCED':
        return failed('INVALID_PRODUCER_EPOCH', null);
      case 'INVALID_PRODUCER_ID_MAPPING':
        return failed('INVALID_PRODUCER_ID_MAPPING', null);
      case 'TRANSACTION_ABORTABLE':
        return req.produceVersion >= 11 ? failed('TRANSACTION_ABORTABLE', null) : failed('INVALID_TXN_STATE', 'Partition was not added to the transaction');
      default:
        return failed('NOT_ENOUGH_REPLICAS', null); // CONCURRENT_TRANSACTIONS and coordinator trouble
    }
  }
  const check = p.producers.check(b);
  // Kafka sends no error_message for these (only record validation and verification get one).
  return check.kind === 'error' ? failed(check.error, null, true) : null;
}

/**
 * acks=all, as things stand: the answer if it is known now (NONE once the
 * high watermark covers lastOffset), or null while followers still have to
 * catch up. Once the leadership has moved on from `leaderEpoch` (the one the
 * write was appended under), NOT_LEADER_OR_FOLLOWER, as Kafka's
 * DelayedProduce answers when its broker is no longer the leader: the new
 * leader may have truncated the records, and later writes may fill their offsets.
 */
export function replicationOutcome(cluster: Cluster, topic: Topic, p: Partition, lastOffset: number, leaderEpoch = p.leaderEpoch): ErrorName | null {
  if (p.leader < 0 || cluster.topic(topic.name) !== topic || p.leaderEpoch !== leaderEpoch) return 'NOT_LEADER_OR_FOLLOWER';
  if (p.highWatermark <= lastOffset) return null;
  const required = Math.min(cluster.minInsyncReplicas(topic), p.replicas.length);
  return p.isr.length < required ? 'NOT_ENOUGH_REPLICAS_AFTER_APPEND' : 'NONE';
}

/**
 * acks=all: resolves once the high watermark covers lastOffset, or with
 * REQUEST_TIMED_OUT after timeoutMs (the data stays, as in Kafka), or with
 * NOT_ENOUGH_REPLICAS_AFTER_APPEND when the ISR shrank below min.insync.replicas.
 */
export function awaitReplication(cluster: Cluster, topic: Topic, p: Partition, lastOffset: number, timeoutMs: number): Promise<ErrorName> {
  // The leadership the write was appended under: a move ends the wait (the new leader may lack the records).
  const leaderEpoch = p.leaderEpoch;
  const check = () => replicationOutcome(cluster, topic, p, lastOffset, leaderEpoch);
  const now = check();
  if (now) return Promise.resolve(now);
  return new Promise((resolve) => {
    const done = (result: ErrorName) => {
      unsubscribe();
      timer.cancel();
      resolve(result);
    };
    const unsubscribe = p.onChange(() => {
      const r = check();
      if (r) done(r);
    });
    const timer = cluster.clock.setTimer(timeoutMs, () => done('REQUEST_TIMED_OUT'));
  });
}
