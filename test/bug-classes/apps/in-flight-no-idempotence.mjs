// An order service that writes a burst of orders to `orders` and resends any
// send that failed.
// Bug: the sends go out together, up to 5 requests in flight on a producer
// that is not idempotent; when one request fails and is retried (by kafkajs,
// or by the resend) while later ones succeed, its orders land after orders
// sent after them: the partition's order is not the order sent.
// Fix: an idempotent producer with one request in flight, each send awaited
// (and resent) before the next, so that no order overtakes another.
import { effects, fixed, kafka, main, order, orderIds, ORDERS } from './lib.mjs';

main(async () => {
  const producer = kafka('order-service').producer(fixed ? { idempotent: true, maxInFlightRequests: 1 } : { maxInFlightRequests: 5 });
  await producer.connect();
  const send = async (id) => {
    await producer.send({ topic: ORDERS, acks: -1, messages: [order(id)] });
    effects.acked(id);
  };
  const ids = orderIds();
  ids.forEach((id) => effects.sent(id));
  if (fixed) {
    for (const id of ids) await send(id).catch(() => send(id));
  } else {
    const results = await Promise.allSettled(ids.map(send));
    for (const [i, r] of results.entries()) if (r.status === 'rejected') await send(ids[i]);
  }
  await producer.disconnect();
});
