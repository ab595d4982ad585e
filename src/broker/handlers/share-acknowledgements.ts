// Acknowledgements of a ShareFetch or a ShareAcknowledge, applied the same
// way (KafkaApis#handleAcknowledgements, #validateAcknowledgementBatches,
// SharePartitionManager#acknowledge): per partition of the request, an
// unknown topic id is UNKNOWN_TOPIC_ID; batches out of order, empty, or with
// unknown types are INVALID_REQUEST (RENEW only in a v2 renew
// acknowledgement); then READ on the topic, the partition, and the share
// partition this broker holds (UNKNOWN_TOPIC_OR_PARTITION when it holds
// none); then the share partition applies them all or none.
import type { ErrorName } from '../../protocol/errors.js';
import type { RequestContext } from './handler.js';
import { authorize } from './authorize.js';
import { AcknowledgeError, AcknowledgeType, type AcknowledgementBatch } from '../share/share-partition.js';
import { partitionKey } from '../share/share-sessions.js';

export interface AckResult {
  error: ErrorName;
  message: string | null;
}

interface AckTopic {
  topicId: string;
  partitions: readonly { partitionIndex: number; acknowledgementBatches: readonly AcknowledgementBatch[] }[];
}

/** The result of each partition of the request, by "topicId:partition". */
export function acknowledgeAll(ctx: RequestContext, groupId: string, memberId: string, topics: readonly AckTopic[], renewAllowed: boolean): Map<string, AckResult> {
  const out = new Map<string, AckResult>();
  const maxType = ctx.apiVersion >= 2 ? AcknowledgeType.RENEW : AcknowledgeType.REJECT;
  for (const t of topics) {
    const image = ctx.cluster.topicByIdOn(ctx, t.topicId);
    const topic = image ? ctx.cluster.topic(image.name) : undefined;
    for (const rp of t.partitions) {
      const key = partitionKey(t.topicId, rp.partitionIndex);
      const set = (error: ErrorName, message: string | null = null) => out.set(key, { error, message });
      if (!topic || topic.topicId !== t.topicId) {
        set('UNKNOWN_TOPIC_ID');
        continue;
      }
      if (!validBatches(rp.acknowledgementBatches, maxType, renewAllowed)) {
        set('INVALID_REQUEST');
        continue;
      }
      if (!authorize(ctx, 'READ', 'TOPIC', topic.name)) {
        set('TOPIC_AUTHORIZATION_FAILED');
        continue;
      }
      const p = topic.partitions[rp.partitionIndex];
      if (!p) {
        set('UNKNOWN_TOPIC_OR_PARTITION');
        continue;
      }
      if (rp.acknowledgementBatches.length === 0) {
        set('NONE');
        continue;
      }
      // The share partition lives on the leader; another broker has none to acknowledge to.
      const sp = p.leader === ctx.nodeId ? ctx.cluster.shares.get(groupId, t.topicId, rp.partitionIndex) : undefined;
      if (!sp) {
        set('UNKNOWN_TOPIC_OR_PARTITION');
        continue;
      }
      try {
        sp.acknowledge(memberId, rp.acknowledgementBatches);
        set('NONE');
      } catch (e) {
        if (!(e instanceof AcknowledgeError)) throw e;
        set(e.error, e.message);
      }
    }
  }
  return out;
}

/** KafkaApis#validateAcknowledgementBatches. */
function validBatches(batches: readonly AcknowledgementBatch[], maxType: number, renewAllowed: boolean): boolean {
  let previousLast = -Infinity;
  for (const b of batches) {
    if (b.firstOffset > b.lastOffset || b.firstOffset < previousLast) return false;
    if (b.acknowledgeTypes.length === 0) return false;
    if (b.acknowledgeTypes.length > 1 && b.lastOffset - b.firstOffset !== b.acknowledgeTypes.length - 1) return false;
    for (const type of b.acknowledgeTypes) {
      if (type < 0 || type > maxType) return false;
      if (type === AcknowledgeType.RENEW && !renewAllowed) return false;
    }
    previousLast = b.lastOffset;
  }
  return true;
}
