// ListPartitionReassignments (46), v0: the reassignments in progress, for
// every topic (topics null) or the listed partitions, as KRaft's controller
// lists them (ReplicationControlManager.listPartitionReassignments): unknown
// topics and partitions without a reassignment are left out, and so is a
// topic with none left.
import { ListPartitionReassignmentsApi } from '../../protocol/messages/index.js';
import { ErrorCode } from '../../protocol/errors.js';
import { ongoingReassignments } from '../reassignments.js';
import { defineHandler } from './handler.js';

export default defineHandler(ListPartitionReassignmentsApi, (req, ctx) => {
  const { cluster } = ctx;
  const wanted = req.topics === null ? [...cluster.topics.keys()].map((name) => ({ name, partitionIndexes: null })) : req.topics;
  const topics = wanted
    .map((t) => ({ name: t.name, partitions: ongoingReassignments(cluster, t.name, t.partitionIndexes) }))
    .filter((t) => t.partitions.length > 0);
  return { throttleTimeMs: 0, errorCode: ErrorCode.NONE, errorMessage: null, topics };
});
