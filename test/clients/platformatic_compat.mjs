#!/usr/bin/env node
// @platformatic/kafka driver of the compatibility suite (test/compat/README.md):
// one scenario per run, one JSON summary line on stdout.
//
//   node test/clients/platformatic_compat.mjs BOOTSTRAP SCENARIO TOPIC [-n N] [--partitions P] [--group G] [--txn-id ID] [--timeout S]
//
// Its Consumer always belongs to a group (groupId is required): every
// read-back is a group of its own (`${group}-reader`) from the earliest offset.
import { readFileSync } from 'node:fs';
import { Admin, Consumer, Producer, stringDeserializers, stringSerializers } from '@platformatic/kafka';
import { Failure, messagesFor, parseArgs, runDriver, until, within } from './compat_common.mjs';

// package.json is not in the package's exports: read it beside dist/.
const version = JSON.parse(readFileSync(new URL('../package.json', import.meta.resolve('@platformatic/kafka')), 'utf8')).version;
const args = parseArgs(process.argv.slice(2), 'platformatic_compat.mjs');
const base = { clientId: `compat-platformatic-${args.scenario}`, bootstrapBrokers: args.bootstrap.split(','), retries: 5, retryDelay: 100, timeout: 10_000 };
// Short heartbeats so that the first member hears of the second one's join quickly.
const groupOptions = { sessionTimeout: 10_000, rebalanceTimeout: 10_000, heartbeatInterval: 500, maxWaitTime: 200 };

const toSend = (msgs) => msgs.map((m) => ({ topic: args.topic, key: m.key, value: m.value, partition: m.partition }));

/** Sends in chunks of 50 so that each partition gets several batches (several sequences with idempotence). */
async function produce(send, msgs, deadline) {
  for (let i = 0; i < msgs.length; i += 50) await within(send({ messages: toSend(msgs.slice(i, i + 50)) }), 15_000, 'send', deadline);
}

/** Reads the topic from the earliest offset with a fresh group until `done(read)`. */
async function readBack(groupId, isolationLevel, done, deadline) {
  const consumer = new Consumer({ ...base, groupId, deserializers: stringDeserializers, ...groupOptions, isolationLevel });
  const read = [];
  try {
    const stream = await within(consumer.consume({ topics: [args.topic], mode: 'earliest', autocommit: false, isolationLevel }), 10_000, 'consume', deadline);
    let streamError;
    stream.on('error', (e) => (streamError = e));
    stream.on('data', (m) => read.push([m.partition, Number(m.offset), m.value]));
    await until(() => {
      if (streamError) throw new Failure(`consumer stream: ${streamError.message}`);
      return done(read);
    }, `read-back (${read.length} records so far)`, deadline);
  } finally {
    await within(consumer.close(true), 10_000, 'consumer close', deadline).catch(() => {});
  }
  return read;
}

async function metadata(out, deadline) {
  const admin = new Admin(base);
  try {
    const md = await within(admin.metadata({ topics: [args.topic] }), 10_000, 'metadata', deadline);
    out.brokers = [...md.brokers.keys()].sort((a, b) => a - b);
    out.controller = md.controllerId;
    out.partitions = md.topics.get(args.topic).partitions.map((p, id) => ({ id, leader: p.leader }));
  } finally {
    await admin.close();
  }
}

async function produceFetch(out, deadline, idempotent) {
  const msgs = messagesFor(args.scenario, args.n, args.partitions);
  const producer = new Producer({ ...base, serializers: stringSerializers, acks: -1, idempotent });
  try {
    await produce((o) => producer.send(o), msgs, deadline);
    if (idempotent && producer.producerId === undefined) throw new Failure('idempotent producer has no producer id');
    out.producerId = producer.producerId === undefined ? null : Number(producer.producerId);
  } finally {
    await producer.close();
  }
  out.produced = msgs.length;
  out.read = await readBack(`${args.group}-reader`, 0, (r) => r.length >= msgs.length, deadline);
}

