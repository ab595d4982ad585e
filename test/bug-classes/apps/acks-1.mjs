// An order service that writes each order to `orders`, awaiting each send.
// Bug: `acks: 1`: the leader acknowledges an order as soon as it has it,
// before its followers do; when the leader fails before they catch up, the
// new leader does not have the order and it is gone, acknowledged.
// Fix: `acks: -1` (all in-sync replicas), with an idempotent producer so that
// retries add no duplicate.
import { effects, fixed, kafka, main, order, orderIds, ORDERS } from './lib.mjs';

main(async () => {
  const producer = kafka('order-service').producer({ idempotent: fixed });
  await producer.connect();
  for (const id of orderIds()) {
    effects.sent(id);
    await producer.send({ topic: ORDERS, acks: fixed ? -1 : 1, messages: [order(id)] });
    effects.acked(id);
  }
  await producer.disconnect();
});
