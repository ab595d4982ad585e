// The transaction coordinator: producer ids, transactional ids and their
// state machine, as Kafka's TransactionCoordinator and TransactionMetadata
// decide (kafka-semantics.md §1 and §5, rule by rule). One instance serves the
// whole cluster; which node may answer for a transactional id is decided by
// coordinators.ts (the leader of its __transaction_state partition).
//
// Transactions v2 (KIP-890 part 2, transaction.version 2 on the 4.x
// profiles): a Produce v12 or TxnOffsetCommit v5 adds its partition to the
// transaction itself, and every EndTxn v5 bumps the epoch, writes the markers
// with the bumped one (so a late write of the old epoch is fenced at the
// partition: no hanging transaction) and answers it; an abort with nothing
// open is allowed and bumps the epoch too.
//
// Differs from Kafka: the transaction log is not written, so a transition's
// pending state lasts only while markers cannot be written (a partition
// without a leader); timeouts fire at the deadline itself rather than on the
// next 10 s scan; transactional.id.expiration.ms is not enforced.
import { EventEmitter } from 'node:events';
import type { ErrorName } from '../../protocol/errors.js';
import type { Cluster } from '../cluster.js';
import type { Timer } from '../clock.js';
import { appendEndTxnMarker, type EndTxnMarker } from '../end-txn-marker.js';
import type { Partition } from '../partition.js';
import { isControlBatch, readBatchHeader } from '../../protocol/record-batch.js';
import { GROUP_KEY_TYPE, TRANSACTION_STATE_TOPIC, ensureCoordinatorTopic, partitionFor, coordinatorTopic } from '../coordinators.js';
import {
  NO_PRODUCER_EPOCH,
  NO_PRODUCER_ID,
  MAX_PRODUCER_EPOCH,
  TRANSACTION_VERSION_2,
  isEpochExhausted,
  partitionKey,
  validPreviousStates,
  type TopicPartition,
  type TransactionMetadata,
  type TransactionState,
} from './transaction-metadata.js';

export interface TransactionConfig {
  /** transaction.max.timeout.ms */
  transactionMaxTimeoutMs: number;
}

export const defaultTransactionConfig: Readonly<TransactionConfig> = Object.freeze({ transactionMaxTimeoutMs: 900_000 });

export interface InitProducerIdResult {
  error: ErrorName;
  producerId: number;
  producerEpoch: number;
}

/** EndTxn's answer: v5 also carries the producer id and epoch to use next (-1 on an error). */
export interface EndTxnResult {
  error: ErrorName;
  producerId: number;
  producerEpoch: number;
}

export interface TransactionEvents {
  /** A transaction finished: its markers are written everywhere. */
  completed: [txn: { transactionalId: string; producerId: number; producerEpoch: number; commit: boolean; partitions: TopicPartition[] }];
  /** The coordinator aborted a transaction on its own (timeout) or fenced it (a new InitProducerId). */
  aborted: [txn: { transactionalId: string; producerId: number; producerEpoch: number; reason: 'timeout' | 'fenced' }];
}

/** Whether the batch at `offset` is still a control batch of the producer (not truncated away, nor replaced). */
function markerAt(p: Partition, offset: number, producerId: number): boolean {
  if (p.logEndOffset <= offset) return false;
  const b = p.log.batchesFrom(offset)[0];
  if (!b || b.baseOffset !== offset) return false;
  const h = readBatchHeader(b.bytes);
  return isControlBatch(h.attributes) && h.producerId === producerId;
}

const fail = (error: ErrorName): InitProducerIdResult => ({ error, producerId: NO_PRODUCER_ID, producerEpoch: NO_PRODUCER_EPOCH });

export class TransactionCoordinator extends EventEmitter<TransactionEvents> {
  private readonly txns = new Map<string, TransactionMetadata>();
  private readonly timers = new Map<string, Timer>();
  /** Markers waiting for a partition leader, by transactional id. */
  private readonly blocked = new Set<string>();
  private nextProducerId = 0;
  readonly config: TransactionConfig;

  constructor(
    private readonly cluster: Cluster,
    config: Partial<TransactionConfig> = {},
  ) {
    super();
    this.config = { ...defaultTransactionConfig, ...config };
    cluster.on('leader-changed', (change) => {
      if (change.truncatedFrom !== null) this.rewriteTruncatedMarkers(change.topic, change.partition);
      this.retryBlockedMarkers();
    });
  }

