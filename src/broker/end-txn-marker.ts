// Writing a transaction marker (a COMMIT or ABORT control batch) into a
// partition, as the coordinator's WriteTxnMarkers does: checked against the
// producer's epoch and coordinator epoch, never its sequences; it closes the
// producer's transaction in the partition, moving the last stable offset,
// and an ABORT is indexed for read_committed fetches.
import { buildControlBatch } from '../protocol/record-batch.js';
import type { ErrorName } from '../protocol/errors.js';
import type { Cluster } from './cluster.js';
import type { Partition } from './partition.js';

export interface EndTxnMarker {
  producerId: number;
  producerEpoch: number;
  coordinatorEpoch: number;
  commit: boolean;
  /** WriteTxnMarkers v2's TransactionVersion: 2 (KIP-890 part 2) requires an epoch above the partition's. */
  transactionVersion?: number;
}

export function appendEndTxnMarker(cluster: Cluster, p: Partition, marker: EndTxnMarker): ErrorName {
  if (p.leader < 0) return 'NOT_LEADER_OR_FOLLOWER';
  const error = p.producers.checkMarker(marker.producerId, marker.producerEpoch, marker.coordinatorEpoch, marker.transactionVersion ?? 0);
  if (error !== 'NONE') return error;
  const now = cluster.clock.now();
  const offset = p.logEndOffset;
  const bytes = buildControlBatch({
    producerId: marker.producerId,
    producerEpoch: marker.producerEpoch,
    type: marker.commit ? 'COMMIT' : 'ABORT',
    coordinatorEpoch: marker.coordinatorEpoch,
    timestamp: now,
    baseOffset: offset,
    partitionLeaderEpoch: p.leaderEpoch,
  });
  p.log.append({ baseOffset: offset, lastOffset: offset, maxTimestamp: now, leaderEpoch: p.leaderEpoch, bytes });
  p.producers.recordMarker(marker.producerId, marker.producerEpoch, marker.coordinatorEpoch, marker.commit, offset, now);
  cluster.replicate(p);
  p.updateHighWatermark();
  p.notify();
  return 'NONE';
}
