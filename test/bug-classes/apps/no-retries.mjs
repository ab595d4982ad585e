// A billing service: for each order read from `orders` it writes an invoice
// to `invoices`, and kafkajs commits the order's offset as the handler returns.
// Bug: the producer does not retry (`retry: { retries: 0 }`), so any
// transient error (a leader moving, a connection reset) fails the send at
// once, and the failure is logged and the order skipped: it is committed
// without its invoice, lost.
// Fix: the default retries, on an idempotent producer (so a retry after a
// lost answer stores nothing twice), and a send that fails all the same is
// thrown, so that kafkajs delivers the order again instead of committing it.
// The fixed twin is at-least-once: a record delivered again after a rebalance
// is processed again (deduplicating it is the no-dedup class; bug-classes.ts `allows`).
import { INVOICES, ORDERS, consumeUntilIdle, consumerOf, effects, fixed, kafka, main } from './lib.mjs';

main(async () => {
  const client = kafka('billing');
  const producer = client.producer(fixed ? { idempotent: true } : { retry: { retries: 0 } });
  await producer.connect();
  await consumeUntilIdle(consumerOf(client, { groupId: 'billing' }), ORDERS, async ({ message }) => {
    try {
      await producer.send({ topic: INVOICES, acks: -1, messages: [{ key: message.key, value: message.value }] });
    } catch (err) {
      effects.error(err);
      if (fixed) throw err; // kafkajs delivers the order again
      // buggy: logged and skipped
    }
  });
  await producer.disconnect();
});
