// kafkajs helpers: a client with logging off, topics made through its admin,
// a group member that reads a topic until told to stop, and a low-level
// fetch through kafkajs's own Broker (its Fetch encoder and decoder), which
// needs no consumer group.
import { createRequire } from 'node:module';
import { Kafka, logLevel, type Consumer, type ConsumerConfig, type EachMessagePayload, type ITopicConfig, type Message } from 'kafkajs';

/** kafkajs's consumer-side filter of aborted transactions (not exported by the package). */
const filterAbortedMessages: (batch: { messages: any[]; abortedTransactions: any[] }) => any[] = createRequire(import.meta.url)('kafkajs/src/consumer/filterAbortedMessages.js');

export function kafkajs(bootstrap: string, clientId = 'kafkaesque-test'): Kafka {
  return new Kafka({ clientId, brokers: bootstrap.split(','), logLevel: logLevel.NOTHING, retry: { retries: 5, initialRetryTime: 50 } });
}

/** Creates topics through a kafkajs admin, which is disconnected afterwards. */
export async function createTopics(kafka: Kafka, ...topics: ITopicConfig[]): Promise<void> {
  const admin = kafka.admin();
  await admin.connect();
  try {
    await admin.createTopics({ topics });
  } finally {
    await admin.disconnect();
  }
}

/**
 * Runs `consumer` on `topic` from the beginning, handing it each message, until
 * `each` returns true or `timeoutMs` passes; then the consumer leaves.
 * Resolves whether `each` ended it.
 */
export async function consumeUntil(consumer: Consumer, topic: string, each: (payload: EachMessagePayload) => boolean, timeoutMs: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  try {
    await consumer.connect();
    await consumer.subscribe({ topic, fromBeginning: true });
    return await new Promise<boolean>((resolve, reject) => {
      timer = setTimeout(() => resolve(false), timeoutMs);
      consumer
        .run({
          eachMessage: async (payload) => {
            if (each(payload)) resolve(true);
          },
        })
        .catch(reject);
    });
  } finally {
    clearTimeout(timer);
    await consumer.disconnect();
  }
}

/**
 * One group member reads `topic` from the beginning until it has processed
 * `count` values, then leaves; returns the values in the order processed.
 * Rejects when they have not all come within `timeoutMs`.
 */
export async function readInGroup(kafka: Kafka, topic: string, count: number, config: ConsumerConfig, timeoutMs = 20_000): Promise<string[]> {
  const seen: string[] = [];
  const each = ({ message }: EachMessagePayload) => {
    seen.push(message.value!.toString());
    return seen.length === count;
  };
  const all = await consumeUntil(kafka.consumer(config), topic, each, timeoutMs);
  if (!all) throw new Error(`consumed ${seen.length} of ${count} in ${timeoutMs} ms`);
  return seen;
}

export interface FetchedMessage {
  offset: string;
  key: string | null;
  value: string | null;
  headers: Record<string, unknown>;
}

/** Reads a whole partition as a consumer would see it (no transaction markers; with isolationLevel 1, no aborted records) from `from` up to its high watermark, following leadership. */
export async function fetchPartition(kafka: Kafka, topic: string, partition: number, from = 0, isolationLevel = 0): Promise<FetchedMessage[]> {
  const create = Object.getOwnPropertySymbols(kafka).find((s) => s.description === 'private:Kafka:createCluster');
  const cluster = (kafka as any)[create!]({ metadataMaxAge: 0, allowAutoTopicCreation: false, isolationLevel });
  await cluster.connect();
  try {
    await cluster.addTargetTopic(topic);
    await cluster.refreshMetadata();
    const out: FetchedMessage[] = [];
    let offset = from;
    for (let round = 0; round < 10_000; round++) {
      const leader = cluster.findTopicPartitionMetadata(topic).find((p: any) => p.partitionId === partition).leader;
      const broker = await cluster.findBroker({ nodeId: String(leader) });
      const res = await broker.fetch({
        isolationLevel,
        maxWaitTime: 0,
        topics: [{ topic, partitions: [{ partition, fetchOffset: String(offset), maxBytes: 1 << 20 }] }],
      });
      const p = res.responses[0].partitions[0];
      if (p.errorCode !== 0) throw new Error(`fetch error ${p.errorCode}`);
      const fresh = p.messages.filter((m: any) => Number(m.offset) >= offset);
      // What a consumer sees: read_committed leaves aborted transactions out (kafkajs's own filter), and nobody sees the markers.
      const seen = isolationLevel === 1 ? filterAbortedMessages({ messages: fresh, abortedTransactions: p.abortedTransactions }) : fresh;
      for (const m of seen.filter((m: any) => !m.isControlRecord)) {
        out.push({ offset: m.offset, key: m.key?.toString() ?? null, value: m.value?.toString() ?? null, headers: m.headers });
      }
      if (fresh.length) offset = Number(fresh[fresh.length - 1].offset) + 1;
      if (offset >= Number(p.highWatermark) || fresh.length === 0) return out;
    }
    throw new Error('fetch did not finish');
  } finally {
    await cluster.disconnect();
  }
}

export function messages(count: number, prefix = 'm'): Message[] {
  return Array.from({ length: count }, (_, i) => ({ key: `k${i}`, value: `${prefix}${i}`, headers: { seq: String(i) } }));
}
