// ShareAcknowledge (79), v1-2: acknowledgements outside a fetch (KIP-932), as
// Kafka 4.4's KafkaApis#handleShareAcknowledgeRequest serves them. It needs
// the member's share session: epoch 0 is INVALID_SHARE_SESSION_EPOCH (only a
// ShareFetch opens one), -1 closes the session once the acknowledgements are
// in (what the member still holds goes back), any other epoch must be the
// session's next one and moves it on, as a ShareFetch does. The partitions
// need not be in the session. v2's IsRenewAck allows RENEW, which restarts
// the acquisition locks; v2 answers the lock duration.
import { ShareAcknowledgeApi } from '../../protocol/messages/index.js';
import { ErrorCode, type ErrorName } from '../../protocol/errors.js';
import type { Partition } from '../partition.js';
import { defineHandler } from './handler.js';
import { authorize } from './authorize.js';
import { leaderEndpoints } from './shared.js';
import { isShareMemberIdValid } from './share-shared.js';
import { acknowledgeAll } from './share-acknowledgements.js';
import { FINAL_SHARE_SESSION_EPOCH, INITIAL_SHARE_SESSION_EPOCH, partitionKey, ShareSessionError, type ShareSession } from '../share/share-sessions.js';

export default defineHandler(ShareAcknowledgeApi, (req, ctx) => {
  const top = (error: ErrorName) => ({ throttleTimeMs: 0, errorCode: ErrorCode[error], errorMessage: null, acquisitionLockTimeoutMs: 0, responses: [], nodeEndpoints: [] });
  if (req.groupId === null) return top('INVALID_REQUEST');
  const groupId = req.groupId;
  if (!authorize(ctx, 'READ', 'GROUP', groupId)) return top('GROUP_AUTHORIZATION_FAILED');
  if (!isShareMemberIdValid(req.memberId)) return top('INVALID_REQUEST');
  const memberId = req.memberId;
  const shares = ctx.cluster.shares;
  if (req.shareSessionEpoch === INITIAL_SHARE_SESSION_EPOCH) return top('INVALID_SHARE_SESSION_EPOCH');
  let session: ShareSession;
  try {
    session = shares.sessionsOn(ctx.nodeId).advance(groupId, memberId, req.shareSessionEpoch);
  } catch (e) {
    if (e instanceof ShareSessionError) return top(e.error);
    throw e;
  }
  const acks = acknowledgeAll(ctx, groupId, memberId, req.topics, ctx.apiVersion >= 2 && req.isRenewAck);
  const notLeader: Partition[] = [];
  const response = {
    throttleTimeMs: 0,
    errorCode: ErrorCode.NONE,
    errorMessage: null,
    acquisitionLockTimeoutMs: ctx.cluster.groupConfigs.share(groupId).recordLockDurationMs,
    responses: req.topics.map((t) => ({
      topicId: t.topicId,
      partitions: t.partitions.map((rp) => {
        const r = acks.get(partitionKey(t.topicId, rp.partitionIndex)) ?? { error: 'NONE' as ErrorName, message: null };
        const p = ctx.cluster.topicById(t.topicId)?.partitions[rp.partitionIndex];
        const fenced = r.error === 'NOT_LEADER_OR_FOLLOWER' && p;
        if (fenced) notLeader.push(p);
        return {
          partitionIndex: rp.partitionIndex,
          errorCode: ErrorCode[r.error],
          errorMessage: r.message,
          currentLeader: fenced ? { leaderId: p.leader, leaderEpoch: p.leaderEpoch } : { leaderId: 0, leaderEpoch: 0 },
        };
      }),
    })),
    nodeEndpoints: leaderEndpoints(ctx, notLeader),
  };
  if (req.shareSessionEpoch === FINAL_SHARE_SESSION_EPOCH) shares.releaseSession(session);
  return response;
});
