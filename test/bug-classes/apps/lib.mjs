// What every bug-class application shares: its configuration (from the
// environment, as a deployed service reads it), its effects log, and a
// bounded life. The applications themselves (the other files here) hold only
// their Kafka code, each with one classic bug and its fix behind `fixed`.
//
// Environment (set by test/bug-classes/harness.ts):
//   KAFKA_BROKERS   bootstrap the application uses (the chaos proxy's)
//   BUG_FIXED       '1' runs the fixed twin, anything else the buggy one
//   EFFECTS_FILE    where the application's observable effects go, one JSON line each:
//                   {"sent":id} {"acked":id} (producers), {"effect":id} (consumers), {"error":text}
//   LIFE_MS         the longest the process lives (default 4500): an application under test runs seconds
//   COUNT           how many records a producer application sends (default 20)
import fs from 'node:fs';
import kafkajs from 'kafkajs';

const { Kafka, logLevel } = kafkajs;

export const fixed = process.env.BUG_FIXED === '1';
export const brokers = (process.env.KAFKA_BROKERS ?? '127.0.0.1:9092').split(',');
export const count = Number(process.env.COUNT ?? 20);
const lifeMs = Number(process.env.LIFE_MS ?? 4500);
const effectsFile = process.env.EFFECTS_FILE;

/** The topics: producer applications write `orders`; consumers read it; pipelines write `invoices`. */
export const ORDERS = 'orders';
export const INVOICES = 'invoices';

/** How long a consumer waits for more records before it calls its work done (an application under test stops when its input is drained). */
export const IDLE_MS = 1000;

export function kafka(clientId, config = {}) {
  return new Kafka({ clientId, brokers, logLevel: logLevel.NOTHING, ...config });
}

/**
 * A consumer as an application under test configures it: a short Fetch wait
 * (kafkajs's default is 5 s), so that it leaves its group in milliseconds
 * when its work is done rather than at the end of a long poll.
 */
export function consumerOf(client, config) {
  return client.consumer({ maxWaitTimeInMs: 200, ...config });
}

/** Appends one effect, synchronously, so that it survives the process ending at any moment. */
function record(line) {
  if (effectsFile) fs.appendFileSync(effectsFile, JSON.stringify(line) + '\n');
}
export const effects = {
  sent: (id) => record({ sent: id }),
  acked: (id) => record({ acked: id }),
  effect: (id) => record({ effect: id }),
  error: (err) => record({ error: String(err?.message ?? err) }),
  /** The ids already in the log: an idempotent consumer's "have I done this?" (the log stands for its database). */
  done() {
    if (!effectsFile || !fs.existsSync(effectsFile)) return new Set();
    const lines = fs.readFileSync(effectsFile, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));
    return new Set(lines.filter((l) => l.effect !== undefined).map((l) => l.effect));
  },
};

const shutdownHooks = [];

/**
 * Runs the application: its life is bounded (when it runs out, as a test's
 * timeout would end it, the consumers try for 1 s to leave their groups and
 * the process exits with code 3); a thrown error is logged as an effect and
 * ends it with code 1 (the harness may start it again).
 */
export function main(app) {
  setTimeout(async () => {
    record({ error: `life of ${lifeMs} ms ended` });
    await Promise.race([Promise.allSettled(shutdownHooks.map((h) => h())), new Promise((r) => setTimeout(r, 1000))]);
    process.exit(3);
  }, lifeMs).unref();
  app().then(
    () => process.exit(0),
    (err) => {
      effects.error(err);
      process.exit(1);
    },
  );
}

/**
 * Consumes `topic` from the beginning with `eachMessage(payload, stop)` until
 * no record has come for IDLE_MS while the consumer was in its group (the
 * clock stops while it rebalances or restarts after a crash) and `notBefore`
 * (say, the application's own writes) has settled; then leaves the group.
 * `stop(err)` ends it early: the records still in hand are skipped, the
 * consumer leaves its group (so that a restarted instance need not wait for
 * its session to expire), and err is thrown. `runOptions` go to consumer.run().
 */
export async function consumeUntilIdle(consumer, topic, eachMessage, { notBefore, ...runOptions } = {}) {
  shutdownHooks.push(() => consumer.disconnect());
  await consumer.connect();
  await consumer.subscribe({ topic, fromBeginning: true });
  let timer;
  let failure;
  let settled = notBefore === undefined;
  let inGroup = false;
  await new Promise((resolve) => {
    const touch = () => {
      clearTimeout(timer);
      if (inGroup && settled) timer = setTimeout(resolve, IDLE_MS);
    };
    const stop = (err) => {
      failure ??= err;
      resolve();
    };
    notBefore?.finally(() => {
      settled = true;
      touch();
    });
    consumer.on(consumer.events.GROUP_JOIN, () => {
      inGroup = true;
      touch();
    });
    for (const away of [consumer.events.REBALANCING, consumer.events.CRASH]) {
      consumer.on(away, () => {
        inGroup = false;
        clearTimeout(timer);
      });
    }
    consumer.run({
      ...runOptions,
      eachMessage: async (payload) => {
        if (failure) return;
        touch();
        await eachMessage(payload, stop);
      },
    }).catch(stop);
  });
  clearTimeout(timer);
  await consumer.disconnect();
  if (failure) throw failure;
}

/** The record ids a producer application sends: o-0 … o-(COUNT-1). */
export const orderIds = () => Array.from({ length: count }, (_, i) => `o-${i}`);
export const order = (id) => ({ key: id, value: JSON.stringify({ id, amount: 10 }) });