  /** A fresh producer id from the cluster-wide allocator. */
  allocateProducerId(): number {
    return this.nextProducerId++;
  }

  get(transactionalId: string): TransactionMetadata | undefined {
    return this.txns.get(transactionalId);
  }

  all(): TransactionMetadata[] {
    return [...this.txns.values()];
  }

  // ---------- InitProducerId ----------

  initProducerId(transactionalId: string | null, txnTimeoutMs: number, expectedProducerId: number, expectedEpoch: number): InitProducerIdResult {
    if ((expectedProducerId === NO_PRODUCER_ID) !== (expectedEpoch === NO_PRODUCER_EPOCH)) return fail('INVALID_REQUEST');
    // Idempotent producers: a new id every time, epoch 0.
    if (transactionalId === null) return { error: 'NONE', producerId: this.allocateProducerId(), producerEpoch: 0 };
    if (transactionalId === '') return fail('INVALID_REQUEST');
    if (txnTimeoutMs <= 0 || txnTimeoutMs > this.config.transactionMaxTimeoutMs) return fail('INVALID_TRANSACTION_TIMEOUT');

    let txn = this.txns.get(transactionalId);
    if (!txn) {
      txn = {
        transactionalId,
        producerId: this.allocateProducerId(),
        lastProducerId: NO_PRODUCER_ID,
        producerEpoch: NO_PRODUCER_EPOCH,
        lastProducerEpoch: NO_PRODUCER_EPOCH,
        txnTimeoutMs,
        state: 'Empty',
        pendingState: null,
        partitions: new Map(),
        txnStartTimestamp: -1,
        txnLastUpdateTimestamp: this.cluster.clock.now(),
        clientTransactionVersion: 0,
      };
      this.txns.set(transactionalId, txn);
    }
    if (txn.pendingState) return fail('CONCURRENT_TRANSACTIONS');

    const recovering = expectedProducerId !== NO_PRODUCER_ID;
    if (recovering) {
      const acceptable =
        txn.producerEpoch === NO_PRODUCER_EPOCH ||
        expectedProducerId === txn.producerId ||
        (expectedProducerId === txn.lastProducerId && isEpochExhausted(txn.producerEpoch));
      if (!acceptable) return fail('PRODUCER_FENCED');
    }

    switch (txn.state) {
      case 'PrepareCommit':
      case 'PrepareAbort':
        return fail('CONCURRENT_TRANSACTIONS');
      case 'Ongoing':
        // A new instance fences the old one: bump the epoch (never handed out)
        // and abort what it left open; the client retries after the abort.
        this.fenceAndAbort(txn, 'fenced');
        return fail('CONCURRENT_TRANSACTIONS');
      case 'Dead':
      case 'PrepareEpochFence':
        return fail('CONCURRENT_TRANSACTIONS');
      default:
        break;
    }

    // Empty, CompleteCommit or CompleteAbort.
    if (isEpochExhausted(txn.producerEpoch) && (!recovering || expectedEpoch === txn.producerEpoch)) {
      txn.lastProducerId = txn.producerId;
      txn.lastProducerEpoch = recovering ? txn.producerEpoch : NO_PRODUCER_EPOCH;
      txn.producerId = this.allocateProducerId();
      txn.producerEpoch = 0;
    } else if (!recovering) {
      txn.producerEpoch += 1;
      txn.lastProducerEpoch = NO_PRODUCER_EPOCH;
    } else if (txn.producerEpoch === NO_PRODUCER_EPOCH || expectedEpoch === txn.producerEpoch) {
      txn.lastProducerEpoch = txn.producerEpoch;
      txn.producerEpoch += 1;
    } else if (expectedEpoch !== txn.lastProducerEpoch) {
      // expected == lastProducerEpoch is a retry of a bump that succeeded: answer it again.
      return fail('PRODUCER_FENCED');
    }
    txn.txnTimeoutMs = txnTimeoutMs;
    this.transition(txn, 'Empty');
    txn.partitions.clear();
    return { error: 'NONE', producerId: txn.producerId, producerEpoch: txn.producerEpoch };
  }

  // ---------- AddPartitionsToTxn / AddOffsetsToTxn ----------

