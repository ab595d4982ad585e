// A one-broker cluster for consumer-group fault tests: short group timeouts,
// a topic filled with messages, kafkajs members that record what they
// process, and a bounded wait. Registers its own beforeAll/afterAll.
import type { Consumer, Kafka } from 'kafkajs';
import { startCluster, type RunningCluster } from '../../src/index.js';
import { kafkajs, messages } from './kafkajs.js';

export interface GroupHarness {
  readonly kafka: RunningCluster;
  /** A kafkajs client on the cluster, for producers of the test's own. */
  readonly client: Kafka;
  /** Creates a one-partition topic holding `count` messages. */
  setup(topic: string, count: number): Promise<void>;
  /** A member reading `topic` from the beginning; `seen` grows with every value it processes. */
  consume(groupId: string, topic: string, seen: string[]): Promise<Consumer>;
  until(what: string, ok: () => boolean, timeoutMs?: number): Promise<void>;
}

export function groupHarness(clientId: string, seed: number): GroupHarness {
  let kafka: RunningCluster;
  let client: Kafka;
  const started: Consumer[] = [];

  beforeAll(async () => {
    kafka = await startCluster({ brokers: 1, seed, groupInitialRebalanceDelayMs: 0 });
    kafka.cluster.groups.config['group.min.session.timeout.ms'] = 1000;
    client = kafkajs(kafka.bootstrap, clientId);
  });
  afterAll(async () => {
    const bounded = (p: Promise<unknown>) => Promise.race([p.catch(() => {}), new Promise((r) => setTimeout(r, 3000).unref())]);
    await Promise.all(started.map((c) => bounded(c.disconnect())));
    await kafka.stop();
  });

  return {
    get kafka() {
      return kafka;
    },
    get client() {
      return client;
    },
    async setup(topic, count) {
      const admin = client.admin();
      await admin.connect();
      await admin.createTopics({ topics: [{ topic, numPartitions: 1, replicationFactor: 1 }] });
      await admin.disconnect();
      const producer = client.producer();
      await producer.connect();
      await producer.send({ topic, messages: messages(count) });
      await producer.disconnect();
    },
    async consume(groupId, topic, seen) {
      const c = client.consumer({ groupId, sessionTimeout: 2000, rebalanceTimeout: 4000, heartbeatInterval: 100, maxWaitTimeInMs: 100, retry: { retries: 20, initialRetryTime: 50, maxRetryTime: 500 } });
      started.push(c);
      await c.connect();
      await c.subscribe({ topic, fromBeginning: true });
      await c.run({ eachMessage: async ({ message }) => void seen.push(message.value!.toString()) });
      return c;
    },
    async until(what, ok, timeoutMs = 15_000) {
      const deadline = Date.now() + timeoutMs;
      while (!ok()) {
        if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
        await new Promise((r) => setTimeout(r, 20));
      }
    },
  };
}
