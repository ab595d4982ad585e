import { Cluster } from '../../src/broker/cluster.js';
import { createCoordinators } from '../../src/broker/cluster-coordinators.js';
import { ManualClock } from '../../src/broker/clock.js';
import { silentLogger } from '../../src/logger.js';
import { buildRecordBatch } from '../../src/protocol/record-batch.js';
import { appendRecords } from '../../src/broker/append.js';

/** A cluster model on a manual clock, without any sockets. */
export function modelCluster(opts: { brokers?: number; replicationLagMs?: number; minInsyncReplicas?: number } = {}) {
  const clock = new ManualClock();
  const n = opts.brokers ?? 3;
  const cluster = new Cluster({
    nodeIds: Array.from({ length: n }, (_, i) => i),
    clusterId: 'test',
    autoCreateTopics: true,
    defaultPartitions: 1,
    defaultReplicationFactor: Math.min(3, n),
    minInsyncReplicas: opts.minInsyncReplicas ?? 1,
    replicationLagMs: opts.replicationLagMs ?? 0,
    clock,
    logger: silentLogger,
    coordinators: createCoordinators,
  });
  return { cluster, clock };
}

/** Appends `count` records as one batch to a partition's leader, as Produce v7 would. */
export function produce(cluster: Cluster, topic: string, partition: number, count = 1, acks = -1) {
  const t = cluster.topic(topic)!;
  const p = t.partitions[partition]!;
  const records = Array.from({ length: count }, (_, i) => ({ value: Buffer.from(`v${i}`) }));
  return appendRecords(cluster, t, p, { records: buildRecordBatch(records), produceVersion: 7, acks, clientId: 'test' });
}
