// A billing service, exactly once: for each order read from `orders` it writes
// an invoice to `invoices` in a transaction (read_committed input, manual
// commits); on any error it stops (leaving its group), and is started again.
// Bug: the order's offset is committed with a plain OffsetCommit after the
// transaction commits, outside it: when the service stops (or the group
// rebalances, or that commit fails) between the two, the order is read again
// and its invoice written a second time, in a second committed transaction.
// Fix: `transaction.sendOffsets()` puts the offset in the transaction, so the
// invoice and the offset commit together or not at all.
import { INVOICES, ORDERS, consumeUntilIdle, consumerOf, fixed, kafka, main } from './lib.mjs';

const groupId = 'billing';

main(async () => {
  const client = kafka('billing');
  const producer = client.producer({ idempotent: true, transactionalId: 'billing-tx', maxInFlightRequests: 1 });
  await producer.connect();
  const consumer = consumerOf(client, { groupId });
  await consumeUntilIdle(consumer, ORDERS, async ({ topic, partition, message }, stop) => {
    const next = [{ topic, partition, offset: String(Number(message.offset) + 1) }];
    try {
      const txn = await producer.transaction();
      await txn.send({ topic: INVOICES, acks: -1, messages: [{ key: message.key, value: message.value }] });
      if (fixed) await txn.sendOffsets({ consumerGroupId: groupId, topics: [{ topic, partitions: [{ partition, offset: next[0].offset }] }] });
      await txn.commit();
      if (!fixed) await consumer.commitOffsets(next);
    } catch (err) {
      // This instance does not retry a fenced or failed transaction: it stops, and the next one resumes from the committed offsets.
      stop(err);
    }
  }, { autoCommit: false });
  await producer.disconnect();
});
