// An order service that writes orders to `orders` without waiting for each
// answer before the next send, and resends any send that failed.
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
  const [first, ...ids] = orderIds();
  // The first order alone: kafkajs then knows the topic's leader.
  effects.sent(first);
  await send(first);
  ids.forEach((id) => effects.sent(id));
  if (fixed) {
    for (const id of ids) await send(id).catch(() => send(id));
  } else {
    // Each send is started before the previous one is answered (a turn of the event loop apart: kafkajs itself
    // puts sends started in the same turn on the wire in an order of its own), so up to 5 requests are in flight.
    const sends = [];
    for (const id of ids) {
      sends.push(send(id));
      await new Promise((resolve) => setImmediate(resolve));
    }
    const results = await Promise.allSettled(sends);
    for (const [i, r] of results.entries()) if (r.status === 'rejected') await send(ids[i]);
  }
  await producer.disconnect();
});
