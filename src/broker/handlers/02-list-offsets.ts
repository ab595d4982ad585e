// ListOffsets (2), v0-9: earliest (-2), latest (-1), max timestamp (-3),
// earliest local (-4, as earliest), latest tiered (-5, none here) and by
// timestamp, bounded by the high watermark or, read_committed, the last
// stable offset. Only the leader answers.
// Differs from Kafka: v0's old_style_offsets hold [bound] or [log start]
// rather than segment base offsets (an in-memory log has no segments).
// A lagging node (metadata-lag) answers from its metadata: Cluster.laggedPartition.
// Each topic needs DESCRIBE, else TOPIC_AUTHORIZATION_FAILED (KafkaApis.handleListOffsetRequest).
import { ListOffsetsApi } from '../../protocol/messages/index.js';
import { ErrorCode, type ErrorName } from '../../protocol/errors.js';
import { decodeRecords } from '../../protocol/record-batch.js';
import type { Partition } from '../partition.js';
import { defineHandler } from './handler.js';
import { offsetForTimestamp, type FoundOffset } from '../offset-for-timestamp.js';
import { authorizedNames } from './authorize.js';

const LATEST = -1;
const EARLIEST = -2;
const MAX_TIMESTAMP = -3;
const EARLIEST_LOCAL = -4;
const LATEST_TIERED = -5;
const MIN_VERSION: Record<number, number> = { [LATEST]: 1, [EARLIEST]: 1, [MAX_TIMESTAMP]: 7, [EARLIEST_LOCAL]: 8, [LATEST_TIERED]: 9 };

type Found = FoundOffset;

/** The first record carrying the log's largest timestamp, below the bound. */
function offsetOfMaxTimestamp(p: Partition, bound: number): Found | null {
  let best: Found | null = null;
  for (const b of p.log.batchesFrom(p.logStartOffset)) {
    if (b.baseOffset >= bound) break;
    if (best && b.maxTimestamp <= best.timestamp) continue;
    for (const r of decodeRecords(b.bytes)) {
      if (r.offset >= bound) break;
      if (!best || r.timestamp > best.timestamp) best = { offset: r.offset, timestamp: r.timestamp, leaderEpoch: b.leaderEpoch };
    }
  }
  return best;
}

// Served up to v9: v10 (KIP-1075) and v11 (KIP-1023) are in the codecs, not served yet.
export default defineHandler(ListOffsetsApi, (req, ctx) => {
  const version = ctx.apiVersion;
  const readCommitted = version >= 2 && req.isolationLevel === 1;
  const describable = authorizedNames(ctx, 'DESCRIBE', 'TOPIC', req.topics.map((t) => t.name));
  return {
    throttleTimeMs: 0,
    topics: req.topics.map((t) => {
      const seen = new Set<number>();
      const dup = new Set(t.partitions.filter((p) => seen.size === seen.add(p.partitionIndex).size).map((p) => p.partitionIndex));
      return {
        name: t.name,
        partitions: t.partitions.map((rp) => {
          const fail = (e: ErrorName) => ({ partitionIndex: rp.partitionIndex, errorCode: ErrorCode[e], timestamp: -1, offset: -1, leaderEpoch: -1 });
          if (!describable.has(t.name)) return fail('TOPIC_AUTHORIZATION_FAILED');
          if (dup.has(rp.partitionIndex)) return fail('INVALID_REQUEST');
          // ReplicaManager.fetchOffsetForTimestamp's getPartitionOrException on what this node's metadata has (metadata-lag).
          const lag = ctx.cluster.laggedPartition(ctx, t.name, rp.partitionIndex);
          if (lag) return fail(lag.error);
          const p = ctx.cluster.partition(t.name, rp.partitionIndex);
          if (!p) return fail('UNKNOWN_TOPIC_OR_PARTITION');
          if (p.leader !== ctx.nodeId && req.replicaId !== -2) return fail('NOT_LEADER_OR_FOLLOWER');
          if (version >= 4 && rp.currentLeaderEpoch >= 0) {
            if (rp.currentLeaderEpoch < p.leaderEpoch) return fail('FENCED_LEADER_EPOCH');
            if (rp.currentLeaderEpoch > p.leaderEpoch) return fail('UNKNOWN_LEADER_EPOCH');
          }
          const ts = rp.timestamp;
          const bound = req.replicaId >= 0 ? p.logEndOffset : readCommitted ? p.lastStableOffset : p.highWatermark;
          if (version === 0) {
            const offsets = ts === EARLIEST ? [p.logStartOffset] : ts === LATEST ? [bound] : [];
            return { partitionIndex: rp.partitionIndex, errorCode: ErrorCode.NONE, oldStyleOffsets: offsets.slice(0, Math.max(0, rp.maxNumOffsets)) };
          }
          if (ts < 0 && !(ts in MIN_VERSION && version >= MIN_VERSION[ts]!)) return fail('UNSUPPORTED_VERSION');
          let found: Found | null;
          if (ts === LATEST) found = { offset: bound, timestamp: -1, leaderEpoch: p.leaderEpoch };
          else if (ts === EARLIEST || ts === EARLIEST_LOCAL) {
            const first = p.epochs[0]!;
            found = { offset: p.logStartOffset, timestamp: -1, leaderEpoch: first.startOffset <= p.logStartOffset ? p.epochAt(p.logStartOffset) : -1 };
          } else if (ts === LATEST_TIERED) found = null;
          else if (ts === MAX_TIMESTAMP) found = offsetOfMaxTimestamp(p, bound);
          else found = offsetForTimestamp(p, ts, bound);
          return {
            partitionIndex: rp.partitionIndex,
            errorCode: ErrorCode.NONE,
            timestamp: found?.timestamp ?? -1,
            offset: found?.offset ?? -1,
            leaderEpoch: version >= 4 ? (found?.leaderEpoch ?? -1) : -1,
          };
        }),
      };
    }),
  };
}, { max: 9 });
