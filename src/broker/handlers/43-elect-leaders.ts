// ElectLeaders (43), v0-2: PREFERRED (v0's only kind) and UNCLEAN elections
// through the cluster's replication model (leader-elections.ts), answered as
// KRaft's controller answers them (ReplicationControlManager.electLeaders):
// per-partition ELECTION_NOT_NEEDED, PREFERRED_LEADER_NOT_AVAILABLE,
// ELIGIBLE_LEADERS_NOT_AVAILABLE or UNKNOWN_TOPIC_OR_PARTITION. Null topics
// means every partition, and then partitions that need no election are left
// out of the answer. Elections are immediate, so timeoutMs is not waited on.
import { ElectLeadersApi, type ElectLeadersRequest } from '../../protocol/messages/index.js';
import { ErrorCode } from '../../protocol/errors.js';
import { ElectionType, electLeaderOfType } from '../leader-elections.js';
import { defineHandler } from './handler.js';

/** ElectLeadersRequest.getErrorResponse: the controller threw (an unknown election type). */
function errorAnswer(req: ElectLeadersRequest, errorCode: number, errorMessage: string) {
  return {
    throttleTimeMs: 0,
    errorCode,
    replicaElectionResults: (req.topicPartitions ?? []).map((t) => ({ topic: t.topic, partitionResult: t.partitions.map((partitionId) => ({ partitionId, errorCode, errorMessage })) })),
  };
}

export default defineHandler(ElectLeadersApi, (req, ctx) => {
  const { cluster } = ctx;
  // v0 has no election type: always preferred (the field's default, 0).
  const type = ctx.apiVersion >= 1 ? req.electionType : ElectionType.PREFERRED;
  if (type !== ElectionType.PREFERRED && type !== ElectionType.UNCLEAN) return errorAnswer(req, ErrorCode.INVALID_REQUEST, `Unknown election type ${type}`);
  const elect = (topic: string, partitionId: number) => {
    const { error, message } = electLeaderOfType(cluster, topic, partitionId, type);
    return { partitionId, errorCode: ErrorCode[error], errorMessage: message };
  };
  const replicaElectionResults =
    req.topicPartitions === null
      ? [...cluster.topics.values()].map((t) => ({
          topic: t.name,
          partitionResult: t.partitions.map((p) => elect(t.name, p.index)).filter((r) => r.errorCode !== ErrorCode.ELECTION_NOT_NEEDED),
        }))
      : req.topicPartitions.map((t) => ({ topic: t.topic, partitionResult: t.partitions.map((i) => elect(t.topic, i)) }));
  return { throttleTimeMs: 0, errorCode: ErrorCode.NONE, replicaElectionResults };
});