  /** The checks every transactional call by a producer makes first (pid mapping, epoch, pending). */
  private checkProducer(transactionalId: string, producerId: number, producerEpoch: number): { error: ErrorName; txn?: TransactionMetadata } {
    if (transactionalId === '') return { error: 'INVALID_REQUEST' };
    const txn = this.txns.get(transactionalId);
    if (!txn || txn.producerId !== producerId) return { error: 'INVALID_PRODUCER_ID_MAPPING' };
    if (txn.producerEpoch !== producerEpoch) return { error: 'PRODUCER_FENCED' };
    if (txn.pendingState) return { error: 'CONCURRENT_TRANSACTIONS' };
    return { error: 'NONE', txn };
  }

  /**
   * Adds partitions to the producer's transaction (one verdict for all of
   * them). `transactionVersion` 2 is the broker adding them for a Produce v12
   * or TxnOffsetCommit v5 (prepareAddPartitions records it on the transaction).
   */
  addPartitions(transactionalId: string, producerId: number, producerEpoch: number, partitions: readonly TopicPartition[], transactionVersion = 0): ErrorName {
    const { error, txn } = this.checkProducer(transactionalId, producerId, producerEpoch);
    if (!txn) return error;
    if (txn.state === 'PrepareCommit' || txn.state === 'PrepareAbort') return 'CONCURRENT_TRANSACTIONS';
    if (txn.state === 'Ongoing' && partitions.every((p) => txn.partitions.has(partitionKey(p.topic, p.partition)))) return 'NONE';
    if (txn.state !== 'Ongoing') {
      txn.txnStartTimestamp = this.cluster.clock.now();
      this.armTimeout(txn);
    }
    for (const p of partitions) txn.partitions.set(partitionKey(p.topic, p.partition), { topic: p.topic, partition: p.partition });
    txn.clientTransactionVersion = transactionVersion;
    this.transition(txn, 'Ongoing');
    return 'NONE';
  }

  /** AddOffsetsToTxn (or, with transaction version 2, TxnOffsetCommit v5 itself): the group's __consumer_offsets partition joins the transaction. */
  addOffsets(transactionalId: string, producerId: number, producerEpoch: number, groupId: string, transactionVersion = 0): ErrorName {
    ensureCoordinatorTopic(this.cluster, GROUP_KEY_TYPE);
    return this.addPartitions(transactionalId, producerId, producerEpoch, [{ topic: coordinatorTopic(GROUP_KEY_TYPE), partition: partitionFor(groupId) }], transactionVersion);
  }

  /** Whether a partition is in the producer's open transaction (TxnOffsetCommit and produce verification). */
  verify(transactionalId: string, producerId: number, producerEpoch: number, topic: string, partition: number): ErrorName {
    const txn = this.txns.get(transactionalId);
    if (!txn || txn.producerId !== producerId) return 'INVALID_PRODUCER_ID_MAPPING';
    if (txn.producerEpoch !== producerEpoch) return 'PRODUCER_FENCED';
    if (txn.pendingState || txn.state === 'PrepareCommit' || txn.state === 'PrepareAbort') return 'CONCURRENT_TRANSACTIONS';
    if (txn.state !== 'Ongoing' || !txn.partitions.has(partitionKey(topic, partition))) return 'TRANSACTION_ABORTABLE';
    return 'NONE';
  }

  // ---------- EndTxn ----------

  /** EndTxn: v0-4 as endTransactionWithTV1, v5 (transaction version 2) as endTransaction. */
  endTxn(transactionalId: string, producerId: number, producerEpoch: number, commit: boolean, transactionVersion = 0): EndTxnResult {
    if (transactionVersion >= TRANSACTION_VERSION_2) return this.endTxnV2(transactionalId, producerId, producerEpoch, commit);
    const error = this.endTxnV1(transactionalId, producerId, producerEpoch, commit);
    const txn = this.txns.get(transactionalId);
    return error === 'NONE' && txn ? { error, producerId: txn.producerId, producerEpoch: txn.producerEpoch } : { error, producerId: NO_PRODUCER_ID, producerEpoch: NO_PRODUCER_EPOCH };
  }

  private endTxnV1(transactionalId: string, producerId: number, producerEpoch: number, commit: boolean): ErrorName {
    const { error, txn } = this.checkProducer(transactionalId, producerId, producerEpoch);
    if (!txn) return error;
    switch (txn.state) {
      case 'Ongoing':
        this.complete(txn, commit, 0);
        return 'NONE';
      case 'PrepareCommit':
        return commit ? 'CONCURRENT_TRANSACTIONS' : 'INVALID_TXN_STATE';
      case 'PrepareAbort':
        return commit ? 'INVALID_TXN_STATE' : 'CONCURRENT_TRANSACTIONS';
      case 'CompleteCommit':
        return commit ? 'NONE' : 'INVALID_TXN_STATE';
      case 'CompleteAbort':
        return commit ? 'INVALID_TXN_STATE' : 'NONE';
      default:
        return 'INVALID_TXN_STATE';
    }
  }

