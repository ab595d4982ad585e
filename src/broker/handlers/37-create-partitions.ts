// CreatePartitions (37), v0-3: adds partitions to a topic (never removes),
// placed round-robin unless assignments are given; assignments are checked as
// KRaft checks them (registered brokers, each once, the topic's replication
// factor, one of them alive: see manual-assignment.ts); validate_only checks only.
import { CreatePartitionsApi } from '../../protocol/messages/index.js';
import { ErrorCode } from '../../protocol/errors.js';
import { defineHandler } from './handler.js';
import { authorizedNames } from './authorize.js';

export default defineHandler(CreatePartitionsApi, (req, ctx) => {
  const counts = new Map<string, number>();
  for (const t of req.topics) counts.set(t.name, (counts.get(t.name) ?? 0) + 1);
  // ControllerApis.createPartitions: ALTER on each topic.
  const alterable = authorizedNames(ctx, 'ALTER', 'TOPIC', req.topics.map((t) => t.name));
  return {
    throttleTimeMs: 0,
    results: req.topics.map((t) => {
      if ((counts.get(t.name) ?? 0) > 1) return { name: t.name, errorCode: ErrorCode.INVALID_REQUEST, errorMessage: 'Duplicate topic name.' };
      if (!alterable.has(t.name)) return { name: t.name, errorCode: ErrorCode.TOPIC_AUTHORIZATION_FAILED, errorMessage: null };
      const r = ctx.cluster.createPartitions(t.name, t.count, t.assignments?.map((a) => a.brokerIds), req.validateOnly);
      return r.ok
        ? { name: t.name, errorCode: ErrorCode.NONE, errorMessage: null }
        : { name: t.name, errorCode: ErrorCode[r.error], errorMessage: r.message };
    }),
  };
});
