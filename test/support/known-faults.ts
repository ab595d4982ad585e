// The scenarios of docs/clients.md, shared by the kafkajs and librdkafka
// tests: the topic and leaders each one needs, the rule that springs it at
// the right moment, and what the consumer side read back, for the audit.
import { startCluster, type RunningCluster } from '../../src/index.js';
import { applyPreset, findPreset } from '../../src/presets/index.js';
import type { ProcessedRecord } from '../../src/audit/types.js';
import { fetchPartition, kafkajs } from './kafkajs.js';

/** A two-partition topic with three replicas, partition 0 led by `leaders[0]`, partition 1 by `leaders[1]`. */
export function twoPartitionTopic(kafka: RunningCluster, topic: string, leaders: [number, number]): void {
  const created = kafka.cluster.createTopic(topic, { numPartitions: 2, replicationFactor: 3 });
  if (!created.ok) throw new Error(`cannot create ${topic}: ${created.message}`);
  leaders.forEach((nodeId, partition) => {
    if (kafka.cluster.partition(topic, partition)!.leader === nodeId) return;
    const moved = kafka.cluster.electLeader(topic, partition, { nodeId });
    if (!moved.ok) throw new Error(`cannot move ${topic}-${partition} to node ${nodeId}: ${moved.message}`);
  });
}

/**
 * Fault (a), loss: the send's part for node 1 meets a leader move of
 * partition 1 to node 0, which has already answered for partition 0. Node 1
 * refuses partition 1 with NOT_LEADER_OR_FOLLOWER; its answer is held back a
 * little so that node 0's answer surely comes first.
 */
export function moveToAnsweredBroker(kafka: RunningCluster, topic: string): void {
  kafka.chaos.addRule({ id: 'move-p1-to-node-0', match: { api: 'Produce', nodeId: 1, topic }, trigger: { type: 'nth', n: 1 }, action: { type: 'move-leader', topic, partition: 1, to: 0 } });
  kafka.chaos.addRule({ id: 'node-1-answers-last', match: { api: 'Produce', nodeId: 1, topic }, trigger: { type: 'nth', n: 1 }, action: { type: 'delay', ms: 100 } });
}

/**
 * Fault (a) as the broker-outage preset springs it, on a cluster of its own
 * (the node the third Produce goes to stops): a six-partition topic `orders`, each
 * node leading two, and the preset applied. The caller stops the cluster.
 */
export async function outageCluster(): Promise<RunningCluster> {
  const kafka = await startCluster({ brokers: 3, seed: 20, topics: [{ name: 'orders', partitions: 6, replicationFactor: 3 }] });
  applyPreset(kafka.chaos, findPreset('broker-outage')!);
  return kafka;
}

/**
 * Fault (a), duplicate: one Produce to node 0 holds both partitions; partition
 * 1's leadership moves to node 1 as it arrives, so the broker stores
 * partition 0 and refuses partition 1 in the same answer.
 */
export function refuseOnePartition(kafka: RunningCluster, topic: string): void {
  kafka.chaos.addRule({ id: 'move-p1-to-node-1', match: { api: 'Produce', nodeId: 0, topic }, trigger: { type: 'nth', n: 1 }, action: { type: 'move-leader', topic, partition: 1, to: 1 } });
}

/** What a consumer that reads every partition of `topic` from the start processes (kafkajs's own Fetch, through the proxy). */
export async function readEverything(kafka: RunningCluster, topic: string): Promise<ProcessedRecord[]> {
  const client = kafkajs(kafka.bootstrap, 'reader');
  const out: ProcessedRecord[] = [];
  for (const p of kafka.cluster.topic(topic)!.partitions) {
    for (const m of await fetchPartition(client, topic, p.index)) out.push({ topic, partition: p.index, offset: Number(m.offset) });
  }
  return out;
}