  /**
   * TransactionCoordinator#endTransaction under transaction version 2. A
   * retry carries the epoch before the bump (retryOnEpochBump), or the old
   * producer id's last epoch after a rotation (retryOnOverflow). In short, for
   * a completed or Empty id (Kafka's table): an abort at the current epoch
   * bumps it (an empty transaction), a retry of the same result is NONE, the
   * other result INVALID_TXN_STATE, and an Empty id cannot commit.
   */
  private endTxnV2(transactionalId: string, producerId: number, producerEpoch: number, commit: boolean): EndTxnResult {
    const failed = (error: ErrorName): EndTxnResult => ({ error, producerId: NO_PRODUCER_ID, producerEpoch: NO_PRODUCER_EPOCH });
    if (transactionalId === '') return failed('INVALID_REQUEST');
    const txn = this.txns.get(transactionalId);
    if (!txn) return failed('INVALID_PRODUCER_ID_MAPPING');
    const retryOnOverflow = txn.lastProducerId === producerId && producerEpoch === MAX_PRODUCER_EPOCH && txn.producerEpoch === 0;
    const retryOnEpochBump = txn.producerEpoch === producerEpoch + 1;
    const isRetry = retryOnEpochBump || retryOnOverflow;
    let validEpoch: boolean;
    switch (txn.state) {
      case 'PrepareCommit':
      case 'PrepareAbort':
        validEpoch = retryOnEpochBump;
        break;
      case 'CompleteCommit':
      case 'CompleteAbort':
        validEpoch = isRetry || producerEpoch === txn.producerEpoch;
        break;
      default:
        validEpoch = producerEpoch === txn.producerEpoch;
    }
    if (txn.producerId !== producerId && !retryOnOverflow) return failed('INVALID_PRODUCER_ID_MAPPING');
    if (!validEpoch) return failed('PRODUCER_FENCED');
    if (txn.pendingState) return failed('CONCURRENT_TRANSACTIONS');
    const current: EndTxnResult = { error: 'NONE', producerId: txn.producerId, producerEpoch: txn.producerEpoch };
    const bump = (asCommit: boolean): EndTxnResult => {
      this.complete(txn, asCommit, TRANSACTION_VERSION_2);
      return { error: 'NONE', producerId: txn.producerId, producerEpoch: txn.producerEpoch };
    };
    switch (txn.state) {
      case 'Ongoing':
        return bump(commit);
      case 'CompleteCommit':
        if (commit) return isRetry ? current : failed('INVALID_TXN_STATE');
        return isRetry ? failed('INVALID_TXN_STATE') : bump(false);
      case 'CompleteAbort':
        if (commit) return failed('INVALID_TXN_STATE');
        return isRetry ? current : bump(false);
      case 'PrepareCommit':
        return failed(commit ? 'CONCURRENT_TRANSACTIONS' : 'INVALID_TXN_STATE');
      case 'PrepareAbort':
        return failed(commit ? 'INVALID_TXN_STATE' : 'CONCURRENT_TRANSACTIONS');
      case 'Empty':
        return commit ? failed('INVALID_TXN_STATE') : bump(false);
      default:
        return failed('INVALID_TXN_STATE');
    }
  }

  // ---------- fencing and timeouts ----------

  /**
   * What a new instance with the same transactional id does to the old one:
   * bump the epoch as its InitProducerId would, aborting an open transaction.
   * The chaos layer's `fence` calls this.
   */
  fence(transactionalId: string): ErrorName {
    const txn = this.txns.get(transactionalId);
    if (!txn) return 'TRANSACTIONAL_ID_NOT_FOUND';
    if (txn.pendingState) return 'CONCURRENT_TRANSACTIONS';
    if (txn.state === 'Ongoing') {
      this.fenceAndAbort(txn, 'fenced');
      return 'NONE';
    }
    txn.lastProducerEpoch = NO_PRODUCER_EPOCH;
    txn.producerEpoch += 1;
    return 'NONE';
  }

