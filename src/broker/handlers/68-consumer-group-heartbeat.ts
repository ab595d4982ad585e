// ConsumerGroupHeartbeat (68), v0-1: KIP-848's consumer group protocol, served
// where the Kafka version profile advertises it (4.x, group.version 1). Joins
// (member epoch 0), heartbeats, and leaves (-1; -2 for a static member that
// will come back) a "consumer" group; the coordinator
// (groups/consumer-group-coordinator.ts) bumps epochs, runs the server-side
// assignor and reconciles the member one step, revocation before assignment.
// v0's member id may be empty on joining: the coordinator makes one; from v1
// the client makes it (KIP-1082) and may subscribe by regular expression
// (SubscribedTopicRegex), which the coordinator resolves to the topics the
// member may DESCRIBE.
// Authorization (KafkaApis#handleConsumerGroupHeartbeat): READ on the group,
// else GROUP_AUTHORIZATION_FAILED; DESCRIBE on every subscribed topic, else
// TOPIC_AUTHORIZATION_FAILED.
import { ConsumerGroupHeartbeatApi } from '../../protocol/messages/index.js';
import { ErrorCode } from '../../protocol/errors.js';
import { defineHandler } from './handler.js';
import { authorize, authorizedNames } from './authorize.js';

export default defineHandler(ConsumerGroupHeartbeatApi, (req, ctx) => {
  const failed = (errorCode: number) => ({ throttleTimeMs: 0, errorCode, errorMessage: null, memberId: null, memberEpoch: 0, heartbeatIntervalMs: 0, assignment: null });
  if (!authorize(ctx, 'READ', 'GROUP', req.groupId)) return failed(ErrorCode.GROUP_AUTHORIZATION_FAILED);
  const subscribed = req.subscribedTopicNames ?? [];
  if (subscribed.length > 0 && authorizedNames(ctx, 'DESCRIBE', 'TOPIC', subscribed).size < new Set(subscribed).size) return failed(ErrorCode.TOPIC_AUTHORIZATION_FAILED);
  const r = ctx.cluster.groups.consumerGroups.handleHeartbeat(ctx.nodeId, {
    groupId: req.groupId,
    memberId: req.memberId,
    memberEpoch: req.memberEpoch,
    instanceId: req.instanceId,
    rackId: req.rackId,
    rebalanceTimeoutMs: req.rebalanceTimeoutMs,
    subscribedTopicNames: req.subscribedTopicNames,
    subscribedTopicRegex: req.subscribedTopicRegex,
    serverAssignor: req.serverAssignor,
    topicPartitions: req.topicPartitions,
    clientId: ctx.clientId ?? '',
    clientHost: ctx.clientHost,
    apiVersion: ctx.apiVersion,
    describableTopics: (names) => authorizedNames(ctx, 'DESCRIBE', 'TOPIC', names),
  });
  return {
    throttleTimeMs: 0,
    errorCode: ErrorCode[r.error],
    errorMessage: r.errorMessage,
    memberId: r.memberId,
    memberEpoch: r.memberEpoch,
    heartbeatIntervalMs: r.heartbeatIntervalMs,
    assignment: r.assignment === null ? null : { topicPartitions: r.assignment },
  };
});
