// A kafkajs consumer-group member in a process of its own, for tests that
// need a member to die without leaving its group (SIGKILL): its heartbeats
// stop and only the session timeout can remove it. A hung message handler
// would not do: kafkajs keeps heartbeating from its other fetchers.
//
//   node test/e2e/kafkajs-member.mjs BOOTSTRAP TOPIC GROUP SESSION_MS
//
// stdout: one JSON line per event: {"event":"joined","memberId","partitions"}
// after every rebalance, {"event":"message","value"} per message read.
import kafkajs from 'kafkajs';

const { Kafka, logLevel } = kafkajs;
const [bootstrap, topic, groupId, sessionMs] = process.argv.slice(2);
if (!bootstrap || !topic || !groupId) {
  process.stderr.write('usage: kafkajs-member.mjs BOOTSTRAP TOPIC GROUP [SESSION_MS]\n');
  process.exit(2);
}
// Never outlive the test that started it.
setTimeout(() => process.exit(3), 60_000).unref();

const out = (obj) => process.stdout.write(JSON.stringify(obj) + '\n');
const kafka = new Kafka({ clientId: 'kafkajs-member', brokers: bootstrap.split(','), logLevel: logLevel.NOTHING });
const consumer = kafka.consumer({ groupId, sessionTimeout: Number(sessionMs ?? 2000), rebalanceTimeout: 4000, heartbeatInterval: 200, maxWaitTimeInMs: 100 });
consumer.on(consumer.events.GROUP_JOIN, (e) => out({ event: 'joined', memberId: e.payload.memberId, partitions: e.payload.memberAssignment[topic] ?? [] }));
await consumer.connect();
await consumer.subscribe({ topic, fromBeginning: true });
await consumer.run({ eachMessage: async ({ message }) => out({ event: 'message', value: message.value.toString() }) });
