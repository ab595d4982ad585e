// DescribeLogDirs (35), v0-4: the receiving broker's one log directory and
// the replicas it holds there, as ReplicaManager.describeLogDirs answers:
// every partition with a replica on this broker (topics null) or the listed
// ones it holds, each with its size in bytes (the batches this replica has:
// the whole log for the leader, up to its log end offset for a follower).
// The directory is the path Kafka 3.9's KRaft sample config names
// (config/kraft/server.properties: log.dirs=/tmp/kraft-combined-logs). The
// logs live in memory, so totalBytes and usableBytes (v4+) are the machine's
// memory and what of it is free. offsetLag is the local replica's high
// watermark minus its log end offset, never above 0 (getLogEndOffsetLag), so 0.
// No replica is ever a future one (no log dir moves: AlterReplicaLogDirs is
// not served).
import { totalmem, freemem } from 'node:os';
import { DescribeLogDirsApi } from '../../protocol/messages/index.js';
import { ErrorCode } from '../../protocol/errors.js';
import type { Partition } from '../partition.js';
import { defineHandler } from './handler.js';

export const LOG_DIR = '/tmp/kraft-combined-logs';

function replicaSize(p: Partition, nodeId: number): number {
  if (p.leader === nodeId) return p.log.sizeInBytes;
  return p.log.bytesBetween(p.logStartOffset, p.replicaLogEndOffset(nodeId), Infinity);
}

// Served up to v4: v5 (IsCordoned) is in the codecs, not served yet.
export default defineHandler(DescribeLogDirsApi, (req, ctx) => {
  const { cluster, nodeId } = ctx;
  const wanted = req.topics === null ? null : new Map(req.topics.map((t) => [t.topic, new Set(t.partitions)]));
  const topics = [...cluster.topics.values()]
    .map((t) => ({
      name: t.name,
      partitions: t.partitions
        .filter((p) => p.replicas.includes(nodeId) && (wanted === null || wanted.get(t.name)?.has(p.index)))
        .map((p) => ({ partitionIndex: p.index, partitionSize: replicaSize(p, nodeId), offsetLag: 0, isFutureKey: false })),
    }))
    .filter((t) => t.partitions.length > 0);
  return {
    throttleTimeMs: 0,
    errorCode: ErrorCode.NONE,
    results: [{ errorCode: ErrorCode.NONE, logDir: LOG_DIR, topics, totalBytes: totalmem(), usableBytes: freemem() }],
  };
}, { max: 4 });
