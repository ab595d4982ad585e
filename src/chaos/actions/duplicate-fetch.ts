// duplicate-fetch: serves records already delivered again. The Fetch
// request's fetch offsets are moved back by `by` offsets (not before the
// log start) before the broker sees it, so its answer starts with records
// the client has had, followed by the new ones: as a batch that straddles
// the position would. A correct client discards records below its position
// (kafkajs, the Java consumer and librdkafka do); one that does not hands
// them to the application twice. Only partitions with records at or past
// the position move (else the answer would hold old records only, which a
// broker sends only for a compacted log). `topic` and `partition` narrow
// which partitions of the Fetch move. Other requests pass untouched.
import { ApiKey } from '../../protocol/messages/api-key.js';
import { fail, integer, optionalInteger, optionalString } from '../validate.js';
import { FORWARD, defineAction } from './action.js';

type AnyBody = Record<string, any>;

export default defineAction({
  type: 'duplicate-fetch',
  layer: 'frame',
  needsCluster: true,
  summary: 'Moves a Fetch request’s offsets back by `by`, so the answer serves records already delivered again',
  params: ['by', 'topic', 'partition'],
  needsBody: true,
  parse: (raw) => {
    const topic = optionalString(raw.topic, 'action.topic');
    const partition = optionalInteger(raw.partition, 'action.partition', { min: 0 });
    if (partition !== undefined && topic === undefined) fail('action.partition', 'needs action.topic');
    return { by: integer(raw.by, 'action.by', { min: 1 }), topic, partition };
  },
  fire: (p, ctx) => {
    const { request, cluster } = ctx;
    const body = request.apiKey === ApiKey.Fetch ? (request.body() as AnyBody | undefined) : undefined;
    if (!body) return { outcome: FORWARD, detail: { by: p.by, skipped: request.apiKey === ApiKey.Fetch ? 'request not decodable' : `not a Fetch: ${request.apiName}` } };
    const offsets: { topicIndex: number; partitionIndex: number; fetchOffset: number }[] = [];
    const moved: { topic: string; partition: number; from: number; to: number }[] = [];
    body.topics.forEach((t: AnyBody, topicIndex: number) => {
      const name: string | undefined = t.topic || cluster.topicById(t.topicId)?.name;
      if (p.topic !== undefined && name !== p.topic) return;
      t.partitions.forEach((part: AnyBody, partitionIndex: number) => {
        if (p.partition !== undefined && part.partition !== p.partition) return;
        const partition = name !== undefined ? cluster.partition(name, part.partition) : undefined;
        // Nothing at or past the position yet: an answer of older records only is one no broker sends
        // for an uncompacted log (kafkajs 2.x takes it for compaction and moves its position one past).
        if (!partition || part.fetchOffset >= partition.highWatermark) return;
        const to = Math.max(partition.logStartOffset, part.fetchOffset - p.by);
        if (to >= part.fetchOffset) return;
        offsets.push({ topicIndex, partitionIndex, fetchOffset: to });
        moved.push({ topic: name ?? t.topicId, partition: part.partition, from: part.fetchOffset, to });
      });
    });
    if (offsets.length === 0) return { outcome: FORWARD, detail: { by: p.by, offsets: [] } };
    return { outcome: { request: { kind: 'forward', rewrite: [{ type: 'fetch-offsets', offsets }] } }, detail: { by: p.by, offsets: moved } };
  },
});
