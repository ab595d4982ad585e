// The order service with the three classic bugs of ../buggy/service.ts fixed,
// each fix marked FIX. Delivery is at least once (an order may arrive more
// than once); a second delivery of an order changes nothing (README.md says
// which gap remains).
import { parseOrder, resultOf, type Order } from '../order.js';
import type { OrderService, OrderServiceConfig } from '../service.js';

export async function startOrderService(config: OrderServiceConfig): Promise<OrderService> {
  const { kafka, store, ordersTopic, resultsTopic, groupId } = config;
  // FIX 3, idempotent producer: the broker knows a retry by its producer id,
  // epoch and sequence number, and answers it with the offset of the copy it
  // already has. One request in flight, as KIP-98's first design of
  // idempotence has it: kafkajs does not limit in-flight requests by itself.
  const producer = kafka.producer({ idempotent: true, maxInFlightRequests: 1 });
  const consumer = kafka.consumer({ ...config.consumer, groupId });
  let handled = 0;

  async function handle(order: Order): Promise<void> {
    // FIX 2, dedup by order id: the row is keyed by the order id, so an order
    // delivered again finds the row of its first delivery …
    const row = store.insertOnce(order);
    // … and if its result went out then, there is nothing left to do.
    if (row.resultSent) return;
    await producer.send({ topic: resultsTopic, acks: -1, messages: [{ key: order.orderId, value: JSON.stringify(resultOf(order)) }] });
    store.markResultSent(order.orderId);
  }

  await producer.connect();
  await consumer.connect();
  await consumer.subscribe({ topic: ordersTopic, fromBeginning: true });
  await consumer.run({
    autoCommit: false,
    // We say which offsets are done, not kafkajs at the end of the batch.
    eachBatchAutoResolve: false,
    eachBatch: async ({ batch, resolveOffset, heartbeat, isRunning, isStale }) => {
      for (const message of batch.messages) {
        if (!isRunning() || isStale()) break;
        await handle(parseOrder(message));
        // FIX 1, commit after processing: an order's offset is committed once
        // the order is done. If the instance stops here or anywhere before, the
        // next owner of the partition starts at the first order not done.
        resolveOffset(message.offset);
        await consumer.commitOffsets([{ topic: batch.topic, partition: batch.partition, offset: String(Number(message.offset) + 1) }]);
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
