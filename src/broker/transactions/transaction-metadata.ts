// The state a transaction coordinator keeps per transactional id, with the
// states and transitions of Kafka's TransactionMetadata (kafka-semantics.md §5).

export type TransactionState =
  | 'Empty'
  | 'Ongoing'
  | 'PrepareCommit'
  | 'PrepareAbort'
  | 'CompleteCommit'
  | 'CompleteAbort'
  | 'Dead'
  | 'PrepareEpochFence';

/** Which states each state may be entered from (TransactionState.validPreviousStates). */
export const validPreviousStates: Readonly<Record<TransactionState, readonly TransactionState[]>> = {
  Empty: ['Empty', 'CompleteCommit', 'CompleteAbort'],
  Ongoing: ['Empty', 'Ongoing', 'CompleteCommit', 'CompleteAbort'],
  PrepareCommit: ['Ongoing'],
  // Transactions v2 (KIP-890 part 2) may abort with nothing open: an Empty or completed id goes straight to PrepareAbort.
  PrepareAbort: ['Ongoing', 'PrepareEpochFence', 'Empty', 'CompleteCommit', 'CompleteAbort'],
  CompleteCommit: ['PrepareCommit'],
  CompleteAbort: ['PrepareAbort'],
  Dead: ['Empty', 'CompleteCommit', 'CompleteAbort'],
  PrepareEpochFence: ['Ongoing'],
};

export const NO_PRODUCER_ID = -1;
export const NO_PRODUCER_EPOCH = -1;
/** Short.MaxValue - 1: an epoch this high is exhausted and the producer id rotates. */
export const MAX_PRODUCER_EPOCH = 32766;

export interface TopicPartition {
  topic: string;
  partition: number;
}

export interface TransactionMetadata {
  readonly transactionalId: string;
  producerId: number;
  /** The producer id before the last rotation, for recovery after epoch exhaustion. */
  lastProducerId: number;
  producerEpoch: number;
  /** The epoch before the last bump, so a retried InitProducerId gets the same answer. */
  lastProducerEpoch: number;
  txnTimeoutMs: number;
  state: TransactionState;
  /** A transition in flight (markers being written): requests meeting it get CONCURRENT_TRANSACTIONS. */
  pendingState: TransactionState | null;
  /** Partitions in the transaction, keyed "topic:partition". */
  readonly partitions: Map<string, TopicPartition>;
  txnStartTimestamp: number;
  txnLastUpdateTimestamp: number;
  /**
   * The transaction version the client last used with it (TransactionMetadata#clientTransactionVersion):
   * 2 once a Produce v12, TxnOffsetCommit v5 or EndTxn v5 (KIP-890 part 2) touched it, else 0.
   * Under 2 every EndTxn bumps the epoch, and the markers carry the bumped one.
   */
  clientTransactionVersion: number;
}

/** TransactionVersion#supportsEpochBump: transactions v2. */
export const TRANSACTION_VERSION_2 = 2;

export const partitionKey = (topic: string, partition: number) => `${topic}:${partition}`;

export function isEpochExhausted(epoch: number): boolean {
  return epoch >= MAX_PRODUCER_EPOCH;
}
