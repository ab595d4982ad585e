// kafkajs helpers: a client with logging off, and a low-level fetch through
// kafkajs's own Broker (its Fetch encoder and decoder), which needs no
// consumer group.
import { Kafka, logLevel, type Message } from 'kafkajs';

export function kafkajs(bootstrap: string, clientId = 'kafkaesque-test'): Kafka {
  return new Kafka({ clientId, brokers: bootstrap.split(','), logLevel: logLevel.NOTHING, retry: { retries: 5, initialRetryTime: 50 } });
}

export interface FetchedMessage {
  offset: string;
  key: string | null;
  value: string | null;
  headers: Record<string, unknown>;
}

/** Reads a whole partition from `from` up to its high watermark, following leadership. */
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
      for (const m of fresh) {
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
