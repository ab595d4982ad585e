// What a js/ts sample in the docs may use without declaring it, as the text
// around it says it has: `kafka` (a running cluster, as startCluster returns
// it, with a topic `orders` of 3 partitions), `control` (a ControlClient on
// it, also as KAFKAESQUE_URL), `url` and `token` (for new ControlClient),
// `signal` (aborts after 2 s, for loops that follow events), and
// `ControlError`, and every other export of 'kafkaesque' (`startCluster`,
// `ManualClock`, …), as the text around a fragment has imported them. A
// sample's own declarations and imports take precedence.
// The runner imports this first, then the sample, then calls __sampleDone.
import * as kafkaesque from 'kafkaesque';

const { startCluster, ControlClient, ControlError } = kafkaesque;
Object.assign(globalThis, kafkaesque);

const kafka = await startCluster({ brokers: 3, seed: 1, topics: [{ name: 'orders', partitions: 3 }] });
process.env.KAFKAESQUE_URL = kafka.controlUrl;
process.env.KAFKA_BROKERS = kafka.bootstrap;
Object.assign(globalThis, {
  kafka,
  control: new ControlClient(kafka.controlUrl),
  url: kafka.controlUrl,
  token: undefined,
  signal: AbortSignal.timeout(2000),
  ControlError,
  __sampleDone: async () => {
    await kafka.stop();
    process.exit(0);
  },
});
