// Topic name rules of org.apache.kafka.common.internals.Topic.

export const MAX_TOPIC_NAME_LENGTH = 249;
export const INTERNAL_TOPICS = new Set(['__consumer_offsets', '__transaction_state', '__share_group_state']);

/** Why a topic name is invalid, or null when it is valid. */
export function invalidTopicReason(name: string): string | null {
  if (name.length === 0) return 'Topic name is illegal, it can\'t be empty';
  if (name === '.' || name === '..') return 'Topic name cannot be "." or ".."';
  if (name.length > MAX_TOPIC_NAME_LENGTH) return `Topic name is illegal, it can't be longer than ${MAX_TOPIC_NAME_LENGTH} characters, topic name: ${name}`;
  if (!/^[a-zA-Z0-9._-]+$/.test(name)) return `Topic name "${name}" is illegal, it contains a character other than ASCII alphanumerics, '.', '_' and '-'`;
  return null;
}

/** Two names collide when equal after '.' becomes '_' (metric names would clash). */
export function collisionKey(name: string): string {
  return name.replace(/\./g, '_');
}