// groupProtocol 'consumer' is KIP-848's (consumer-group, served on the 4.x profiles).
async function group(out, deadline, groupProtocol = 'classic') {
  const members = ['a', 'b'].map((name) => ({
    name,
    consumer: new Consumer({ ...base, clientId: `${base.clientId}-${name}`, groupId: args.group, deserializers: stringDeserializers, ...groupOptions, groupProtocol }),
    assigned: null,
    read: [],
    error: null,
  }));
  try {
    for (const m of members) {
      m.consumer.on('consumer:group:join', (e) => (m.assigned = (e.assignments ?? []).filter((a) => a.topic === args.topic).flatMap((a) => a.partitions).sort((x, y) => x - y)));
      const stream = await within(m.consumer.consume({ topics: [args.topic], mode: 'earliest', autocommit: false }), 10_000, `member ${m.name} consume`, deadline);
      stream.on('error', (e) => (m.error = e));
      stream.on('data', (msg) => m.read.push([msg.partition, Number(msg.offset), msg.value]));
    }
    const failed = () => members.find((m) => m.error);
    // With KIP-848 'consumer:group:join' comes once, without assignments: the heartbeats update consumer.assignments.
    const kip848Assigned = (m) => (m.consumer.assignments ?? []).filter((a) => a.topic === args.topic).flatMap((a) => a.partitions).sort((x, y) => x - y);
    await until(() => {
      if (failed()) throw new Failure(`member ${failed().name}: ${failed().error.message}`);
      if (groupProtocol === 'consumer') for (const m of members) m.assigned = kip848Assigned(m);
      const [a, b] = members.map((m) => m.assigned);
      return a?.length && b?.length && new Set([...a, ...b]).size === args.partitions && a.length + b.length === args.partitions;
    }, 'both members to be assigned', deadline);
    out.assignedBeforeProduce = members.map((m) => m.assigned);
    // A client bug, worked around: the stream hands over whatever a Fetch returns, even when it was
    // sent under the previous assignment (messages-stream.js #pushRecords never looks at the current
    // one). Member a's long poll for all four partitions, sent before the rebalance, would return
    // records produced just after it. Let such fetches end (empty) first: maxWaitTime and a margin.
    await new Promise((r) => setTimeout(r, groupOptions.maxWaitTime + 800));
    const msgs = messagesFor(args.scenario, args.n, args.partitions);
    const producer = new Producer({ ...base, serializers: stringSerializers, acks: -1 });
    try {
      await produce((o) => producer.send(o), msgs, deadline);
    } finally {
      await producer.close();
    }
    out.produced = msgs.length;
    await until(() => {
      if (failed()) throw new Failure(`member ${failed().name}: ${failed().error.message}`);
      return members.reduce((s, m) => s + m.read.length, 0) >= msgs.length;
    }, 'both members to read everything', deadline);
    // Commit what each member read (the suite checks the committed offsets on the broker).
    for (const m of members) {
      const next = new Map();
      for (const [p, o] of m.read) next.set(p, Math.max(next.get(p) ?? 0, o + 1));
      const offsets = [...next].map(([partition, offset]) => ({ topic: args.topic, partition, offset: BigInt(offset), leaderEpoch: -1 }));
      await within(m.consumer.commit({ offsets }), 10_000, `member ${m.name} commit`, deadline);
    }
  } finally {
    out.members = members.map((m) => ({ name: m.name, assigned: m.assigned, read: m.read }));
    for (const m of members) await within(m.consumer.close(true), 10_000, `member ${m.name} close`, deadline).catch(() => {});
  }
}

async function transactions(out, deadline) {
  const producer = new Producer({ ...base, serializers: stringSerializers, acks: -1, idempotent: true, transactionalId: args.txnId });
  const commit1 = messagesFor('commit1', args.n, args.partitions);
  const aborted = messagesFor('abort', args.n, args.partitions);
  const commit2 = messagesFor('commit2', args.n, args.partitions);
  try {
    for (const [msgs, commit] of [[commit1, true], [aborted, false], [commit2, true]]) {
      const txn = await within(producer.beginTransaction(), 10_000, 'begin transaction', deadline);
      await within(txn.send({ messages: toSend(msgs) }), 10_000, 'transactional send', deadline);
      await within(commit ? txn.commit() : txn.abort(), 10_000, commit ? 'commit' : 'abort', deadline);
    }
  } finally {
    await producer.close();
  }
  out.produced = { committed: commit1.length + commit2.length, aborted: aborted.length };
  // The last committed records come after every aborted one: once all of commit2 is in, an aborted record would have shown.
  const want = new Set(commit2.map((m) => m.value));
  out.read = await readBack(`${args.group}-read-committed`, 1, (r) => r.filter(([, , v]) => want.has(v)).length >= want.size, deadline);
}

await runDriver(args, `@platformatic/kafka ${version}`, async (out, deadline) => {
  if (args.scenario === 'metadata') await metadata(out, deadline);
  else if (args.scenario === 'produce-fetch') await produceFetch(out, deadline, false);
  else if (args.scenario === 'idempotent') await produceFetch(out, deadline, true);
  else if (args.scenario === 'group') await group(out, deadline);
  else if (args.scenario === 'consumer-group') await group(out, deadline, 'consumer');
  else if (args.scenario === 'transactions') await transactions(out, deadline);
  else throw new Failure(`unknown scenario ${args.scenario}`);
});
