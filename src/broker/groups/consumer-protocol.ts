// Reading the embedded consumer protocol (protocol_type "consumer") that
// JoinGroup metadata and SyncGroup assignments carry. The coordinator only
// needs the subscribed topics (OffsetDelete's GROUP_SUBSCRIBED_TO_TOPIC) and,
// for inspection, who owns which partitions. Like Kafka, it reads the version
// 0 prefix, which every later version keeps.
import { Reader } from '../../protocol/primitives.js';
import { readConsumerProtocolAssignment } from '../../protocol/messages/consumer-protocol-assignment.js';
import { readConsumerProtocolSubscription } from '../../protocol/messages/consumer-protocol-subscription.js';

export const CONSUMER_PROTOCOL_TYPE = 'consumer';

/** The topics of a consumer subscription, or null when the bytes are not one. */
export function subscriptionTopics(metadata: Buffer): string[] | null {
  try {
    const r = new Reader(metadata);
    r.int16();
    return readConsumerProtocolSubscription(r, 0).topics;
  } catch {
    return null;
  }
}

export interface TopicPartitions {
  topic: string;
  partitions: number[];
}

/** The partitions of a consumer assignment; [] for empty bytes, null when the bytes are not one. */
export function assignedPartitions(assignment: Buffer): TopicPartitions[] | null {
  if (assignment.length === 0) return [];
  try {
    const r = new Reader(assignment);
    r.int16();
    return readConsumerProtocolAssignment(r, 0).assignedPartitions.map((a) => ({ topic: a.topic, partitions: [...a.partitions] }));
  } catch {
    return null;
  }
}
