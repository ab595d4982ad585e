// DescribeShareGroupOffsets (90), v0-1: each share partition's start offset
// (every record before it acknowledged or archived), the leader epoch it was
// written at, and from v1 its lag (high watermark - start offset - records
// after it already done), as Kafka 4.4's KafkaApis and
// GroupCoordinatorService#describeShareGroupOffsets answer. The group is not
// looked up: a group with no state (or no such group) answers -1 throughout,
// with no error; so does a topic that does not exist (topic id zero).
// Authorization: DESCRIBE on the group; DESCRIBE on each topic (TOPIC_AUTHORIZATION_FAILED
// per partition, after the others; dropped silently when all topics are asked for).
import { DescribeShareGroupOffsetsApi } from '../../protocol/messages/index.js';
import { ErrorCode } from '../../protocol/errors.js';
import { ZERO_UUID } from '../../protocol/primitives.js';
import { defineHandler } from './handler.js';
import { authorize } from './authorize.js';

export default defineHandler(DescribeShareGroupOffsetsApi, (req, ctx) => {
  const shares = ctx.cluster.shares;
  const row = (groupId: string, topicId: string, index: number) => ({ partitionIndex: index, ...shares.offsetSummary(groupId, topicId, index), errorCode: ErrorCode.NONE as number, errorMessage: null as string | null });
  return {
    throttleTimeMs: 0,
    groups: req.groups.map((g) => {
      const none = { groupId: g.groupId, topics: [], errorMessage: null };
      if (!authorize(ctx, 'DESCRIBE', 'GROUP', g.groupId)) return { ...none, errorCode: ErrorCode.GROUP_AUTHORIZATION_FAILED };
      if (ctx.cluster.groups.coordinatorFor(0, g.groupId) !== ctx.nodeId) return { ...none, errorCode: ErrorCode.NOT_COORDINATOR };
      if (g.topics === null) {
        // All: the topics the group holds state for, those the principal may describe.
        const byTopic = new Map<string, number[]>();
        for (const x of shares.ofGroup(g.groupId)) byTopic.set(x.topicId, [...(byTopic.get(x.topicId) ?? []), x.partition]);
        const topics = [...byTopic].flatMap(([topicId, ps]) => {
          const t = ctx.cluster.topicById(topicId);
          if (!t || !authorize(ctx, 'DESCRIBE', 'TOPIC', t.name)) return [];
          return [{ topicName: t.name, topicId, partitions: ps.sort((a, b) => a - b).map((p) => row(g.groupId, topicId, p)) }];
        });
        return { ...none, topics, errorCode: ErrorCode.NONE };
      }
      type TopicRow = { topicName: string; topicId: string; partitions: ReturnType<typeof row>[] };
      const denied: TopicRow[] = [];
      const known: TopicRow[] = [];
      const unknown: TopicRow[] = [];
      for (const rt of g.topics) {
        const t = ctx.cluster.topic(rt.topicName);
        if (!authorize(ctx, 'DESCRIBE', 'TOPIC', rt.topicName)) {
          denied.push({ topicName: rt.topicName, topicId: ZERO_UUID, partitions: rt.partitions.map((p) => ({ partitionIndex: p, startOffset: -1, leaderEpoch: 0, lag: -1, errorCode: ErrorCode.TOPIC_AUTHORIZATION_FAILED, errorMessage: 'Topic authorization failed.' })) });
        } else if (!t) {
          unknown.push({ topicName: rt.topicName, topicId: ZERO_UUID, partitions: rt.partitions.map((p) => ({ partitionIndex: p, startOffset: -1, leaderEpoch: 0, lag: -1, errorCode: ErrorCode.NONE, errorMessage: null })) });
        } else {
          known.push({ topicName: t.name, topicId: t.topicId, partitions: rt.partitions.map((p) => row(g.groupId, t.topicId, p)) });
        }
      }
      return { ...none, topics: [...known, ...unknown, ...denied], errorCode: ErrorCode.NONE };
    }),
  };
});
