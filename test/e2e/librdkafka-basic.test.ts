// librdkafka (confluent-kafka-python and kcat, from Debian's packages)
// against a 3-broker cluster: metadata, produce with acks=all, and reading
// everything back without a consumer group; idempotent and transactional
// producers. librdkafka is stricter than
// kafkajs about ApiVersions ranges, flexible versions and batch headers.
import { execFileSync } from 'node:child_process';
import { startCluster, type RunningCluster } from '../../src/index.js';
import { debianPython, requireTool, runClient } from '../support/external-client.js';

let kafka: RunningCluster;
beforeAll(async () => {
  requireTool(debianPython);
  execFileSync(debianPython, ['-c', 'import confluent_kafka'], { stdio: 'pipe' });
  requireTool('/usr/bin/kcat');
  kafka = await startCluster({ brokers: 3, topics: [{ name: 'rdk', partitions: 4 }, { name: 'kcat', partitions: 1 }, { name: 'rdk-txn', partitions: 1 }] });
});
afterAll(() => kafka?.stop());

test('confluent-kafka-python lists metadata, produces with acks=all and idempotence, and reads back in order', async () => {
  const summary = await runClient(debianPython, ['test/clients/rdkafka_basic.py', kafka.bootstrap, 'rdk', '-n', '500', '--partitions', '4', '--brokers', '3']);
  expect(summary.errors).toEqual([]);
  expect(summary.ok).toBe(true);
  const partitions = kafka.cluster.topic('rdk')!.partitions;
  expect(partitions.reduce((n, p) => n + p.highWatermark, 0)).toBe(1000); // 500 plain + 500 idempotent
  expect(partitions.some((p) => p.producers.producers().length > 0)).toBe(true);
}, 90_000);

test('confluent-kafka-python commits and aborts transactions, with offsets, and read_committed skips the aborted one', async () => {
  const summary = await runClient(debianPython, ['test/clients/rdkafka_txn.py', kafka.bootstrap, 'rdk-txn', '-n', '20']);
  expect(summary).toMatchObject({ ok: true, errors: [], committed_offset: 3, read_committed: 21, read_uncommitted: 41 });
  expect(kafka.cluster.partition('rdk-txn', 0)!.producers.aborted).toHaveLength(1);
}, 90_000);

test('kcat lists, produces and consumes', async () => {
  const summary = await runClient('node', ['test/clients/kcat_basic.mjs', kafka.bootstrap, 'kcat', '-n', '100']);
  expect(summary.errors).toEqual([]);
  expect(summary.ok).toBe(true);
  expect(kafka.cluster.partition('kcat', 0)!.highWatermark).toBe(200); // acks=all, then idempotent
}, 90_000);
