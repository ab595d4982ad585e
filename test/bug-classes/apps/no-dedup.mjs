// A payment service: it charges each order read from `orders` (the charge is
// its effect, in the effects log), and kafkajs commits as the handler returns.
// Bug: it charges every record it is given; Kafka delivers at least once (a
// commit that failed, a rebalance, a restart from the committed offset), so a
// redelivered order is charged twice.
// Fix: it remembers which orders it charged (the effects log stands for its
// database) and skips those: processing is idempotent.
import { ORDERS, consumeUntilIdle, consumerOf, effects, fixed, kafka, main } from './lib.mjs';

main(async () => {
  const charged = fixed ? effects.done() : new Set();
  await consumeUntilIdle(consumerOf(kafka('payments'), { groupId: 'payments' }), ORDERS, async ({ message }) => {
    const id = message.key.toString();
    if (fixed && charged.has(id)) return;
    effects.effect(id);
    charged.add(id);
  });
});
