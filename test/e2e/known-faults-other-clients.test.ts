// The scenarios of kafkajs-known-faults.test.ts with librdkafka
// (confluent-kafka-python, Debian's package) and the Java client
// (kafka-clients, test/clients/java/KnownFaults.java): the same topic, leaders
// and rule, and the audit over the client's own delivery reports. Neither
// has the three faults; these tests say so, and fail if that changes.
// The Java client runs only once test/clients/java/build.sh has built it
// (it downloads kafka-clients from Maven Central, which CI does not do).
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { auditDelivery, startCluster, type RunningCluster } from '../../src/index.js';
import { applyPreset, findPreset } from '../../src/presets/index.js';
import type { AuditReport } from '../../src/audit/types.js';
import { debianPython, requireTool, runClient } from '../support/external-client.js';
import { moveToAnsweredBroker, outageCluster, readEverything, refuseOnePartition, twoPartitionTopic } from '../support/known-faults.js';

interface OtherClient {
  name: string;
  /** The command and arguments that run its producer (test/clients/rdkafka_known_faults.py's command line). */
  command: [string, ...string[]];
  /** Its debug log names each ProduceRequest (librdkafka's `--debug protocol,msg`). */
  debugLog: boolean;
  available: () => boolean;
}

const javaBuilt = 'test/clients/java/classes/KnownFaults.class';
const clients: OtherClient[] = [
  {
    name: 'librdkafka',
    command: [debianPython, 'test/clients/rdkafka_known_faults.py'],
    debugLog: true,
    available: () => {
      requireTool(debianPython);
      execFileSync(debianPython, ['-c', 'import confluent_kafka'], { stdio: 'pipe' });
      return true;
    },
  },
  {
    name: 'Java client',
    command: ['java', '-cp', 'test/clients/java/lib/*:test/clients/java/classes', 'KnownFaults'],
    debugLog: false,
    // scripts/install-test-clients.sh builds it; in CI a missing build fails rather than skips.
    available: () => {
      if (existsSync(javaBuilt)) return true;
      if (process.env.CI) throw new Error(`${javaBuilt} is missing: run scripts/install-test-clients.sh (it runs test/clients/java/build.sh)`);
      return false;
    },
  },
];

