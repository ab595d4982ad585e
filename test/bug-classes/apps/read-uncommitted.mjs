// An order service writes orders to `orders` in transactions of five; a
// failed commit is aborted and the whole transaction written again. A
// shipping service in the same process ships each order it reads (its effect).
// Bug: the shipping consumer reads with `readUncommitted: true`, so it ships
// the orders of a transaction that is then aborted (and, when the order
// service writes them again, ships them twice).
// Fix: `readUncommitted: false` (read_committed, kafkajs's default): only
// committed orders are read.
// The fixed twin is at-least-once: a record delivered again after a rebalance
// is processed again (deduplicating it is the no-dedup class; bug-classes.ts `allows`).
import { ORDERS, consumeUntilIdle, consumerOf, effects, fixed, kafka, main, order, orderIds } from './lib.mjs';

const client = kafka('order-service');

async function writeOrders() {
  const ids = orderIds();
  let producer = client.producer({ idempotent: true, transactionalId: 'order-service-tx', maxInFlightRequests: 1 });
  await producer.connect();
  for (let i = 0; i < ids.length; ) {
    const batch = ids.slice(i, i + 5);
    const txn = await producer.transaction();
    try {
      batch.forEach((id) => effects.sent(id));
      await txn.send({ topic: ORDERS, acks: -1, messages: batch.map(order) });
      await txn.commit();
      i += batch.length;
    } catch (err) {
      effects.error(err);
      await txn.abort().catch(() => {});
      // A new producer with the same transactional id fences the old one and
      // aborts whatever it left open, then the batch is written again.
      await producer.disconnect().catch(() => {});
      producer = client.producer({ idempotent: true, transactionalId: 'order-service-tx', maxInFlightRequests: 1 });
      await producer.connect();
    }
  }
  await producer.disconnect();
}

main(async () => {
  const shipping = consumerOf(kafka('shipping'), { groupId: 'shipping', readUncommitted: !fixed });
  const writing = writeOrders();
  // The shipping consumer drains `orders` once every order is written.
  await consumeUntilIdle(shipping, ORDERS, async ({ message }) => effects.effect(message.key.toString()), { notBefore: writing });
  await writing;
});
