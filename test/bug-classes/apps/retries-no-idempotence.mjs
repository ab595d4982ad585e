// An order service that writes each order to `orders`, awaiting each send.
// Bug: kafkajs retries a failed send (5 times by default) but the producer is
// not idempotent, so when the broker stored a batch and its answer was lost,
// the retry stores the orders a second time: duplicates in the log.
// Fix: `idempotent: true`; the broker recognises the retry by its producer
// id, epoch and sequence and answers with the original offsets.
import { effects, fixed, kafka, main, order, orderIds, ORDERS } from './lib.mjs';

main(async () => {
  const producer = kafka('order-service').producer({ idempotent: fixed });
  await producer.connect();
  for (const id of orderIds()) {
    effects.sent(id);
    await producer.send({ topic: ORDERS, acks: -1, messages: [order(id)] });
    effects.acked(id);
  }
  await producer.disconnect();
});
