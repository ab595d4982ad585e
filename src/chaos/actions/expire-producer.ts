// expire-producer: forgets a producer id on one partition, a topic's
// partitions, or every partition (partition.producers.expire), as
// producer.id.expiration.ms would; its next batch meets UNKNOWN_PRODUCER_ID
// or starts a fresh sequence. Ids with an open transaction are kept.
// Then forwards the request.
import { FORWARD, defineAction } from './action.js';
import { fail, integer, optionalInteger, optionalString } from '../validate.js';
import type { Partition } from '../../broker/partition.js';

export default defineAction({
  type: 'expire-producer',
  layer: 'frame',
  needsCluster: true,
  summary: 'Forgets a producer id on a partition, a topic, or everywhere, then forwards the request',
  params: ['producerId', 'topic', 'partition'],
  parse: (raw) => {
    const topic = optionalString(raw.topic, 'action.topic');
    const partition = optionalInteger(raw.partition, 'action.partition', { min: 0 });
    if (partition !== undefined && topic === undefined) fail('action.partition', 'needs action.topic');
    return { producerId: integer(raw.producerId, 'action.producerId', { min: 0 }), topic, partition };
  },
  fire: (p, ctx) => {
    const { cluster } = ctx;
    let partitions: Iterable<Partition>;
    if (p.topic === undefined) partitions = cluster.allPartitions();
    else if (p.partition === undefined) partitions = cluster.topic(p.topic)?.partitions ?? [];
    else partitions = [cluster.partition(p.topic, p.partition)].filter((x): x is Partition => x !== undefined);
    const expired: string[] = [];
    for (const part of partitions) if (part.producers.expire(p.producerId)) expired.push(`${part.topic}-${part.index}`);
    return { outcome: FORWARD, detail: { producerId: p.producerId, expired } };
  },
});
