// A billing service: for each order read from `orders` it writes an invoice
// to `invoices` (idempotent producer, retries on), and kafkajs commits the
// order's offset as the handler returns.
// Bug: the handler sends the invoice without awaiting it, so the order's
// offset is committed before the invoice is acknowledged; if the send fails
// for good, or the service stops while it is in flight, the order is
// committed without its invoice and never read again: lost.
// Fix: await the send, so that the offset is committed only after the invoice
// is written (a failure throws, and kafkajs delivers the order again).
// The fixed twin is at-least-once: a record delivered again after a rebalance
// is processed again (deduplicating it is the no-dedup class; bug-classes.ts `allows`).
import { INVOICES, ORDERS, consumeUntilIdle, consumerOf, effects, fixed, kafka, main } from './lib.mjs';

main(async () => {
  const client = kafka('billing');
  const producer = client.producer({ idempotent: true });
  await producer.connect();
  await consumeUntilIdle(consumerOf(client, { groupId: 'billing' }), ORDERS, async ({ message }) => {
    const sending = producer.send({ topic: INVOICES, acks: -1, messages: [{ key: message.key, value: message.value }] });
    if (fixed) await sending;
    else sending.catch((err) => effects.error(err)); // fire and forget
  });
  await producer.disconnect();
});
