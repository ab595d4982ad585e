// TxnOffsetCommit (28), v0-5: offsets committed inside a transaction. The
// group coordinator answers (NOT_COORDINATOR elsewhere); the transaction
// must have the group's offsets partition (AddOffsetsToTxn) and the
// producer's epoch (KIP-890 verification, 3.8+; the 2.8 profile checks only
// the epoch); from v5 (transactions v2, KIP-890 part 2) the commit adds the
// partition itself (AddPartitionsToTxnManager
// .txnOffsetCommitRequestVersionToTransactionSupportedOperation: v5+ is addPartition); v3+ member fields are checked without REBALANCE_IN_PROGRESS,
// with 2.x's or 3.x's rules as the profile says. The offsets stay pending, invisible to
// OffsetFetch, until the COMMIT marker (an ABORT drops them).
import { TxnOffsetCommitApi } from '../../protocol/messages/index.js';
import { ErrorCode, type ErrorName } from '../../protocol/errors.js';
import { GROUP_METADATA_TOPIC, partitionFor } from '../coordinators.js';
import { defineHandler } from './handler.js';
import { TRANSACTION_VERSION_2 } from '../transactions/transaction-metadata.js';
import { authorize, authorizedNames } from './authorize.js';

// Served up to v5: v6 (topic ids, KIP-1319) is in the codecs, not served yet.
export default defineHandler(TxnOffsetCommitApi, (req, ctx) => {
  const { cluster } = ctx;
  const version = ctx.apiVersion;
  const memberError = () => (version >= 3 ? cluster.groups.validateTxnOffsetCommitMember(req.groupId, req.memberId, req.generationIdOrMemberEpoch, req.groupInstanceId) : 'NONE');
  const groupError = (): ErrorName => {
    const status = cluster.groups.groupStatus(req.groupId, 'TxnOffsetCommit', ctx.nodeId);
    if (status) return status;
    const verdict =
      version >= 5
        ? cluster.transactions.addOffsets(req.transactionalId, req.producerId, req.producerEpoch, req.groupId, TRANSACTION_VERSION_2)
        : cluster.transactions.verify(req.transactionalId, req.producerId, req.producerEpoch, GROUP_METADATA_TOPIC, partitionFor(req.groupId));
    if (!cluster.profile.transactionVerification) {
      // 2.x asks no coordinator (GroupCoordinator#handleTxnCommitOffsets, 2.8.2): the
      // members are checked, then the offsets partition's producer state refuses an
      // epoch older than the one the coordinator's markers carried there.
      const error = memberError();
      return error === 'NONE' && verdict === 'PRODUCER_FENCED' ? 'INVALID_PRODUCER_EPOCH' : error;
    }
    switch (verdict) {
      case 'NONE':
        return memberError();
      case 'TRANSACTION_ABORTABLE':
        return version >= 4 ? 'TRANSACTION_ABORTABLE' : 'INVALID_TXN_STATE';
      case 'PRODUCER_FENCED':
        return 'INVALID_PRODUCER_EPOCH';
      default:
        return verdict;
    }
  };
  // KafkaApis.handleTxnOffsetCommitRequest: WRITE on the transactional id, READ on the group (each for every partition), READ on each topic.
  const refused: ErrorName | null = !authorize(ctx, 'WRITE', 'TRANSACTIONAL_ID', req.transactionalId)
    ? 'TRANSACTIONAL_ID_AUTHORIZATION_FAILED'
    : !authorize(ctx, 'READ', 'GROUP', req.groupId)
      ? 'GROUP_AUTHORIZATION_FAILED'
      : null;
  const readable = refused ? new Set<string>() : authorizedNames(ctx, 'READ', 'TOPIC', req.topics.map((t) => t.name));
  const whole = refused ?? groupError();
  const known = req.topics.flatMap((t) => t.partitions.filter((p) => readable.has(t.name) && cluster.partition(t.name, p.partitionIndex)).map((p) => ({ topic: t.name, p })));
  const stored =
    whole === 'NONE'
      ? cluster.groups.addPendingTxnOffsets(
          req.groupId,
          req.producerId,
          known.map(({ topic, p }) => ({ topic, partition: p.partitionIndex, offset: p.committedOffset, leaderEpoch: p.committedLeaderEpoch, metadata: p.committedMetadata })),
        )
      : [];
  const results = new Map(known.map(({ topic, p }, i) => [`${topic}:${p.partitionIndex}`, stored[i] ?? whole]));
  return {
    throttleTimeMs: 0,
    topics: req.topics.map((t) => ({
      name: t.name,
      partitions: t.partitions.map((p) => ({
        partitionIndex: p.partitionIndex,
        errorCode: ErrorCode[refused ?? (readable.has(t.name) ? (results.get(`${t.name}:${p.partitionIndex}`) ?? 'UNKNOWN_TOPIC_OR_PARTITION') : 'TOPIC_AUTHORIZATION_FAILED')],
      })),
    })),
  };
}, { max: 5 });