  /**
   * prepareFenceProducerEpoch, then the abort. Under transaction version 2 the
   * abort bumps the epoch once more (prepareAbortOrCommit), so the markers
   * carry the fenced epoch + 1: a timeout uses the cluster's version (Kafka:
   * "not from client, use server TV"), a fence the transaction's own.
   */
  private fenceAndAbort(txn: TransactionMetadata, reason: 'timeout' | 'fenced'): void {
    txn.producerEpoch += 1;
    txn.lastProducerEpoch = NO_PRODUCER_EPOCH;
    this.cluster.log.info({ transactionalId: txn.transactionalId, producerId: txn.producerId, epoch: txn.producerEpoch, reason }, 'transaction aborted by the coordinator');
    this.emit('aborted', { transactionalId: txn.transactionalId, producerId: txn.producerId, producerEpoch: txn.producerEpoch, reason });
    this.complete(txn, false, reason === 'timeout' ? this.serverTransactionVersion() : txn.clientTransactionVersion);
  }

  /** The cluster's finalized transaction.version (TransactionStateManager#transactionVersionLevel). */
  private serverTransactionVersion(): number {
    return this.cluster.profile.features.finalized.find(([name]) => name === 'transaction.version')?.[1] ?? 0;
  }

  private armTimeout(txn: TransactionMetadata): void {
    this.timers.get(txn.transactionalId)?.cancel();
    const started = txn.txnStartTimestamp;
    const timer = this.cluster.clock.setTimer(txn.txnTimeoutMs, () => {
      this.timers.delete(txn.transactionalId);
      // Still the same open transaction, with nothing in flight: abort it.
      if (txn.state === 'Ongoing' && txn.txnStartTimestamp === started && !txn.pendingState) this.fenceAndAbort(txn, 'timeout');
    });
    this.timers.set(txn.transactionalId, timer);
  }

  // ---------- markers ----------

  /**
   * Prepare{Commit,Abort}, then markers to every partition, then
   * Complete{Commit,Abort}. Under transaction version 2 the epoch is bumped
   * first (prepareAbortOrCommit) and the markers carry the new one; an
   * exhausted epoch moves to a new producer id once complete (prepareComplete).
   */
  private complete(txn: TransactionMetadata, commit: boolean, transactionVersion: number): void {
    this.timers.get(txn.transactionalId)?.cancel();
    this.timers.delete(txn.transactionalId);
    if (transactionVersion >= TRANSACTION_VERSION_2) {
      if (isEpochExhausted(txn.producerEpoch)) this.nextProducerIds.set(txn.transactionalId, this.allocateProducerId());
      txn.lastProducerEpoch = txn.producerEpoch;
      txn.producerEpoch += 1;
      // An abort with nothing added: the start time is the abort's (noPartitionAdded).
      if (txn.state !== 'Ongoing') txn.txnStartTimestamp = this.cluster.clock.now();
    }
    txn.clientTransactionVersion = transactionVersion;
    this.transition(txn, commit ? 'PrepareCommit' : 'PrepareAbort');
    txn.pendingState = commit ? 'CompleteCommit' : 'CompleteAbort';
    this.markedPartitions.set(txn.transactionalId, [...txn.partitions.values()]);
    this.writeMarkers(txn);
  }

  private writeMarkers(txn: TransactionMetadata): void {
    const commit = txn.pendingState === 'CompleteCommit';
    const coordinatorEpoch = this.coordinatorEpoch(txn.transactionalId);
    for (const [key, tp] of [...txn.partitions]) {
      const p = this.cluster.partition(tp.topic, tp.partition);
      if (!p) {
        txn.partitions.delete(key); // deleted topic: nothing to mark
        continue;
      }
      if (p.leader < 0) continue; // retried when a leader is elected
      const offset = p.logEndOffset;
      const marker: EndTxnMarker = { producerId: txn.producerId, producerEpoch: txn.producerEpoch, coordinatorEpoch, commit, transactionVersion: txn.clientTransactionVersion };
      const error = appendEndTxnMarker(this.cluster, p, marker);
      txn.partitions.delete(key);
      if (error !== 'NONE') this.cluster.log.warn({ transactionalId: txn.transactionalId, ...tp, error }, 'transaction marker refused');
      else if (p.highWatermark <= offset) this.unreplicated.set(key, [...this.stillUnreplicated(key, p), { offset, marker }]);
    }
    if (txn.partitions.size > 0) {
      this.blocked.add(txn.transactionalId);
      return;
    }
    this.blocked.delete(txn.transactionalId);
    this.finish(txn, commit);
  }

