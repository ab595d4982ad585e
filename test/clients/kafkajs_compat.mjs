#!/usr/bin/env node
// kafkajs driver of the compatibility suite (test/compat/README.md): one
// scenario per run, one JSON summary line on stdout.
//
//   node test/clients/kafkajs_compat.mjs BOOTSTRAP SCENARIO TOPIC [-n N] [--partitions P] [--group G] [--txn-id ID] [--timeout S]
//
// kafkajs has no assign(): every read-back is a consumer group of its own
// (`${group}-reader`) reading from the beginning.
import { createRequire } from 'node:module';
import kafkajs from 'kafkajs';
import { Failure, messagesFor, parseArgs, runDriver, until, within } from './compat_common.mjs';

const { Kafka, logLevel } = kafkajs;
const version = createRequire(import.meta.url)('kafkajs/package.json').version;
const args = parseArgs(process.argv.slice(2), 'kafkajs_compat.mjs');
const kafka = new Kafka({ clientId: `compat-kafkajs-${args.scenario}`, brokers: args.bootstrap.split(','), logLevel: logLevel.NOTHING, retry: { retries: 5, initialRetryTime: 100 } });
const consumerOptions = { sessionTimeout: 10_000, rebalanceTimeout: 10_000, heartbeatInterval: 500, maxWaitTimeInMs: 200 };

const toSend = (msgs) => msgs.map((m) => ({ key: m.key, value: m.value, partition: m.partition }));

/** Sends in chunks of 50 so that each partition gets several batches (several sequences with idempotence). */
async function produce(producer, msgs, deadline) {
  for (let i = 0; i < msgs.length; i += 50) {
    await within(producer.send({ topic: args.topic, acks: -1, messages: toSend(msgs.slice(i, i + 50)) }), 15_000, 'send', deadline);
  }
}

/** Reads the topic from the beginning with a fresh group until `done(read)`. */
async function readBack(groupId, readUncommitted, done, deadline) {
  const consumer = kafka.consumer({ groupId, readUncommitted, ...consumerOptions });
  const read = [];
  try {
    await within(consumer.connect(), 10_000, 'consumer connect', deadline);
    await consumer.subscribe({ topic: args.topic, fromBeginning: true });
    await consumer.run({ eachMessage: async ({ partition, message }) => void read.push([partition, Number(message.offset), message.value.toString()]) });
    await until(() => done(read), `read-back (${read.length} records so far)`, deadline);
  } finally {
    await within(consumer.disconnect(), 10_000, 'consumer disconnect', deadline).catch(() => {});
  }
  return read;
}

async function metadata(out, deadline) {
  const admin = kafka.admin();
  await within(admin.connect(), 10_000, 'admin connect', deadline);
  try {
    const cluster = await within(admin.describeCluster(), 10_000, 'describeCluster', deadline);
    const md = await within(admin.fetchTopicMetadata({ topics: [args.topic] }), 10_000, 'fetchTopicMetadata', deadline);
    out.brokers = cluster.brokers.map((b) => b.nodeId).sort((a, b) => a - b);
    out.controller = cluster.controller;
    out.partitions = md.topics[0].partitions.map((p) => ({ id: p.partitionId, leader: p.leader })).sort((a, b) => a.id - b.id);
  } finally {
    await admin.disconnect();
  }
}

async function produceFetch(out, deadline, idempotent) {
  const msgs = messagesFor(args.scenario, args.n, args.partitions);
  const producer = kafka.producer(idempotent ? { idempotent: true, maxInFlightRequests: 1 } : { idempotent: false });
  await within(producer.connect(), 10_000, 'producer connect', deadline);
  try {
    await produce(producer, msgs, deadline);
  } finally {
    await producer.disconnect();
  }
  out.produced = msgs.length;
  out.read = await readBack(`${args.group}-reader`, false, (r) => r.length >= msgs.length, deadline);
}

