// The scenarios of kafkajs-known-faults.test.ts with librdkafka
// (confluent-kafka-python, Debian's package): the same topic, leaders and
// rule, and the audit over librdkafka's own delivery reports. librdkafka has
// none of the three faults; these tests say so, and fail if that changes.
import { execFileSync } from 'node:child_process';
import { auditDelivery, startCluster, type RunningCluster } from '../../src/index.js';
import { applyPreset, findPreset } from '../../src/presets/index.js';
import type { AuditReport } from '../../src/audit/types.js';
import { debianPython, requireTool, runClient } from '../support/external-client.js';
import { moveToAnsweredBroker, readEverything, refuseOnePartition, twoPartitionTopic } from '../support/known-faults.js';

let kafka: RunningCluster;
beforeAll(async () => {
  requireTool(debianPython);
  execFileSync(debianPython, ['-c', 'import confluent_kafka'], { stdio: 'pipe' });
  kafka = await startCluster({ brokers: 3, seed: 20 });
});
afterEach(() => kafka.chaos.clearRules());
afterAll(() => kafka?.stop());

interface Delivered {
  key: string;
  partition: number;
  offset: number;
}

/** Runs the producer script; returns its delivery reports, its ProduceRequest debug lines (with --debug) and the audit over the reports. */
async function produce(topic: string, clientId: string, args: string[]): Promise<{ delivered: Delivered[]; log: string[]; report: AuditReport }> {
  const summary = await runClient(debianPython, ['test/clients/rdkafka_known_faults.py', kafka.bootstrap, topic, '--client-id', clientId, ...args], 20);
  expect(summary.errors).toEqual([]);
  const delivered = summary.delivered as Delivered[];
  const acknowledged = delivered.map((d) => ({ id: d.key, topic, partition: d.partition, offset: d.offset, producer: clientId }));
  return { delivered, log: (summary.produce_log as string[] | undefined) ?? [], report: auditDelivery(kafka, { topics: [topic], processed: await readEverything(kafka, topic), acknowledged }) };
}

const anomalies = (r: AuditReport) => r.anomalies.map((a) => `${a.kind} ${a.id}`);

test('(a) a produce spanning two brokers whose partition moves to the broker that already answered: every record stored once', async () => {
  const topic = 'rdk-span-loss';
  twoPartitionTopic(kafka, topic, [0, 1]);
  moveToAnsweredBroker(kafka, topic);
  const { delivered, log, report } = await produce(topic, 'rdk-span-loss', ['--prefix', 'l', '--partitions', '2', '--idempotence', '--debug', 'protocol,msg']);
  expect(kafka.chaos.rule('move-p1-to-node-0')!.fired).toBe(1);
  expect(delivered).toHaveLength(4);
  expect(anomalies(report)).toEqual([]);
  expect([0, 1].map((p) => kafka.cluster.partition(topic, p)!.highWatermark)).toEqual([2, 2]);
  // Partition 1 went to node 1, was refused, and was resent to node 0, which had already answered for partition 0.
  const batches = log.filter((l) => l.includes('Produce MessageSet')).map((l) => l.match(/\/(\d): rdk-span-loss \[(\d)\]/)!).map(([, node, partition]) => `p${partition} to node ${node}`);
  expect(batches).toEqual(expect.arrayContaining(['p0 to node 0', 'p1 to node 1', 'p1 to node 0']));
}, 30_000);

test('(a) one partition refused after the other was stored, without idempotence: only the refused one is resent', async () => {
  const topic = 'rdk-span-dup';
  twoPartitionTopic(kafka, topic, [0, 0]);
  refuseOnePartition(kafka, topic);
  const { delivered, report } = await produce(topic, 'rdk-span-dup', ['--prefix', 'd', '--partitions', '2']);
  expect(kafka.chaos.rule('move-p1-to-node-1')!.fired).toBe(1);
  expect(delivered).toHaveLength(4);
  expect(anomalies(report)).toEqual([]);
  expect([0, 1].map((p) => kafka.cluster.partition(topic, p)!.highWatermark)).toEqual([2, 2]);
}, 30_000);

test('(b) two batches in flight on one idempotent producer under lost-ack: each stored once, where the reports say', async () => {
  const topic = 'rdk-concurrent';
  kafka.cluster.createTopic(topic, { numPartitions: 1, replicationFactor: 3 });
  applyPreset(kafka.chaos, findPreset('lost-ack')!);
  const { delivered, log, report } = await produce(topic, 'rdk-concurrent', ['--prefix', 'b', '--batches', '2', '--per-batch', '2', '--linger-ms', '0', '--idempotence', '--debug', 'protocol,msg']);
  expect(kafka.chaos.rules()[0]!.fired).toBe(1);
  expect(delivered).toHaveLength(4);
  expect(anomalies(report)).toEqual([]);
  expect(kafka.cluster.partition(topic, 0)!.highWatermark).toBe(4);
  // Both batches were in flight when the connection reset, and each was resent with its own sequence numbers.
  const sent = log.filter((l) => /Produce MessageSet|Received ProduceResponse/.test(l)).map((l) => l.match(/BaseSeq \d+|Received/)![0]);
  expect(sent).toEqual(['BaseSeq 0', 'BaseSeq 2', 'BaseSeq 0', 'BaseSeq 2', 'Received', 'Received']);
}, 30_000);

test('(c) the first Metadata and InitProducerId connections reset: the idempotent producer reconnects and delivers', async () => {
  const topic = 'rdk-connect';
  kafka.cluster.createTopic(topic, { numPartitions: 1, replicationFactor: 3 });
  for (const api of ['Metadata', 'InitProducerId']) kafka.chaos.addRule({ id: `reset-${api}`, match: { api, clientId: 'rdk-connect' }, trigger: { type: 'nth', n: 1 }, action: { type: 'close' } });
  const { delivered, report } = await produce(topic, 'rdk-connect', ['--prefix', 'c', '--per-batch', '2', '--idempotence']);
  expect(kafka.chaos.rules().map((r) => [r.id, r.fired])).toEqual([['reset-Metadata', 1], ['reset-InitProducerId', 1]]);
  expect(delivered).toHaveLength(2);
  expect(report.ok).toBe(true);
}, 30_000);