let kafka: RunningCluster;
beforeAll(async () => {
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
async function produce(client: OtherClient, topic: string, clientId: string, args: string[], on = kafka): Promise<{ delivered: Delivered[]; log: string[]; report: AuditReport }> {
  const [command, ...pre] = client.command;
  const debug = client.debugLog ? args : args.filter((a, i) => a !== '--debug' && args[i - 1] !== '--debug');
  const summary = await runClient(command, [...pre, on.bootstrap, topic, '--client-id', clientId, ...debug], 20);
  expect(summary.errors).toEqual([]);
  const delivered = summary.delivered as Delivered[];
  const acknowledged = delivered.map((d) => ({ id: d.key, topic, partition: d.partition, offset: d.offset, producer: clientId }));
  return { delivered, log: (summary.produce_log as string[] | undefined) ?? [], report: auditDelivery(on, { topics: [topic], processed: await readEverything(on, topic), acknowledged }) };
}

const anomalies = (r: AuditReport) => r.anomalies.map((a) => `${a.kind} ${a.id}`);

describe.each(clients)('$name', (client) => {
  const tag = client.name === 'librdkafka' ? 'rdk' : 'java';
  // Outside CI, the Java client's tests show as skipped until scripts/install-test-clients.sh has built javaBuilt.
  const it = client.available() ? test : test.skip;

  it('(a) a produce spanning two brokers whose partition moves to the broker that already answered: every record stored once', async () => {
    const topic = `${tag}-span-loss`;
    twoPartitionTopic(kafka, topic, [0, 1]);
    moveToAnsweredBroker(kafka, topic);
    const { delivered, log, report } = await produce(client, topic, topic, ['--prefix', 'l', '--partitions', '2', '--idempotence', '--debug', 'protocol,msg']);
    expect(kafka.chaos.rule('move-p1-to-node-0')!.fired).toBe(1);
    expect(delivered).toHaveLength(4);
    expect(anomalies(report)).toEqual([]);
    expect([0, 1].map((p) => kafka.cluster.partition(topic, p)!.highWatermark)).toEqual([2, 2]);
    // Partition 1 went to node 1, was refused, and was resent to node 0, which had already answered for partition 0.
    if (client.debugLog) {
      const batches = log.filter((l) => l.includes('Produce MessageSet')).map((l) => l.match(new RegExp(`/(\\d): ${topic} \\[(\\d)\\]`))!).map(([, node, partition]) => `p${partition} to node ${node}`);
      expect(batches).toEqual(expect.arrayContaining(['p0 to node 0', 'p1 to node 1', 'p1 to node 0']));
    }
  }, 30_000);

  it('(a) the broker-outage preset: a leader stops under the first produce; every record delivered and stored', async () => {
    const outage = await outageCluster();
    try {
      const { delivered, report } = await produce(client, 'orders', `${tag}-outage`, ['--prefix', 's', '--batches', '10', '--per-batch', '12', '--partitions', '6', '--linger-ms', '5', '--gap', '0.02', '--idempotence'], outage);
      expect(outage.chaos.events().filter((e) => e.kind === 'node-stopped')).toHaveLength(1);
      expect(delivered).toHaveLength(120);
      expect(anomalies(report)).toEqual([]);
    } finally {
      await outage.stop();
    }
  }, 30_000);

  it('(a) one partition refused after the other was stored, without idempotence: only the refused one is resent', async () => {
    const topic = `${tag}-span-dup`;
    twoPartitionTopic(kafka, topic, [0, 0]);
    refuseOnePartition(kafka, topic);
    const { delivered, report } = await produce(client, topic, topic, ['--prefix', 'd', '--partitions', '2']);
    expect(kafka.chaos.rule('move-p1-to-node-1')!.fired).toBe(1);
    expect(delivered).toHaveLength(4);
    expect(anomalies(report)).toEqual([]);
    expect([0, 1].map((p) => kafka.cluster.partition(topic, p)!.highWatermark)).toEqual([2, 2]);
  }, 30_000);

  it('(b) two batches in flight on one idempotent producer under lost-ack: each stored once, where the reports say', async () => {
    const topic = `${tag}-concurrent`;
    kafka.cluster.createTopic(topic, { numPartitions: 1, replicationFactor: 3 });
    applyPreset(kafka.chaos, findPreset('lost-ack')!);
    // The lost answer comes (and the connection resets) 200 ms late, so that the second batch is surely in flight by then.
    kafka.chaos.addRule({ id: 'late', match: { api: 'Produce' }, trigger: { type: 'nth', n: 1 }, action: { type: 'delay', ms: 200 } });
    const { delivered, log, report } = await produce(client, topic, topic, ['--prefix', 'b', '--batches', '2', '--per-batch', '2', '--linger-ms', '0', '--idempotence', '--debug', 'protocol,msg']);
    expect(kafka.chaos.rules().map((r) => r.fired)).toEqual([1, 1]);
    expect(delivered).toHaveLength(4);
    expect(anomalies(report)).toEqual([]);
    expect(kafka.cluster.partition(topic, 0)!.highWatermark).toBe(4);
    // Some batch reached the proxy again after the lost answer: the producer resent what was in flight.
    const batches = [...kafka.cluster.partition(topic, 0)!.log.batchesFrom(0)].map((b) => [b.baseOffset, b.lastOffset]);
    expect(kafka.chaos.rules()[0]!.matched).toBeGreaterThan(batches.length);
    if (client.debugLog) {
      // librdkafka: two batches of two records, each stored once, each sent twice (the second was in
      // flight when the connection reset). The Java client may cut the records into other batches.
      expect(batches).toEqual([[0, 1], [2, 3]]);
      expect(kafka.chaos.rules()[0]!.matched).toBe(4);
      // Resent with their own sequence numbers (kafkajs hands the lost batch's back, and the other send takes them).
      const sent = log.filter((l) => /Produce MessageSet|Received ProduceResponse/.test(l)).map((l) => l.match(/BaseSeq \d+|Received/)![0]);
      expect(sent).toEqual(['BaseSeq 0', 'BaseSeq 2', 'BaseSeq 0', 'BaseSeq 2', 'Received', 'Received']);
    }
  }, 30_000);

  it('(c) the first Metadata and InitProducerId connections reset: the idempotent producer reconnects and delivers', async () => {
    const topic = `${tag}-connect`;
    kafka.cluster.createTopic(topic, { numPartitions: 1, replicationFactor: 3 });
    for (const api of ['Metadata', 'InitProducerId']) kafka.chaos.addRule({ id: `reset-${api}`, match: { api, clientId: topic }, trigger: { type: 'nth', n: 1 }, action: { type: 'close' } });
    const { delivered, report } = await produce(client, topic, topic, ['--prefix', 'c', '--per-batch', '2', '--idempotence']);
    expect(kafka.chaos.rules().map((r) => [r.id, r.fired])).toEqual([['reset-Metadata', 1], ['reset-InitProducerId', 1]]);
    expect(delivered).toHaveLength(2);
    expect(report.ok).toBe(true);
  }, 30_000);
});
