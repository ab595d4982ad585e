// AlterPartitionReassignments (45), v0: start, change or cancel (replicas
// null) partition reassignments through the replication model
// (reassignments.ts), answered per partition as KRaft's controller does
// (ReplicationControlManager.alterPartitionReassignments):
// UNKNOWN_TOPIC_OR_PARTITION, INVALID_REPLICA_ASSIGNMENT (a broker that is
// not registered, one named twice, an empty list, a cancel that would need an
// unclean election), NO_REASSIGNMENT_IN_PROGRESS. The answer comes once the
// reassignment has started; it completes as the new replicas catch up.
import { AlterPartitionReassignmentsApi } from '../../protocol/messages/index.js';
import { ErrorCode } from '../../protocol/errors.js';
import { alterPartitionReassignment } from '../reassignments.js';
import { defineHandler } from './handler.js';

// Served up to v0: v1 (AllowReplicationFactorChange) is in the codecs, not served yet.
export default defineHandler(AlterPartitionReassignmentsApi, (req, ctx) => ({
  throttleTimeMs: 0,
  errorCode: ErrorCode.NONE,
  errorMessage: null,
  responses: req.topics.map((t) => ({
    name: t.name,
    partitions: t.partitions.map((p) => {
      const r = alterPartitionReassignment(ctx.cluster, t.name, p.partitionIndex, p.replicas);
      return { partitionIndex: p.partitionIndex, errorCode: ErrorCode[r.error], errorMessage: r.error === 'NONE' ? null : r.message };
    }),
  })),
}), { max: 0 });
