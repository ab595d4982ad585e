// Read partitions back with kafkajs WITHOUT a consumer group.
//
// kafkajs's consumer.run() needs a group (FindCoordinator, JoinGroup,
// SyncGroup, Heartbeat, OffsetCommit). To read from a broker that has no
// groups, we use kafkajs's own Cluster and Broker objects, which are part of
// its typed API (types/index.d.ts: `Cluster`, `Broker.fetch`). The supported
// way to obtain the Cluster is the PartitionAssigner hook: kafkajs calls each
// assigner factory with `{ cluster, groupId, logger }` when the consumer is
// *created* (src/consumer/index.js), so we capture it there and never call
// consumer.connect()/run(): no group request is ever sent. That Cluster is
// configured exactly as a consumer's would be (isolation level, retries,
// timeouts, socket factory).
//
// Then: Metadata for the topic, ListOffsets (latest) for the end of each
// partition, and one Fetch loop per partition leader, each request covering
// all the partitions that leader still has to deliver.

import kafkajs from 'kafkajs';

const { PartitionAssigners } = kafkajs;

/** A kafkajs Cluster (typed `Cluster`) built for consuming, without a group. */
export function consumerCluster(kafka, { readUncommitted = true } = {}) {
  let captured = null;
  kafka.consumer({
    groupId: 'kafkaesque-groupless-reader', // never sent: no connect()/run()
    readUncommitted,
    partitionAssigners: [
      (ctx) => {
        captured = ctx.cluster;
        return PartitionAssigners.roundRobin(ctx);
      },
    ],
  });
  if (!captured) throw new Error('kafkajs did not hand the cluster to the partition assigner (kafkajs API changed?)');
  return captured;
}

/**
 * Fetch every record of `topic` from offset `fromOffset` (default 0) up to
 * the partition ends as they are when called.
 *
 *   onMessage(partition, message)   called for each record in offset order
 *                                   per partition (message.value is a Buffer)
 *
 * Returns { count, bytes, perPartition: {p: {from, to, count}}, requests, elapsedMs }.
 */
export async function fetchAll(
  kafka,
  topic,
  {
    partitions,
    fromOffset = 0,
    onMessage = () => {},
    maxBytesPerPartition = 1048576,
    maxBytes = 10485760,
    maxWaitTime = 100,
    readUncommitted = true,
    deadlineMs = 60000,
  } = {},
) {
  const cluster = consumerCluster(kafka, { readUncommitted });
  const deadline = Date.now() + deadlineMs;
  await cluster.connect();
  try {
    await cluster.addTargetTopic(topic);
    await cluster.refreshMetadata();
    const meta = cluster.findTopicPartitionMetadata(topic);
    const ids = partitions ?? meta.map((p) => p.partitionId).sort((a, b) => a - b);
    if (ids.length === 0) throw new Error(`topic ${topic} has no partitions in metadata`);

    const [ends] = await cluster.fetchTopicsOffset([
      { topic, partitions: ids.map((partition) => ({ partition })), fromBeginning: false },
    ]);
    const end = new Map(ends.partitions.map((p) => [p.partition, BigInt(p.offset)]));
    const next = new Map(ids.map((p) => [p, BigInt(fromOffset)]));
    const perPartition = Object.fromEntries(
      ids.map((p) => [p, { from: fromOffset, to: Number(end.get(p)), count: 0 }]),
    );
    let count = 0;
    let bytes = 0;
    let requests = 0;
    const isolationLevel = readUncommitted ? 0 : 1;

    const byLeader = cluster.findLeaderForPartitions(topic, ids);
    const started = performance.now();
    await Promise.all(
      Object.entries(byLeader).map(async ([nodeId, parts]) => {
        const broker = await cluster.findBroker({ nodeId });
        let remaining = parts.filter((p) => next.get(p) < end.get(p));
        while (remaining.length > 0) {
          if (Date.now() > deadline) {
            throw new Error(
              `fetchAll(${topic}): deadline passed with partitions ${remaining.join(',')} unfinished ` +
                remaining.map((p) => `${p}@${next.get(p)}/${end.get(p)}`).join(' '),
            );
          }
          requests++;
          const { responses } = await broker.fetch({
            isolationLevel,
            maxWaitTime,
            minBytes: 1,
            maxBytes,
            topics: [
              {
                topic,
                partitions: remaining.map((partition) => ({
                  partition,
                  fetchOffset: next.get(partition).toString(),
                  maxBytes: maxBytesPerPartition,
                })),
              },
            ],
          });
          for (const { partitions: ps } of responses) {
            for (const pd of ps) {
              if (pd.errorCode) throw new Error(`fetch ${topic}/${pd.partition}: error code ${pd.errorCode}`);
              let n = next.get(pd.partition);
              const stop = end.get(pd.partition);
              for (const m of pd.messages) {
                if (m.isControlRecord) continue;
                const off = BigInt(m.offset);
                // A batch may start before the requested offset; skip those.
                if (off < n || off >= stop) continue;
                n = off + 1n;
                count++;
                bytes += m.value ? m.value.length : 0;
                perPartition[pd.partition].count++;
                onMessage(pd.partition, m);
              }
              // Past the last record of a batch even if it held skipped ones.
              const last = pd.messages.length ? BigInt(pd.messages[pd.messages.length - 1].offset) + 1n : n;
              next.set(pd.partition, last > n ? (last < stop ? last : stop) : n);
            }
          }
          remaining = remaining.filter((p) => next.get(p) < end.get(p));
        }
      }),
    );
    return { count, bytes, perPartition, requests, elapsedMs: performance.now() - started };
  } finally {
    await cluster.disconnect();
  }
}