  /**
   * A marker the partition's followers do not have yet: kept until the high
   * watermark covers it, so that a leader move that truncates it away (the
   * new leader lacked the tail) gets it written again to the new leader, as
   * Kafka's TransactionMarkerChannelManager retries a WriteTxnMarkers that
   * met NOT_LEADER_OR_FOLLOWER. (Kafka also holds the transaction in Prepare*
   * until then; here it completes at once, as the rest of this coordinator's
   * timing does.)
   */
  private rewriteTruncatedMarkers(topic: string, partition: number): void {
    const key = partitionKey(topic, partition);
    const p = this.cluster.partition(topic, partition);
    const waiting = p ? this.stillUnreplicated(key, p) : [];
    for (const m of p && p.leader >= 0 ? waiting : []) {
      if (markerAt(p!, m.offset, m.marker.producerId)) continue;
      m.offset = p!.logEndOffset;
      const error = appendEndTxnMarker(this.cluster, p!, m.marker);
      this.cluster.log.info({ topic, partition, producerId: m.marker.producerId, error }, 'transaction marker truncated by a leader move: written again');
    }
    if (p) this.stillUnreplicated(key, p);
    else this.unreplicated.delete(key);
  }

  /** The partition's markers its high watermark does not cover yet (the others are forgotten). */
  private stillUnreplicated(key: string, p: Partition): { offset: number; marker: EndTxnMarker }[] {
    const still = (this.unreplicated.get(key) ?? []).filter((m) => p.highWatermark <= m.offset);
    if (still.length) this.unreplicated.set(key, still);
    else this.unreplicated.delete(key);
    return still;
  }

  /** Every marker written and replicated: the offsets follow the outcome, and the transaction is Complete*. */
  private finish(txn: TransactionMetadata, commit: boolean): void {
    const partitions = this.markedPartitions.get(txn.transactionalId) ?? [];
    this.markedPartitions.delete(txn.transactionalId);
    this.cluster.groups.completePendingTxnOffsets(txn.producerId, commit);
    txn.pendingState = null;
    this.transition(txn, commit ? 'CompleteCommit' : 'CompleteAbort');
    const markedEpoch = txn.producerEpoch;
    const markedProducerId = txn.producerId;
    const next = this.nextProducerIds.get(txn.transactionalId);
    if (next !== undefined) {
      this.nextProducerIds.delete(txn.transactionalId);
      txn.lastProducerId = txn.producerId;
      txn.producerId = next;
      txn.producerEpoch = 0;
    }
    this.emit('completed', { transactionalId: txn.transactionalId, producerId: markedProducerId, producerEpoch: markedEpoch, commit, partitions });
  }

  private readonly markedPartitions = new Map<string, TopicPartition[]>();
  /** Markers written but not yet replicated, by "topic:partition". */
  private readonly unreplicated = new Map<string, { offset: number; marker: EndTxnMarker }[]>();
  /** Transactions v2 with an exhausted epoch: the producer id they move to once complete. */
  private readonly nextProducerIds = new Map<string, number>();

  private retryBlockedMarkers(): void {
    for (const id of [...this.blocked]) {
      const txn = this.txns.get(id);
      if (txn) this.writeMarkers(txn);
    }
  }

  /** The leader epoch of the transactional id's __transaction_state partition (0 when it has none yet). */
  private coordinatorEpoch(transactionalId: string): number {
    return this.cluster.partition(TRANSACTION_STATE_TOPIC, partitionFor(transactionalId))?.leaderEpoch ?? 0;
  }

  private transition(txn: TransactionMetadata, to: TransactionState): void {
    if (!validPreviousStates[to].includes(txn.state)) {
      throw new Error(`transaction ${txn.transactionalId}: illegal transition ${txn.state} -> ${to}`);
    }
    txn.state = to;
    txn.txnLastUpdateTimestamp = this.cluster.clock.now();
  }

  shutdown(): void {
    for (const t of this.timers.values()) t.cancel();
    this.timers.clear();
  }

  /** Forgets every transactional id (the control API's reset); the producer id allocator keeps counting. Returns how many there were. */
  reset(): number {
    const count = this.txns.size;
    this.shutdown();
    this.txns.clear();
    this.blocked.clear();
    this.markedPartitions.clear();
    this.nextProducerIds.clear();
    this.unreplicated.clear();
    return count;
  }
}
