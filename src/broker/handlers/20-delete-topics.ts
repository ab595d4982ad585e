// DeleteTopics (20), v0-6: by name (v0-5) or by name or topic id (v6).
// Deletion is immediate; waiting fetches and produces on the topic wake up.
import { DeleteTopicsApi } from '../../protocol/messages/index.js';
import { ErrorCode } from '../../protocol/errors.js';
import { ZERO_UUID } from '../../protocol/primitives.js';
import { defineHandler } from './handler.js';

export default defineHandler(DeleteTopicsApi, (req, ctx) => {
  const { cluster } = ctx;
  const version = ctx.apiVersion;
  const targets = version >= 6 ? req.topics : req.topicNames.map((name) => ({ name, topicId: ZERO_UUID }));
  return {
    throttleTimeMs: 0,
    responses: targets.map((t) => {
      const byId = t.name === null;
      const topic = byId ? cluster.topicById(t.topicId) : cluster.topic(t.name!);
      if (!topic) {
        const error = byId ? 'UNKNOWN_TOPIC_ID' : 'UNKNOWN_TOPIC_OR_PARTITION';
        return { name: t.name, topicId: t.topicId, errorCode: ErrorCode[error], errorMessage: version >= 5 ? 'This server does not host this topic.' : null };
      }
      cluster.deleteTopic(topic.name);
      return { name: topic.name, topicId: topic.topicId, errorCode: ErrorCode.NONE, errorMessage: null };
    }),
  };
});
