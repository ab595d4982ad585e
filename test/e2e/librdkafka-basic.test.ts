// librdkafka (confluent-kafka-python and kcat, from Debian's packages)
// against a 3-broker cluster: metadata, produce with acks=all, and reading
// everything back without a consumer group. librdkafka is stricter than
// kafkajs about ApiVersions ranges, flexible versions and batch headers.
import { execFileSync } from 'node:child_process';
import { startCluster, type RunningCluster } from '../../src/index.js';
import { debianPython, requireTool, runClient } from '../support/external-client.js';

let kafka: RunningCluster;
beforeAll(async () => {
  requireTool(debianPython);
  execFileSync(debianPython, ['-c', 'import confluent_kafka'], { stdio: 'pipe' });
  requireTool('/usr/bin/kcat');
  kafka = await startCluster({ brokers: 3, topics: [{ name: 'rdk', partitions: 4 }, { name: 'kcat', partitions: 1 }] });
});
afterAll(() => kafka?.stop());

test('confluent-kafka-python lists metadata, produces with acks=all and reads back in order', async () => {
  // Idempotence needs InitProducerId, which the next milestone brings.
  const summary = await runClient(debianPython, ['test/clients/rdkafka_basic.py', kafka.bootstrap, 'rdk', '-n', '500', '--partitions', '4', '--brokers', '3', '--no-idempotence']);
  expect(summary.errors).toEqual([]);
  expect(summary.ok).toBe(true);
  const stored = kafka.cluster.topic('rdk')!.partitions.reduce((n, p) => n + p.highWatermark, 0);
  expect(stored).toBe(500);
}, 90_000);

test('kcat lists, produces and consumes', async () => {
  const summary = await runClient('node', ['test/clients/kcat_basic.mjs', kafka.bootstrap, 'kcat', '-n', '100', '--no-idempotence']);
  expect(summary.errors).toEqual([]);
  expect(summary.ok).toBe(true);
  expect(kafka.cluster.partition('kcat', 0)!.highWatermark).toBe(100);
}, 90_000);
