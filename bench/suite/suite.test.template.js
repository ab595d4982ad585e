// One file of the whole-suite benchmark: bench/suite.mjs copies it as
// suite-01.test.js … suite-20.test.js into a jest project of its own. What a
// team's Kafka test does: a producer and a consumer group on a topic of the
// file's own (auto-created by the first produce, as on a default broker),
// 100 records produced, consumed, committed, checked.
//
// KAFKA_BROKERS is the bootstrap: the worker's own cluster under kafkaesque's
// jest preset, the one shared cluster the bench started otherwise. With
// SUITE_PHASES set, the test appends when each step ended (ms from the test's
// start) to that file, one JSON line per file, for the bench's breakdown.
const fs = require('node:fs');
const path = require('node:path');
const { performance } = require('node:perf_hooks');

const requireStart = performance.now();
const { Kafka, logLevel } = require('kafkajs');
const requireKafkajsMs = performance.now() - requireStart;
const name = path.basename(__filename, '.test.js'); // suite-07
const topic = name;
const groupId = `${name}-group`;
const RECORDS = Number(process.env.SUITE_RECORDS ?? 100);
const kafka = new Kafka({ clientId: name, brokers: process.env.KAFKA_BROKERS.split(','), logLevel: logLevel.NOTHING });

test(`${RECORDS} records produced are consumed and committed`, async () => {
  const t0 = performance.now();
  const phases = {};
  const mark = (step) => (phases[step] = performance.now() - t0);

  const producer = kafka.producer();
  await producer.connect();
  const values = Array.from({ length: RECORDS }, (_, i) => `${name}-${i}`);
  await producer.send({ topic, messages: values.map((value, i) => ({ key: `k${i}`, value, partition: 0 })) });
  await producer.disconnect();
  mark('produced');

  const consumer = kafka.consumer({ groupId, maxWaitTimeInMs: 100 });
  const seen = [];
  try {
    await consumer.connect();
    await consumer.subscribe({ topic, fromBeginning: true });
    await new Promise((resolve, reject) => {
      consumer
        .run({
          autoCommit: false,
          eachMessage: async ({ message }) => {
            if (seen.length === 0) mark('firstRecord');
            seen.push(message.value.toString());
            if (seen.length === RECORDS) resolve();
          },
        })
        .catch(reject);
    });
    mark('consumed');
    await consumer.commitOffsets([{ topic, partition: 0, offset: String(RECORDS) }]);
    mark('committed');
  } finally {
    await consumer.disconnect();
  }
  mark('consumerClosed');

  const admin = kafka.admin();
  await admin.connect();
  const [committed] = await admin.fetchOffsets({ groupId, topics: [topic] });
  await admin.disconnect();
  mark('checked');

  expect(seen).toEqual(values);
  expect(committed.partitions.find((p) => p.partition === 0)?.offset).toBe(String(RECORDS));
  if (process.env.SUITE_PHASES) {
    const line = { file: name, worker: Number(process.env.JEST_WORKER_ID ?? 0), requireKafkajsMs, ...phases };
    fs.appendFileSync(process.env.SUITE_PHASES, `${JSON.stringify(line)}\n`);
  }
});
