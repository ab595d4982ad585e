// The first record at or after a timestamp, as ListOffsets and a share
// partition's by_duration start (share.auto.offset.reset) look it up.
import type { Partition } from './partition.js';
import { decodeRecords } from '../protocol/record-batch.js';

export interface FoundOffset {
  offset: number;
  timestamp: number;
  leaderEpoch: number;
}

/** The first record (offset order) with timestamp >= ts, below the bound. */
export function offsetForTimestamp(p: Partition, ts: number, bound: number): FoundOffset | null {
  for (const b of p.log.batchesFrom(p.logStartOffset)) {
    if (b.baseOffset >= bound) break;
    // Some clients (sarama 1.22) leave maxTimestamp at -1: only a real maximum can rule a batch out.
    if (b.maxTimestamp >= 0 && b.maxTimestamp < ts) continue;
    for (const r of decodeRecords(b.bytes)) {
      if (r.offset >= bound) return null;
      if (r.offset >= p.logStartOffset && r.timestamp >= ts) return { offset: r.offset, timestamp: r.timestamp, leaderEpoch: b.leaderEpoch };
    }
  }
  return null;
}

