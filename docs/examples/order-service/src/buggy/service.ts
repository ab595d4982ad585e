// The order service as it is often first written: read an order, charge it
// in the store, announce the result. It works on a good day. It has the three
// classic bugs, each marked BUG here and fixed in ../fixed/service.ts.
import { parseOrder, resultOf } from '../order.js';
import type { OrderService, OrderServiceConfig } from '../service.js';

export async function startOrderService(config: OrderServiceConfig): Promise<OrderService> {
  const { kafka, store, ordersTopic, resultsTopic, groupId } = config;
  // BUG 3, no idempotence: a kafkajs producer is not idempotent unless asked.
  // When the broker stores a result but its ack is lost, the retry stores it again.
  const producer = kafka.producer();
  const consumer = kafka.consumer({ ...config.consumer, groupId });
  let handled = 0;

  await producer.connect();
  await consumer.connect();
  await consumer.subscribe({ topic: ordersTopic, fromBeginning: true });
  await consumer.run({
    autoCommit: false,
    eachBatch: async ({ batch, heartbeat, isRunning, isStale }) => {
      // BUG 1, commit before processing: the whole batch is marked done as soon
      // as it arrives. If the instance stops before the end of the batch (a
      // deploy, a crash), the rest of it is never processed by anyone.
      const next = String(Number(batch.lastOffset()) + 1);
      await consumer.commitOffsets([{ topic: batch.topic, partition: batch.partition, offset: next }]);

      for (const message of batch.messages) {
        if (!isRunning() || isStale()) break;
        const order = parseOrder(message);
        // BUG 2, no dedup: an order delivered again is charged again and gets a second result.
        store.insert(order);
        await producer.send({ topic: resultsTopic, acks: -1, messages: [{ key: order.orderId, value: JSON.stringify(resultOf(order)) }] });
        await heartbeat();
        handled++;
      }
    },
  });

  return {
    get handled() {
      return handled;
    },
    async stop() {
      await consumer.disconnect();
      await producer.disconnect();
    },
  };
}
