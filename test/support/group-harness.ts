// A one-broker cluster for consumer-group fault tests: short group timeouts,
// a topic filled with messages, kafkajs members that record what they
// process, the group's committed offset, and a bounded wait. Registers its
// own beforeAll/afterAll.
import type { Consumer, Kafka, Message } from 'kafkajs';
import { startCluster, type RunningCluster } from '../../src/index.js';
import { createTopics, kafkajs, messages } from './kafkajs.js';

export interface GroupHarness {
  readonly kafka: RunningCluster;
  /** A kafkajs client on the cluster, for producers of the test's own. */
  readonly client: Kafka;
  /** Creates a one-partition topic holding `count` messages (values m0, m1, …). */
  setup(topic: string, count: number): Promise<void>;
  /** Sends `values` to `topic` in one batch. */
  produce(topic: string, values: string[]): Promise<void>;
  /** A member reading `topic` from the beginning; `seen` grows with every value it processes. */
  consume(groupId: string, topic: string, seen: string[]): Promise<Consumer>;
  /**
   * Starts one member (as `consume`) and waits until it has processed `count`
   * values and the group has committed offset `count`; returns its `seen`,
   * which goes on growing.
   */
  consumeCommitted(groupId: string, topic: string, count: number): Promise<string[]>;
  /** The group's committed offset on the topic's one partition. */
  committed(groupId: string, topic: string): number | undefined;
  until(what: string, ok: () => boolean, timeoutMs?: number): Promise<void>;
  /** Disconnects every member started so far, each bounded to 3 s. */
  leave(): Promise<void>;
}

export function groupHarness(clientId: string, seed: number): GroupHarness {
  let kafka: RunningCluster;
  let client: Kafka;
  const started: Consumer[] = [];

  async function send(topic: string, batch: Message[]): Promise<void> {
    const producer = client.producer();
    await producer.connect();
    try {
      await producer.send({ topic, messages: batch });
    } finally {
      await producer.disconnect();
    }
  }

  const harness: GroupHarness = {
    get kafka() {
      return kafka;
    },
    get client() {
      return client;
    },
    async setup(topic, count) {
      await createTopics(client, { topic, numPartitions: 1, replicationFactor: 1 });
      await send(topic, messages(count));
    },
    produce: (topic, values) => send(topic, values.map((value) => ({ value }))),
    async consume(groupId, topic, seen) {
      const c = client.consumer({ groupId, sessionTimeout: 2000, rebalanceTimeout: 4000, heartbeatInterval: 100, maxWaitTimeInMs: 100, retry: { retries: 20, initialRetryTime: 50, maxRetryTime: 500 } });
      started.push(c);
      await c.connect();
      await c.subscribe({ topic, fromBeginning: true });
      await c.run({ eachMessage: async ({ message }) => void seen.push(message.value!.toString()) });
      return c;
    },
    async consumeCommitted(groupId, topic, count) {
      const seen: string[] = [];
      await harness.consume(groupId, topic, seen);
      await harness.until(`${count} messages committed`, () => seen.length >= count && harness.committed(groupId, topic) === count);
      return seen;
    },
    committed(groupId, topic) {
      return kafka.cluster.groups.committedOffset(groupId, topic, 0);
    },
    async until(what, ok, timeoutMs = 15_000) {
      const deadline = Date.now() + timeoutMs;
      while (!ok()) {
        if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
        await new Promise((r) => setTimeout(r, 20));
      }
    },
    async leave() {
      const bounded = (p: Promise<unknown>) => Promise.race([p.catch(() => {}), new Promise((r) => setTimeout(r, 3000).unref())]);
      await Promise.all(started.splice(0).map((c) => bounded(c.disconnect())));
    },
  };

  beforeAll(async () => {
    kafka = await startCluster({ brokers: 1, seed, groupInitialRebalanceDelayMs: 0 });
    kafka.cluster.groups.config['group.min.session.timeout.ms'] = 1000;
    client = kafkajs(kafka.bootstrap, clientId);
  });
  afterAll(async () => {
    await harness.leave();
    await kafka.stop();
  });

  return harness;
}