async function group(out, deadline) {
  // Two members in one process; each keeps what it read and the last assignment it was given.
  const members = ['a', 'b'].map((name) => ({ name, consumer: kafka.consumer({ groupId: args.group, ...consumerOptions }), assigned: null, read: [] }));
  try {
    for (const m of members) {
      m.consumer.on(m.consumer.events.GROUP_JOIN, (e) => (m.assigned = (e.payload.memberAssignment[args.topic] ?? []).slice().sort((a, b) => a - b)));
      await within(m.consumer.connect(), 10_000, `member ${m.name} connect`, deadline);
      await m.consumer.subscribe({ topic: args.topic, fromBeginning: true });
      await m.consumer.run({ autoCommit: false, eachMessage: async ({ partition, message }) => void m.read.push([partition, Number(message.offset), message.value.toString()]) });
    }
    // Both in the group and the partitions split between them before anything is produced.
    await until(() => {
      const [a, b] = members.map((m) => m.assigned);
      return a?.length && b?.length && new Set([...a, ...b]).size === args.partitions && a.length + b.length === args.partitions;
    }, 'both members to be assigned', deadline);
    out.assignedBeforeProduce = members.map((m) => m.assigned);
    const msgs = messagesFor(args.scenario, args.n, args.partitions);
    const producer = kafka.producer();
    await within(producer.connect(), 10_000, 'producer connect', deadline);
    try {
      await produce(producer, msgs, deadline);
    } finally {
      await producer.disconnect();
    }
    out.produced = msgs.length;
    await until(() => members.reduce((s, m) => s + m.read.length, 0) >= msgs.length, 'both members to read everything', deadline);
    // Commit what each member read (the suite checks the committed offsets on the broker).
    for (const m of members) {
      const next = new Map();
      for (const [p, o] of m.read) next.set(p, Math.max(next.get(p) ?? 0, o + 1));
      const offsets = [...next].map(([partition, offset]) => ({ topic: args.topic, partition, offset: String(offset) }));
      await within(m.consumer.commitOffsets(offsets), 10_000, `member ${m.name} commit`, deadline);
    }
  } finally {
    out.members = members.map((m) => ({ name: m.name, assigned: m.assigned, read: m.read }));
    for (const m of members) await within(m.consumer.disconnect(), 10_000, `member ${m.name} disconnect`, deadline).catch(() => {});
  }
}

async function transactions(out, deadline) {
  const producer = kafka.producer({ transactionalId: args.txnId, idempotent: true, maxInFlightRequests: 1, transactionTimeout: 30_000 });
  await within(producer.connect(), 10_000, 'producer connect', deadline);
  const commit1 = messagesFor('commit1', args.n, args.partitions);
  const aborted = messagesFor('abort', args.n, args.partitions);
  const commit2 = messagesFor('commit2', args.n, args.partitions);
  try {
    for (const [msgs, commit] of [[commit1, true], [aborted, false], [commit2, true]]) {
      const txn = await within(producer.transaction(), 10_000, 'begin transaction', deadline);
      await within(txn.send({ topic: args.topic, acks: -1, messages: toSend(msgs) }), 10_000, 'transactional send', deadline);
      await within(commit ? txn.commit() : txn.abort(), 10_000, commit ? 'commit' : 'abort', deadline);
    }
  } finally {
    await producer.disconnect();
  }
  out.produced = { committed: commit1.length + commit2.length, aborted: aborted.length };
  // The last committed record of each partition comes after every aborted one: once all of commit2 is in, an aborted record would have shown.
  const want = new Set(commit2.map((m) => m.value));
  out.read = await readBack(`${args.group}-read-committed`, false, (r) => r.filter(([, , v]) => want.has(v)).length >= want.size, deadline);
}

await runDriver(args, `kafkajs ${version}`, async (out, deadline) => {
  if (args.scenario === 'metadata') await metadata(out, deadline);
  else if (args.scenario === 'produce-fetch') await produceFetch(out, deadline, false);
  else if (args.scenario === 'idempotent') await produceFetch(out, deadline, true);
  else if (args.scenario === 'group') await group(out, deadline);
  else if (args.scenario === 'transactions') await transactions(out, deadline);
  else throw new Failure(`unknown scenario ${args.scenario}`);
});
