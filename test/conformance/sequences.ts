// The request sequences sent to both brokers, most valuable first. Each
// says which broker rules its answers show (the project's notes on Kafka's
// semantics list them; the real broker is the authority here). A sequence runs on each
// side with its own topic and group names derived from its id, so sequences
// do not see each other's state.
import { ApiKey } from '../../src/protocol/messages/index.js';
import { buildRecordBatch } from '../../src/protocol/record-batch.js';
import type { WireClient } from '../support/wire-client.js';
import type { Session } from './session.js';

export interface Sequence {
  id: string;
  title: string;
  /** What it shows, as kafka-semantics.md states the rules. */
  rules: string;
  /**
   * Compared with Kafka 4.4.x too. The `4.4` profile is checked against 4.4.0
   * for what only 4.4 serves (share groups); the rest of it answers as 4.0
   * does, which 4.0.2 checks, and its differences from a real 4.4.0 (KIP-848
   * epochs from 1, 4.4's new topic configs, ...) are listed in
   * docs/conformance.md, not yet modelled.
   */
  on44?: boolean;
  run(s: Session): Promise<void>;
}

// Request versions: the newest each 4.0 broker serves that names topics (not
// topic ids), as today's Java client sends them.
const V = {
  produce: 11,
  fetch: 12,
  listOffsets: 9,
  metadata: 12,
  initProducerId: 5,
  addPartitionsToTxn: 3,
  endTxn: 4,
  findCoordinator: 4,
  joinGroup: 9,
  syncGroup: 5,
  heartbeat: 4,
  leaveGroup: 5,
  offsetCommit: 8,
  offsetFetch: 8,
  createTopics: 7,
  createPartitions: 3,
  describeConfigs: 4,
  incrementalAlterConfigs: 1,
  alterConfigs: 2,
  describeTransactions: 0,
  addOffsetsToTxn: 4,
  txnOffsetCommit: 4,
  describeGroups: 5,
  apiVersions: 3,
} as const;

/** One timestamp base for the run, in the past (message.timestamp.after.max.ms), the same on both sides. */
const T0 = Date.now() - 10 * 60_000;

const TXN_RETRY = ['CONCURRENT_TRANSACTIONS'];

/** The sequences of what only 4.x serves (KIP-848, transactions v2) send nothing against 3.9. */
const onKafka4 = () => /^4\./.test(process.env.KAFKAESQUE_CONFORMANCE_VERSION ?? '');

async function createTopic(s: Session, name: string, numPartitions = 1): Promise<void> {
  await s.setup(ApiKey.CreateTopics, V.createTopics, { topics: [{ name, numPartitions, replicationFactor: 1, assignments: [], configs: [] }], timeoutMs: 10_000, validateOnly: false }, [
    'TOPIC_ALREADY_EXISTS',
  ]);
  await waitForLeaders(s, name, numPartitions);
}

/** Until Metadata shows a leader for every partition: a real broker learns of a new topic a few ms after CreateTopics answers. */
async function waitForLeaders(s: Session, name: string, numPartitions: number): Promise<void> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const md = await s.setup(ApiKey.Metadata, V.metadata, { topics: [{ name }], allowAutoTopicCreation: false });
    const parts = md.topics[0]?.partitions ?? [];
    if (parts.length === numPartitions && parts.every((p: any) => p.errorCode === 0 && p.leaderId >= 0)) break;
    if (Date.now() > deadline) throw new Error(`${s.side}: ${name} has no leader for all ${numPartitions} partitions`);
    await new Promise((r) => setTimeout(r, 50));
  }
  // Metadata shows the leader a moment before the partition serves (NOT_LEADER_OR_FOLLOWER meanwhile).
  const partitions = Array.from({ length: numPartitions }, (_, partitionIndex) => ({ partitionIndex, currentLeaderEpoch: -1, timestamp: -1 }));
  await s.setup(ApiKey.ListOffsets, V.listOffsets, { replicaId: -1, isolationLevel: 0, topics: [{ name, partitions }] });
}

function produceBody(topic: string, batch: Buffer, transactionalId: string | null = null, partition = 0) {
  return { transactionalId, acks: -1, timeoutMs: 10_000, topicData: [{ name: topic, partitionData: [{ index: partition, records: batch }] }] };
}

function batch(values: string[], opts: { producerId?: number; producerEpoch?: number; baseSequence?: number; transactional?: boolean; timestamp?: number } = {}) {
  return buildRecordBatch(
    values.map((v) => ({ key: `k-${v}`, value: v })),
    { timestamp: T0, ...opts },
  );
}

function fetchBody(topic: string, fetchOffset: number, isolationLevel: 0 | 1, partition = 0) {
  return {
    replicaId: -1,
    maxWaitMs: 0,
    minBytes: 0,
    maxBytes: 1 << 20,
    isolationLevel,
    sessionId: 0,
    sessionEpoch: -1,
    topics: [{ topic, partitions: [{ partition, currentLeaderEpoch: -1, fetchOffset, lastFetchedEpoch: -1, logStartOffset: -1, partitionMaxBytes: 1 << 20 }] }],
    forgottenTopicsData: [],
    rackId: '',
  };
}

function listOffsetsBody(topic: string, timestamp: number, isolationLevel = 0, partitionIndex = 0) {
  return { replicaId: -1, isolationLevel, topics: [{ name: topic, partitions: [{ partitionIndex, currentLeaderEpoch: -1, timestamp }] }] };
}

/** Warm a coordinator: a new real broker creates __consumer_offsets / __transaction_state on the first FindCoordinator. */
async function findCoordinator(s: Session, key: string, keyType: 0 | 1): Promise<void> {
  await s.setup(ApiKey.FindCoordinator, V.findCoordinator, { keyType, coordinatorKeys: [key] });
}

/** Until DescribeTransactions shows the transaction ended (its markers written): the end is asynchronous in Kafka. */
async function waitTxnComplete(s: Session, transactionalId: string): Promise<void> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const d = await s.setup(ApiKey.DescribeTransactions, V.describeTransactions, { transactionalIds: [transactionalId] });
    const state = d.transactionStates[0]?.transactionState;
    if (state === 'CompleteCommit' || state === 'CompleteAbort' || state === 'Empty') return;
    if (Date.now() > deadline) throw new Error(`${s.side}: ${transactionalId} still ${state}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

async function initTxn(s: Session, label: string, transactionalId: string, on?: WireClient) {
  await findCoordinator(s, transactionalId, 1);
  const r = await s.settled(label, ApiKey.InitProducerId, V.initProducerId, { transactionalId, transactionTimeoutMs: 60_000, producerId: -1, producerEpoch: -1 }, TXN_RETRY, on);
  return { producerId: r.producerId as number, producerEpoch: r.producerEpoch as number };
}

function addPartitions(transactionalId: string, p: Producer, topic: string, partitions = [0]) {
  return { v3AndBelowTransactionalId: transactionalId, v3AndBelowProducerId: p.producerId, v3AndBelowProducerEpoch: p.producerEpoch, v3AndBelowTopics: [{ name: topic, partitions }] };
}

function endTxn(transactionalId: string, p: Producer, committed: boolean) {
  return { transactionalId, producerId: p.producerId, producerEpoch: p.producerEpoch, committed };
}

type Producer = { producerId: number; producerEpoch: number };

/** The compared transaction steps of one transactional id on one topic. */
function txnSteps(s: Session, id: string, topic: string) {
  return {
    add: (label: string, p: Producer, onTopic = topic) => s.step(label, ApiKey.AddPartitionsToTxn, V.addPartitionsToTxn, addPartitions(id, p, onTopic)),
    produce: (label: string, values: string[], p: Producer, baseSequence: number) =>
      s.step(label, ApiKey.Produce, V.produce, produceBody(topic, batch(values, { ...p, baseSequence, transactional: true }), id)),
    end: (label: string, p: Producer, committed: boolean) => s.step(label, ApiKey.EndTxn, V.endTxn, endTxn(id, p, committed)),
  };
}

const idempotentProduce: Sequence = {
  id: 'idempotent-produce',
  title: 'Idempotent produce: sequence checks',
  rules: 'duplicate batches answered with the cached offsets, OUT_OF_ORDER_SEQUENCE_NUMBER, a new epoch starting at 0, INVALID_PRODUCER_EPOCH for an older epoch, an unknown producer accepted at any sequence',
  async run(s) {
    const topic = 'conf-idempotent';
    await createTopic(s, topic);
    const { producerId } = await s.step('InitProducerId (idempotent)', ApiKey.InitProducerId, V.initProducerId, { transactionalId: null, transactionTimeoutMs: 2147483647, producerId: -1, producerEpoch: -1 });
    const send = (label: string, values: string[], producerEpoch: number, baseSequence: number, pid = producerId) =>
      s.step(label, ApiKey.Produce, V.produce, produceBody(topic, batch(values, { producerId: pid, producerEpoch, baseSequence })));
    await send('seq 0-2', ['a', 'b', 'c'], 0, 0);
    await send('seq 0-2 again (duplicate)', ['a', 'b', 'c'], 0, 0);
    await send('seq 5 (gap)', ['x'], 0, 5);
    await send('seq 3-4', ['d', 'e'], 0, 3);
    await send('seq 1-2 (older duplicate, still cached)', ['b', 'c'], 0, 1);
    await send('seq 2-3 (overlaps, not a cached batch)', ['c', 'd'], 0, 2);
    await send('epoch 1, seq 5 (a new epoch must start at 0)', ['y'], 1, 5);
    await send('epoch 1, seq 0', ['f'], 1, 0);
    await send('epoch 0 again (fenced by epoch 1)', ['g'], 0, 5);
    await send('unknown producer id, seq 7', ['h'], 0, 7, producerId + 1000);
    await send('non-idempotent batch', ['i'], -1, -1, -1);
    await s.step('Fetch all', ApiKey.Fetch, V.fetch, fetchBody(topic, 0, 0));
  },
};

const transactions: Sequence = {
  id: 'transactions',
  title: 'Transactions: state transitions',
  rules: 'transaction coordinator: InitProducerId, AddPartitionsToTxn, EndTxn commit and abort, a retried EndTxn, INVALID_TXN_STATE for an end that does not match, an ongoing transaction aborted by InitProducerId (CONCURRENT_TRANSACTIONS), fencing by a newer epoch; transactional produce verification (KIP-890 part 1)',
  async run(s) {
    const topic = 'conf-txn';
    const id = 'conf-txn-1';
    await createTopic(s, topic);
    const t = txnSteps(s, id, topic);
    let p = await initTxn(s, 'InitProducerId', id);
    await t.end('EndTxn commit with no transaction', p, true);
    await t.produce('transactional Produce before AddPartitionsToTxn', ['early'], p, 0);
    await t.add('AddPartitionsToTxn', p);
    await t.add('AddPartitionsToTxn unknown topic', p, 'conf-txn-missing');
    await t.add('AddPartitionsToTxn wrong epoch', { ...p, producerEpoch: p.producerEpoch + 1 });
    await t.produce('transactional Produce', ['t1', 't2'], p, 0);
    await t.end('EndTxn commit', p, true);
    await waitTxnComplete(s, id);
    await t.end('EndTxn commit again (retry of a completed commit)', p, true);
    await t.end('EndTxn abort after the commit', p, false);
    await t.add('AddPartitionsToTxn (second transaction)', p);
    await t.produce('transactional Produce (second transaction)', ['t3'], p, 2);
    await t.end('EndTxn abort', p, false);
    await waitTxnComplete(s, id);
    await t.end('EndTxn abort again', p, false);
    await t.add('AddPartitionsToTxn (third transaction)', p);
    await s.step('InitProducerId during an ongoing transaction', ApiKey.InitProducerId, V.initProducerId, { transactionalId: id, transactionTimeoutMs: 60_000, producerId: -1, producerEpoch: -1 });
    const old = p;
    p = await initTxn(s, 'InitProducerId once the transaction is aborted', id);
    await t.end('EndTxn with the fenced epoch', old, true);
    await t.add('AddPartitionsToTxn with the fenced epoch', old);
    await t.produce('Produce with the fenced epoch', ['zombie'], old, 3);
    await s.step('EndTxn with an unknown producer id', ApiKey.EndTxn, V.endTxn, endTxn(id, { producerId: p.producerId + 1000, producerEpoch: p.producerEpoch }, true));
    await s.step('InitProducerId timeout above transaction.max.timeout.ms', ApiKey.InitProducerId, V.initProducerId, { transactionalId: 'conf-txn-2', transactionTimeoutMs: 900_001, producerId: -1, producerEpoch: -1 });
    await s.step('Fetch all (read_uncommitted)', ApiKey.Fetch, V.fetch, fetchBody(topic, 0, 0));
  },
};

const transactionsV2: Sequence = {
  id: 'transactions-v2',
  title: 'Transactions v2 (KIP-890 part 2): Produce v12, TxnOffsetCommit v5, EndTxn v5',
  rules:
    'transaction.version 2 (4.x only): a transactional Produce v12 adds its partition itself; EndTxn v5 bumps the epoch at every commit and abort and answers the new one; a retried EndTxn (the epoch before the bump) is NONE, the other result INVALID_TXN_STATE; an abort with nothing open bumps the epoch; Empty cannot commit; a late write of the old epoch is fenced (no hanging transaction); TxnOffsetCommit v5 without AddOffsetsToTxn; the markers in the log carry the bumped epoch',
  async run(s) {
    if (!onKafka4()) return;
    const topic = 'conf-txn2';
    const id = 'conf-txn2-1';
    const group = 'conf-txn2-group';
    await createTopic(s, topic);
    await findCoordinator(s, group, 0);
    const produce = (label: string, values: string[], p: Producer, baseSequence: number) =>
      s.step(label, ApiKey.Produce, 12, produceBody(topic, batch(values, { ...p, baseSequence, transactional: true }), id));
    const end = (label: string, p: Producer, committed: boolean) => s.step(label, ApiKey.EndTxn, 5, endTxn(id, p, committed));
    const empty = await initTxn(s, 'InitProducerId (Empty)', id);
    await end('EndTxn v5 commit on Empty', empty, true);
    const first = await end('EndTxn v5 abort on Empty (an empty abort bumps the epoch)', empty, false);
    let p: Producer = { producerId: first.producerId, producerEpoch: first.producerEpoch };
    await waitTxnComplete(s, id);
    await produce('Produce v12 with no AddPartitionsToTxn', ['v2-a', 'v2-b'], p, 0);
    await s.step('DescribeTransactions while open', ApiKey.DescribeTransactions, V.describeTransactions, { transactionalIds: [id] });
    const committed = await end('EndTxn v5 commit', p, true);
    await waitTxnComplete(s, id);
    await end('EndTxn v5 commit again with the old epoch (a retry)', p, true);
    await end('EndTxn v5 abort with the old epoch (a retry of the other result)', p, false);
    await produce('Produce v12 with the old epoch after the commit (a hanging write)', ['late'], p, 2);
    p = { producerId: committed.producerId, producerEpoch: committed.producerEpoch };
    await produce('Produce v12 of the next transaction (the new epoch, sequence 0)', ['v2-c'], p, 0);
    await s.step('TxnOffsetCommit v5 with no AddOffsetsToTxn', ApiKey.TxnOffsetCommit, 5, {
      transactionalId: id,
      groupId: group,
      ...p,
      generationIdOrMemberEpoch: -1,
      memberId: '',
      groupInstanceId: null,
      topics: [{ name: topic, partitions: [{ partitionIndex: 0, committedOffset: 4, committedLeaderEpoch: -1, committedMetadata: null }] }],
    });
    const aborted = await end('EndTxn v5 abort', p, false);
    await waitTxnComplete(s, id);
    await s.step('OffsetFetch after the abort', ApiKey.OffsetFetch, V.offsetFetch, { groups: [{ groupId: group, topics: [{ name: topic, partitionIndexes: [0] }] }], requireStable: true });
    await end('EndTxn v5 commit after an abort, at the new epoch', { producerId: aborted.producerId, producerEpoch: aborted.producerEpoch }, true);
    await s.step('Fetch all (read_uncommitted: the markers and their epochs)', ApiKey.Fetch, V.fetch, fetchBody(topic, 0, 0));
    await s.step('Fetch read_committed', ApiKey.Fetch, V.fetch, fetchBody(topic, 0, 1));
  },
};

const readCommitted: Sequence = {
  id: 'read-committed',
  title: 'read_committed Fetch, the LSO and aborted transactions',
  rules: 'Fetch isolation: the last stable offset held at an open transaction\'s first offset, aborted_transactions for read_committed, control batches in the log, ListOffsets latest under read_committed',
  async run(s) {
    const topic = 'conf-rc';
    const id = 'conf-rc-1';
    await createTopic(s, topic);
    const t = txnSteps(s, id, topic);
    const plain = (v: string) => s.step(`plain Produce ${v}`, ApiKey.Produce, V.produce, produceBody(topic, batch([v])));
    await plain('p0');
    const p = await initTxn(s, 'InitProducerId', id);
    await t.add('AddPartitionsToTxn', p);
    await t.produce('transactional Produce (open)', ['a1', 'a2'], p, 0);
    await plain('p1');
    await s.step('Fetch read_committed, transaction open', ApiKey.Fetch, V.fetch, fetchBody(topic, 0, 1));
    await s.step('Fetch read_uncommitted, transaction open', ApiKey.Fetch, V.fetch, fetchBody(topic, 0, 0));
    await s.step('ListOffsets latest read_committed', ApiKey.ListOffsets, V.listOffsets, listOffsetsBody(topic, -1, 1));
    await s.step('ListOffsets latest read_uncommitted', ApiKey.ListOffsets, V.listOffsets, listOffsetsBody(topic, -1, 0));
    await t.end('EndTxn abort', p, false);
    await waitTxnComplete(s, id);
    await s.step('Fetch read_committed after the abort', ApiKey.Fetch, V.fetch, fetchBody(topic, 0, 1));
    await s.step('Fetch read_committed from offset 2', ApiKey.Fetch, V.fetch, fetchBody(topic, 2, 1));
    await s.settled('AddPartitionsToTxn (second)', ApiKey.AddPartitionsToTxn, V.addPartitionsToTxn, addPartitions(id, p, topic), TXN_RETRY);
    await t.produce('transactional Produce (second)', ['c1'], p, 2);
    await t.end('EndTxn commit', p, true);
    await waitTxnComplete(s, id);
    await s.step('Fetch read_committed after the commit', ApiKey.Fetch, V.fetch, fetchBody(topic, 0, 1));
    await s.step('ListOffsets latest read_committed after the commit', ApiKey.ListOffsets, V.listOffsets, listOffsetsBody(topic, -1, 1));
  },
};

const groups: Sequence = {
  id: 'classic-group',
  title: 'Classic group: JoinGroup, SyncGroup, Heartbeat, LeaveGroup',
  rules: 'classic group coordinator: MEMBER_ID_REQUIRED, generations, UNKNOWN_MEMBER_ID, ILLEGAL_GENERATION, REBALANCE_IN_PROGRESS, a second member\'s join, the leader\'s assignment handed out by SyncGroup, LeaveGroup',
  async run(s) {
    const group = 'conf-group';
    await findCoordinator(s, group, 0);
    const a = await s.connection();
    const b = await s.connection();
    const protocols = [{ name: 'range', metadata: Buffer.from([0, 1, 0, 0, 0, 0, 0, 0, 0, 0]) }];
    const join = (memberId: string) => ({ groupId: group, sessionTimeoutMs: 30_000, rebalanceTimeoutMs: 10_000, memberId, groupInstanceId: null, protocolType: 'consumer', protocols, reason: null });
    const hb = (generationId: number, memberId: string) => ({ groupId: group, generationId, memberId, groupInstanceId: null });
    const sync = (generationId: number, memberId: string, assignments: { memberId: string; assignment: Buffer }[] = []) => ({
      groupId: group,
      generationId,
      memberId,
      groupInstanceId: null,
      protocolType: 'consumer',
      protocolName: 'range',
      assignments,
    });
    await s.step('Heartbeat to an unknown group', ApiKey.Heartbeat, V.heartbeat, hb(1, 'nobody'), a);
    const first = await s.step('JoinGroup without a member id', ApiKey.JoinGroup, V.joinGroup, join(''), a);
    const m1 = first.memberId as string;
    const j1 = await s.step('JoinGroup with the given member id', ApiKey.JoinGroup, V.joinGroup, join(m1), a);
    const g1 = j1.generationId as number;
    await s.step('JoinGroup with an unknown member id', ApiKey.JoinGroup, V.joinGroup, join('conf-unknown-member'), b);
    await s.step('SyncGroup wrong generation', ApiKey.SyncGroup, V.syncGroup, sync(g1 + 1, m1), a);
    await s.step('SyncGroup unknown member', ApiKey.SyncGroup, V.syncGroup, sync(g1, 'conf-unknown-member'), b);
    await s.step('SyncGroup leader', ApiKey.SyncGroup, V.syncGroup, sync(g1, m1, [{ memberId: m1, assignment: Buffer.from([0, 1, 0, 0, 0, 0]) }]), a);
    await s.step('Heartbeat', ApiKey.Heartbeat, V.heartbeat, hb(g1, m1), a);
    await s.step('Heartbeat wrong generation', ApiKey.Heartbeat, V.heartbeat, hb(g1 + 1, m1), a);
    await s.step('Heartbeat unknown member', ApiKey.Heartbeat, V.heartbeat, hb(g1, 'conf-unknown-member'), a);
    const second = await s.step('second member JoinGroup without a member id', ApiKey.JoinGroup, V.joinGroup, join(''), b);
    const m2 = second.memberId as string;
    // The second member's join waits for the first to rejoin.
    const j2 = s.step('second member JoinGroup (held for the rebalance)', ApiKey.JoinGroup, V.joinGroup, join(m2), b);
    await waitFor(() => heartbeatSays(s, a, hb(g1, m1), 'REBALANCE_IN_PROGRESS'));
    await s.step('Heartbeat during the rebalance', ApiKey.Heartbeat, V.heartbeat, hb(g1, m1), a);
    const r1 = await s.step('first member rejoins', ApiKey.JoinGroup, V.joinGroup, join(m1), a);
    const r2 = await j2;
    const g2 = r1.generationId as number;
    const leader = r1.leader as string;
    const follower = leader === m1 ? m2 : m1;
    const [lc, fc] = leader === m1 ? [a, b] : [b, a];
    expectSame(r2.generationId, g2);
    const fsync = s.step('SyncGroup follower (held for the leader)', ApiKey.SyncGroup, V.syncGroup, sync(g2, follower), fc);
    await s.step('SyncGroup leader, generation 2', ApiKey.SyncGroup, V.syncGroup, sync(g2, leader, [
      { memberId: leader, assignment: Buffer.from('L') },
      { memberId: follower, assignment: Buffer.from('F') },
    ]), lc);
    await fsync;
    await s.step('Heartbeat old generation', ApiKey.Heartbeat, V.heartbeat, hb(g1, m1), a);
    await s.step('LeaveGroup second member', ApiKey.LeaveGroup, V.leaveGroup, { groupId: group, members: [{ memberId: m2, groupInstanceId: null, reason: null }] }, b);
    await s.step('LeaveGroup unknown member', ApiKey.LeaveGroup, V.leaveGroup, { groupId: group, members: [{ memberId: 'conf-unknown-member', groupInstanceId: null, reason: null }] }, b);
    await s.step('Heartbeat after the leave', ApiKey.Heartbeat, V.heartbeat, hb(g2, m1), a);
  },
};

function expectSame(a: unknown, b: unknown) {
  if (a !== b) throw new Error(`expected ${String(b)}, got ${String(a)}`);
}

async function heartbeatSays(s: Session, c: WireClient, body: unknown, error: string): Promise<boolean> {
  const r = await c.request(ApiKey.Heartbeat, V.heartbeat, body);
  return (r as any).errorCode === ({ REBALANCE_IN_PROGRESS: 27 } as Record<string, number>)[error];
}

async function waitFor(cond: () => Promise<boolean>, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await cond())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 50));
  }
}

const offsets: Sequence = {
  id: 'offsets',
  title: 'OffsetCommit and OffsetFetch',
  rules: 'offsets: standalone commits (generation -1), commits from a non-member to an empty group, OFFSET_METADATA_TOO_LARGE, unknown topics and partitions, OffsetFetch of listed and of all partitions',
  async run(s) {
    const topic = 'conf-offsets';
    const group = 'conf-offsets-group';
    await createTopic(s, topic, 2);
    await findCoordinator(s, group, 0);
    const commit = (label: string, parts: { partitionIndex: number; committedOffset: number; committedMetadata?: string | null }[], generationIdOrMemberEpoch = -1, memberId = '', name = topic) =>
      s.step(label, ApiKey.OffsetCommit, V.offsetCommit, {
        groupId: group,
        generationIdOrMemberEpoch,
        memberId,
        groupInstanceId: null,
        topics: [{ name, partitions: parts.map((p) => ({ committedLeaderEpoch: -1, committedMetadata: null, ...p })) }],
      });
    const fetch = (label: string, topics: { name: string; partitionIndexes: number[] }[] | null, groupId = group) =>
      s.step(label, ApiKey.OffsetFetch, V.offsetFetch, { groups: [{ groupId, topics }], requireStable: true });
    await fetch('OffsetFetch before any commit', [{ name: topic, partitionIndexes: [0, 1] }]);
    await commit('OffsetCommit standalone', [{ partitionIndex: 0, committedOffset: 5, committedMetadata: 'meta' }, { partitionIndex: 1, committedOffset: 7 }]);
    await fetch('OffsetFetch listed partitions', [{ name: topic, partitionIndexes: [0, 1, 2] }]);
    await fetch('OffsetFetch all partitions', null);
    await commit('OffsetCommit metadata too large', [{ partitionIndex: 0, committedOffset: 6, committedMetadata: 'm'.repeat(4097) }]);
    await commit('OffsetCommit unknown partition', [{ partitionIndex: 9, committedOffset: 1 }]);
    await commit('OffsetCommit unknown topic', [{ partitionIndex: 0, committedOffset: 1 }], -1, '', 'conf-offsets-missing');
    await commit('OffsetCommit with a generation to an empty group', [{ partitionIndex: 0, committedOffset: 8 }], 3, 'conf-some-member');
    await commit('OffsetCommit with a member id but generation -1', [{ partitionIndex: 0, committedOffset: 9 }], -1, 'conf-some-member');
    await commit('OffsetCommit negative offset', [{ partitionIndex: 1, committedOffset: -5 }]);
    await fetch('OffsetFetch after the rejected commits', null);
    await fetch('OffsetFetch unknown group', null, 'conf-offsets-nobody');
  },
};

const listOffsets: Sequence = {
  id: 'list-offsets',
  title: 'ListOffsets: earliest, latest, max timestamp, by timestamp',
  rules: 'ListOffsets: -2 earliest, -1 latest, -3 max timestamp (KIP-734), the first offset at or after a timestamp, none after the last, errors for unknown partitions',
  async run(s) {
    const topic = 'conf-list-offsets';
    await createTopic(s, topic);
    const q = (label: string, timestamp: number, partition = 0) => s.step(label, ApiKey.ListOffsets, V.listOffsets, listOffsetsBody(topic, timestamp, 0, partition));
    await q('latest of an empty partition', -1);
    await q('earliest of an empty partition', -2);
    await q('max timestamp of an empty partition', -3);
    await q('a timestamp, empty partition', T0);
    for (const [i, dt] of [10, 30, 20].entries()) {
      await s.step(`Produce ts+${dt}`, ApiKey.Produce, V.produce, produceBody(topic, batch([`r${i}`], { timestamp: T0 + dt })));
    }
    await s.step('Produce two records ts+40, ts+35', ApiKey.Produce, V.produce, produceBody(topic, buildRecordBatch([{ value: 'r3', timestamp: T0 + 40 }, { value: 'r4', timestamp: T0 + 35 }])));
    await q('earliest', -2);
    await q('latest', -1);
    await q('max timestamp', -3);
    await q('ts+15', T0 + 15);
    await q('ts+25', T0 + 25);
    await q('ts+30', T0 + 30);
    await q('ts+36', T0 + 36);
    await q('after the last timestamp', T0 + 1000);
    await q('unknown partition', -1, 5);
    await s.step('unknown topic', ApiKey.ListOffsets, V.listOffsets, listOffsetsBody('conf-list-offsets-missing', -1));
  },
};

const metadata: Sequence = {
  id: 'metadata',
  title: 'Metadata and auto-creation',
  rules: 'Metadata: unknown topics with and without allowAutoTopicCreation, the auto-created topic (num.partitions), invalid names, an empty topic list',
  async run(s) {
    const md = (label: string, names: string[] | null, allowAutoTopicCreation: boolean) =>
      s.step(label, ApiKey.Metadata, V.metadata, { topics: names === null ? null : names.map((name) => ({ name })), allowAutoTopicCreation, includeTopicAuthorizedOperations: false });
    await md('no topics', [], false);
    await md('unknown topic, no auto-creation', ['conf-md-missing'], false);
    await md('unknown topic, auto-creation', ['conf-md-auto'], true);
    await waitForLeaders(s, 'conf-md-auto', 1);
    await md('the auto-created topic', ['conf-md-auto'], true);
    await md('an invalid name, auto-creation', ['bad name!'], true);
    await md('an internal name, auto-creation', ['__conf_internal'], true);
    await md('a name of 250 characters, auto-creation', ['x'.repeat(250)], true);
  },
};

const createTopics: Sequence = {
  id: 'create-topics',
  title: 'CreateTopics and CreatePartitions validation',
  rules: 'topic admin: TOPIC_ALREADY_EXISTS, INVALID_PARTITIONS, INVALID_REPLICATION_FACTOR, INVALID_TOPIC_EXCEPTION, INVALID_CONFIG, validate-only, the configs CreateTopics v5+ returns; CreatePartitions increase, decrease, same count, unknown topic',
  async run(s) {
    const create = (label: string, topics: object[], validateOnly = false) =>
      s.step(label, ApiKey.CreateTopics, V.createTopics, { topics: topics.map((t) => ({ numPartitions: 1, replicationFactor: 1, assignments: [], configs: [], ...t })), timeoutMs: 10_000, validateOnly });
    await create('create', [{ name: 'conf-ct', numPartitions: 2 }]);
    await waitForLeaders(s, 'conf-ct', 2);
    await create('already exists', [{ name: 'conf-ct' }]);
    await create('validate only', [{ name: 'conf-ct-validate', numPartitions: 3 }], true);
    await create('defaults (-1, -1)', [{ name: 'conf-ct-defaults', numPartitions: -1, replicationFactor: -1 }]);
    await create('zero partitions', [{ name: 'conf-ct-zero', numPartitions: 0 }]);
    await create('replication factor 3 on one broker', [{ name: 'conf-ct-rf', replicationFactor: 3 }]);
    await create('replication factor 0', [{ name: 'conf-ct-rf0', replicationFactor: 0 }]);
    await create('invalid name', [{ name: 'bad name!' }]);
    await create('name "."', [{ name: '.' }]);
    await create('name of 250 characters', [{ name: 'y'.repeat(250) }]);
    await create('unknown config', [{ name: 'conf-ct-badcfg', configs: [{ name: 'no.such.config', value: '1' }] }]);
    await create('invalid config value', [{ name: 'conf-ct-badval', configs: [{ name: 'retention.ms', value: 'soon' }] }]);
    await create('a config set', [{ name: 'conf-ct-cfg', configs: [{ name: 'cleanup.policy', value: 'compact' }, { name: 'retention.ms', value: '1000' }] }]);
    await create('the same name twice in one request', [{ name: 'conf-ct-twice' }, { name: 'conf-ct-twice' }]);
    await create('assignments and a partition count', [{ name: 'conf-ct-assign', numPartitions: 1, assignments: [{ partitionIndex: 0, brokerIds: [s.nodeId] }] }]);
    const partitions = (label: string, name: string, count: number, validateOnly = false) =>
      s.step(label, ApiKey.CreatePartitions, V.createPartitions, { topics: [{ name, count, assignments: null }], timeoutMs: 10_000, validateOnly });
    await partitions('CreatePartitions increase, validate only', 'conf-ct', 4, true);
    await partitions('CreatePartitions increase', 'conf-ct', 3);
    await partitions('CreatePartitions same count', 'conf-ct', 3);
    await partitions('CreatePartitions decrease', 'conf-ct', 1);
    await partitions('CreatePartitions unknown topic', 'conf-ct-missing', 2);
  },
};

const describeConfigs: Sequence = {
  id: 'describe-configs',
  title: 'DescribeConfigs',
  rules: 'configs: a topic\'s whole config set with sources and defaults, a topic\'s overrides, named broker configs, unknown resources',
  async run(s) {
    await createTopic(s, 'conf-dc');
    await s.setup(ApiKey.CreateTopics, V.createTopics, { topics: [{ name: 'conf-dc-set', numPartitions: 1, replicationFactor: 1, assignments: [], configs: [{ name: 'retention.ms', value: '5000' }] }], timeoutMs: 10_000 }, ['TOPIC_ALREADY_EXISTS']);
    await waitForLeaders(s, 'conf-dc-set', 1);
    const describe = (label: string, resources: object[], includeSynonyms = false) => s.step(label, ApiKey.DescribeConfigs, V.describeConfigs, { resources, includeSynonyms, includeDocumentation: false });
    await describe('topic, every config', [{ resourceType: 2, resourceName: 'conf-dc', configurationKeys: null }]);
    await describe('topic with an override, synonyms', [{ resourceType: 2, resourceName: 'conf-dc-set', configurationKeys: ['retention.ms', 'cleanup.policy'] }], true);
    await describe('unknown topic', [{ resourceType: 2, resourceName: 'conf-dc-missing', configurationKeys: null }]);
    // Broker configs that do not depend on how each side was started (listeners, log.dirs and node.id do;
    // offsets.topic.num.partitions is 1 on the real broker, as Testcontainers sets it, and fixed at 50 in kafkaesque).
    const brokerKeys = [
      'num.partitions',
      'auto.create.topics.enable',
      'min.insync.replicas',
      'log.retention.hours',
      'message.max.bytes',
      'default.replication.factor',
      'compression.type',
      'transaction.state.log.num.partitions',
      'transaction.max.timeout.ms',
      'group.initial.rebalance.delay.ms',
      'unclean.leader.election.enable',
      'process.roles',
      'no.such.config',
    ];
    await describe('broker, named configs', [{ resourceType: 4, resourceName: String(s.nodeId), configurationKeys: brokerKeys }]);
    await describe('another broker', [{ resourceType: 4, resourceName: '99', configurationKeys: ['num.partitions'] }]);
    await describe('broker name not a number', [{ resourceType: 4, resourceName: 'broker', configurationKeys: ['num.partitions'] }]);
  },
};

const groupConfigs: Sequence = {
  id: 'group-configs',
  title: 'Group configs: GROUP config resources',
  rules:
    "GROUP resources (type 32) in IncrementalAlterConfigs, AlterConfigs and DescribeConfigs: on 4.x each GroupConfig key's value, source and synonyms, the group's override, internal keys, validation (unknown keys, ConfigDef validators, the broker's bounds, APPEND, null values, duplicate keys, the default group), validateOnly, DELETE, AlterConfigs' replacement; on 3.9 the refusal (DescribeConfigs failing whole, 'Unknown resource type 32')",
  async run(s) {
    const G = 32;
    type Op = [name: string, op: number, value: string | null];
    const resource = (group: string, ops: Op[]) => ({ resourceType: G, resourceName: group, configs: ops.map(([name, configOperation, value]) => ({ name, configOperation, value })) });
    const inc = (label: string, group: string, ops: Op[], validateOnly = false) =>
      s.step(label, ApiKey.IncrementalAlterConfigs, V.incrementalAlterConfigs, { resources: [resource(group, ops)], validateOnly });
    const describe = (label: string, group: string, keys: string[] | null, includeSynonyms = true, includeDocumentation = false) =>
      s.step(label, ApiKey.DescribeConfigs, V.describeConfigs, { resources: [{ resourceType: G, resourceName: group, configurationKeys: keys }], includeSynonyms, includeDocumentation });
    // A real broker's controller applies an alter before its broker's metadata shows it: wait for that (not compared).
    const settled = async (group: string, key: string, value: string | null) => {
      for (let i = 0; i < 100; i++) {
        const r = await s.setup(ApiKey.DescribeConfigs, V.describeConfigs, { resources: [{ resourceType: G, resourceName: group, configurationKeys: [key] }], includeSynonyms: true, includeDocumentation: false });
        const c = r.results[0].configs[0];
        if ((value === null ? c?.configSource !== 8 : c?.value === value && c?.configSource === 8)) return;
        await new Promise((res) => setTimeout(res, 50));
      }
    };
    if (!onKafka4()) {
      await s.step('DescribeConfigs naming a group', ApiKey.DescribeConfigs, V.describeConfigs, {
        resources: [{ resourceType: 2, resourceName: 'conf-gc-missing', configurationKeys: null }, { resourceType: G, resourceName: 'conf-gc', configurationKeys: null }],
        includeSynonyms: false,
        includeDocumentation: false,
      });
      await inc('IncrementalAlterConfigs of a group', 'conf-gc', [['consumer.session.timeout.ms', 0, '50000']]);
      await s.step('AlterConfigs of a group', ApiKey.AlterConfigs, V.alterConfigs, { resources: [{ resourceType: G, resourceName: 'conf-gc', configs: [{ name: 'consumer.session.timeout.ms', value: '50000' }] }], validateOnly: false });
      return;
    }
    await describe('a group never configured, synonyms', 'conf-gc-none', null);
    await describe('a group never configured, documentation', 'conf-gc-none', null, false, true);
    await inc('SET a consumer and a share key', 'conf-gc', [['consumer.heartbeat.interval.ms', 0, '6000'], ['share.session.timeout.ms', 0, ' 50000 ']]);
    await settled('conf-gc', 'consumer.heartbeat.interval.ms', '6000');
    await describe('the overrides and the rest', 'conf-gc', null);
    for (const [label, ops] of [
      ['an unknown key', [['conf.no.such', 0, '1']]],
      ['a value under the validator', [['share.session.timeout.ms', 0, '0']]],
      ['not a number', [['consumer.session.timeout.ms', 0, 'abc']]],
      ['an unknown share.auto.offset.reset', [['share.auto.offset.reset', 0, 'foo']]],
      ['a negative by_duration', [['share.auto.offset.reset', 0, 'by_duration:-PT1H']]],
      ['a record lock under the validator', [['share.record.lock.duration.ms', 0, '999']]],
      ['a session under the broker bound', [['consumer.session.timeout.ms', 0, '30000']]],
      ['a heartbeat over the broker bound', [['consumer.heartbeat.interval.ms', 0, '16000']]],
      ['a share session over the broker bound', [['share.session.timeout.ms', 0, '60001']]],
      ['a share record lock under the broker bound', [['share.record.lock.duration.ms', 0, '14999']]],
      ['two unknown keys', [['share.x.y', 0, '1'], ['zz.a', 0, '1']]],
      ['APPEND', [['share.auto.offset.reset', 2, 'earliest']]],
      ['a null value', [['consumer.session.timeout.ms', 0, null]]],
      ['a key twice', [['consumer.session.timeout.ms', 0, '50000'], ['consumer.session.timeout.ms', 0, '55000']]],
    ] as [string, Op[]][]) {
      await inc(`${label}, validateOnly`, 'conf-gc-bad', ops, true);
    }
    await inc('the default group', '', [['consumer.session.timeout.ms', 0, '50000']]);
    await describe('the default group', '', null);
    await inc('a valid change, validateOnly', 'conf-gc-vo', [['consumer.session.timeout.ms', 0, '50000']], true);
    await describe('after validateOnly', 'conf-gc-vo', ['consumer.session.timeout.ms']);
    await inc('DELETE one key (and one never set)', 'conf-gc', [['consumer.heartbeat.interval.ms', 1, null], ['conf.never', 1, null]]);
    await settled('conf-gc', 'consumer.heartbeat.interval.ms', null);
    await describe('after DELETE', 'conf-gc', ['consumer.heartbeat.interval.ms', 'share.session.timeout.ms']);
    await s.step('AlterConfigs replaces the group config', ApiKey.AlterConfigs, V.alterConfigs, { resources: [{ resourceType: G, resourceName: 'conf-gc', configs: [{ name: 'consumer.session.timeout.ms', value: '55000' }] }], validateOnly: false });
    await settled('conf-gc', 'consumer.session.timeout.ms', '55000');
    await describe('after AlterConfigs', 'conf-gc', ['consumer.session.timeout.ms', 'share.session.timeout.ms']);
    await s.step('AlterConfigs with a bad value', ApiKey.AlterConfigs, V.alterConfigs, { resources: [{ resourceType: G, resourceName: 'conf-gc', configs: [{ name: 'consumer.session.timeout.ms', value: '1' }] }], validateOnly: false });
  },
};

const apiVersions: Sequence = {
  id: 'api-versions',
  title: 'ApiVersions',
  rules: 'the API key ranges the profile advertises, as that Kafka\'s broker does',
  async run(s) {
    await s.step('ApiVersions v3', ApiKey.ApiVersions, V.apiVersions, { clientSoftwareName: 'conformance', clientSoftwareVersion: '1' });
  },
};

const produceErrors: Sequence = {
  id: 'produce-errors',
  title: 'Produce: refused requests and batches',
  rules: 'Produce validation: acks other than -1, 0, 1 (INVALID_REQUIRED_ACKS), unknown topics and partitions, a batch whose CRC does not match (CORRUPT_MESSAGE), a batch above max.message.bytes (MESSAGE_TOO_LARGE), a timestamp beyond message.timestamp.after.max.ms, a transactional batch without a transactional id',
  async run(s) {
    const topic = 'conf-produce-errors';
    await createTopic(s, topic);
    const send = (label: string, body: object) => s.step(label, ApiKey.Produce, V.produce, body);
    await send('acks 2', { ...produceBody(topic, batch(['a'])), acks: 2 });
    await send('unknown topic', produceBody('conf-produce-missing', batch(['a'])));
    await send('unknown partition', produceBody(topic, batch(['a']), null, 7));
    const corrupt = batch(['crc']);
    corrupt[corrupt.length - 1]! ^= 0xff;
    await send('CRC mismatch', produceBody(topic, corrupt));
    await send('a batch above max.message.bytes', produceBody(topic, batch(['x'.repeat(1_100_000)])));
    await send('a timestamp two hours ahead', produceBody(topic, batch(['future'], { timestamp: Date.now() + 2 * 3_600_000 })));
    await send('a transactional batch without a transactional id', produceBody(topic, batch(['t'], { producerId: 4242, producerEpoch: 0, baseSequence: 0, transactional: true })));
    await send('a good batch', produceBody(topic, batch(['ok'])));
    await s.step('ListOffsets latest', ApiKey.ListOffsets, V.listOffsets, listOffsetsBody(topic, -1));
  },
};

const fetchErrors: Sequence = {
  id: 'fetch-errors',
  title: 'Fetch: offsets out of range, leader epochs, unknown partitions',
  rules: 'Fetch validation: OFFSET_OUT_OF_RANGE past the log end, an empty answer at the high watermark, FENCED_LEADER_EPOCH and UNKNOWN_LEADER_EPOCH, unknown topics and partitions',
  async run(s) {
    const topic = 'conf-fetch-errors';
    await createTopic(s, topic);
    await s.step('Produce', ApiKey.Produce, V.produce, produceBody(topic, batch(['a', 'b'])));
    const fetch = (label: string, over: { fetchOffset?: number; currentLeaderEpoch?: number; partition?: number; topic?: string }) => {
      const body = fetchBody(over.topic ?? topic, over.fetchOffset ?? 0, 0, over.partition ?? 0);
      body.topics[0]!.partitions[0]!.currentLeaderEpoch = over.currentLeaderEpoch ?? -1;
      return s.step(label, ApiKey.Fetch, V.fetch, body);
    };
    await fetch('from 0', {});
    await fetch('at the high watermark', { fetchOffset: 2 });
    await fetch('past the log end', { fetchOffset: 5 });
    await fetch('current leader epoch 0', { currentLeaderEpoch: 0 });
    await fetch('a leader epoch from the future', { currentLeaderEpoch: 7 });
    await fetch('unknown partition', { partition: 3 });
    await fetch('unknown topic', { topic: 'conf-fetch-missing' });
  },
};

const staticMembers: Sequence = {
  id: 'static-members',
  title: 'Static group members and DescribeGroups',
  rules: 'static membership (KIP-345): a group instance id rejoining with a new member id fences the old one (FENCED_INSTANCE_ID), DescribeGroups of a stable and of an unknown group, LeaveGroup by instance id',
  async run(s) {
    const group = 'conf-static';
    await findCoordinator(s, group, 0);
    const protocols = [{ name: 'range', metadata: Buffer.from([0, 1, 0, 0, 0, 0, 0, 0, 0, 0]) }];
    const join = (memberId: string) => ({ groupId: group, sessionTimeoutMs: 30_000, rebalanceTimeoutMs: 10_000, memberId, groupInstanceId: 'conf-instance-1', protocolType: 'consumer', protocols, reason: null });
    const j1 = await s.step('JoinGroup with a group instance id', ApiKey.JoinGroup, V.joinGroup, join(''));
    const m1 = j1.memberId as string;
    await s.step('SyncGroup', ApiKey.SyncGroup, V.syncGroup, { groupId: group, generationId: j1.generationId, memberId: m1, groupInstanceId: 'conf-instance-1', protocolType: 'consumer', protocolName: 'range', assignments: [{ memberId: m1, assignment: Buffer.from('A') }] });
    await s.step('DescribeGroups (stable)', ApiKey.DescribeGroups, V.describeGroups, { groups: [group, 'conf-static-nobody'], includeAuthorizedOperations: false });
    const j2 = await s.step('the same instance joins again without a member id', ApiKey.JoinGroup, V.joinGroup, join(''));
    await s.step('Heartbeat of the replaced member id', ApiKey.Heartbeat, V.heartbeat, { groupId: group, generationId: j1.generationId, memberId: m1, groupInstanceId: 'conf-instance-1' });
    await s.step('Heartbeat of the new member id', ApiKey.Heartbeat, V.heartbeat, { groupId: group, generationId: j2.generationId, memberId: j2.memberId, groupInstanceId: 'conf-instance-1' });
    await s.step('LeaveGroup by instance id', ApiKey.LeaveGroup, V.leaveGroup, { groupId: group, members: [{ memberId: '', groupInstanceId: 'conf-instance-1', reason: null }] });
    await s.step('DescribeGroups (after the leave)', ApiKey.DescribeGroups, V.describeGroups, { groups: [group], includeAuthorizedOperations: false });
  },
};

const txnOffsets: Sequence = {
  id: 'txn-offsets',
  title: 'Offsets in a transaction',
  rules: 'AddOffsetsToTxn and TxnOffsetCommit, OffsetFetch with require_stable while the commit is pending (UNSTABLE_OFFSET_COMMIT), the offsets after commit and after abort',
  async run(s) {
    const topic = 'conf-txn-offsets';
    const group = 'conf-txn-offsets-group';
    const id = 'conf-txn-offsets-1';
    await createTopic(s, topic);
    await findCoordinator(s, group, 0);
    const p = await initTxn(s, 'InitProducerId', id);
    const addOffsets = (label: string) => s.step(label, ApiKey.AddOffsetsToTxn, V.addOffsetsToTxn, { transactionalId: id, ...p, groupId: group });
    const commit = (label: string, offset: number) =>
      s.step(label, ApiKey.TxnOffsetCommit, V.txnOffsetCommit, {
        transactionalId: id,
        groupId: group,
        ...p,
        generationIdOrMemberEpoch: -1,
        memberId: '',
        groupInstanceId: null,
        topics: [{ name: topic, partitions: [{ partitionIndex: 0, committedOffset: offset, committedLeaderEpoch: -1, committedMetadata: null }] }],
      });
    const fetch = (label: string, requireStable: boolean) => s.step(label, ApiKey.OffsetFetch, V.offsetFetch, { groups: [{ groupId: group, topics: [{ name: topic, partitionIndexes: [0] }] }], requireStable });
    await commit('TxnOffsetCommit before AddOffsetsToTxn', 3);
    await addOffsets('AddOffsetsToTxn');
    await commit('TxnOffsetCommit', 5);
    await fetch('OffsetFetch require_stable, commit pending', true);
    await fetch('OffsetFetch, commit pending', false);
    await s.step('EndTxn commit', ApiKey.EndTxn, V.endTxn, endTxn(id, p, true));
    await waitTxnComplete(s, id);
    await fetch('OffsetFetch after the commit', true);
    await s.settled('AddOffsetsToTxn (second)', ApiKey.AddOffsetsToTxn, V.addOffsetsToTxn, { transactionalId: id, ...p, groupId: group }, TXN_RETRY);
    await commit('TxnOffsetCommit (second)', 9);
    await s.step('EndTxn abort', ApiKey.EndTxn, V.endTxn, endTxn(id, p, false));
    await waitTxnComplete(s, id);
    await fetch('OffsetFetch after the abort', true);
  },
};

const consumerGroup: Sequence = {
  id: 'consumer-group',
  title: 'KIP-848 consumer group: ConsumerGroupHeartbeat, ConsumerGroupDescribe',
  rules:
    'KIP-848 group coordinator (4.x only; a 3.9 broker with its defaults does not serve it, so the sequence sends nothing there): INVALID_REQUEST checks, GROUP_ID_NOT_FOUND, UNSUPPORTED_ASSIGNOR, a join at epoch 0, UNKNOWN_MEMBER_ID, FENCED_MEMBER_EPOCH, a second member waiting for a partition the first still owns (revocation before assignment), the revocation acknowledged, OffsetCommit v9 with the member epoch (STALE_MEMBER_EPOCH), ListGroups and DescribeGroups of a consumer group, static members (UNRELEASED_INSTANCE_ID, leave with -2, rejoin), leave with -1',
  async run(s) {
    // 3.9 (the default profile, and a 3.9 broker's defaults) does not serve ConsumerGroupHeartbeat.
    if (!onKafka4()) return;
    const topic = 'conf-cg';
    const group = 'conf-cg-group';
    await createTopic(s, topic, 2);
    await findCoordinator(s, group, 0);
    const a = await s.connection();
    const b = await s.connection();
    const hb = (o: { memberId: string; memberEpoch: number; instanceId?: string | null; owned?: number[] | null; topics?: string[] | null; assignor?: string | null; rebalanceTimeoutMs?: number; groupId?: string }, topicId = '') => ({
      groupId: o.groupId ?? group,
      memberId: o.memberId,
      memberEpoch: o.memberEpoch,
      instanceId: o.instanceId ?? null,
      rackId: null,
      rebalanceTimeoutMs: o.rebalanceTimeoutMs ?? (o.memberEpoch === 0 ? 30_000 : -1),
      subscribedTopicNames: o.topics === undefined ? (o.memberEpoch === 0 ? [topic] : null) : o.topics,
      serverAssignor: o.assignor ?? null,
      topicPartitions: o.owned === undefined ? (o.memberEpoch === 0 ? [] : null) : o.owned === null ? null : o.owned.length ? [{ topicId, partitions: o.owned }] : [],
    });
    const step = (label: string, body: unknown, on = a) => s.step(label, ApiKey.ConsumerGroupHeartbeat, 0, body, on);
    await step('rebalance timeout missing on joining', { ...hb({ memberId: 'conf-cg-a', memberEpoch: 0 }), rebalanceTimeoutMs: -1 });
    await step('owned partitions on joining', { ...hb({ memberId: 'conf-cg-a', memberEpoch: 0 }), topicPartitions: null });
    await step('an epoch below -2', hb({ memberId: 'conf-cg-a', memberEpoch: -3 }));
    await step('epoch 1 without a member id', hb({ memberId: '', memberEpoch: 1 }));
    await step('an unknown server assignor', hb({ memberId: 'conf-cg-a', memberEpoch: 0, assignor: 'sticky' }));
    await step('a heartbeat to a group that does not exist', hb({ memberId: 'conf-cg-a', memberEpoch: 1 }));
    // The coordinator may still be loading its partition on a new real broker.
    const joined = await s.settled('member a joins (epoch 0)', ApiKey.ConsumerGroupHeartbeat, 0, hb({ memberId: 'conf-cg-a', memberEpoch: 0 }), ['COORDINATOR_LOAD_IN_PROGRESS', 'NOT_COORDINATOR', 'COORDINATOR_NOT_AVAILABLE'], a);
    const topicId = joined.assignment?.topicPartitions?.[0]?.topicId as string;
    await step('member a heartbeats', hb({ memberId: 'conf-cg-a', memberEpoch: 1 }, topicId));
    await step('an unknown member', hb({ memberId: 'conf-cg-nobody', memberEpoch: 1 }, topicId));
    await step('member a with an epoch ahead', hb({ memberId: 'conf-cg-a', memberEpoch: 7 }, topicId));
    await step('member b joins (the partitions are still a\'s)', hb({ memberId: 'conf-cg-b', memberEpoch: 0 }), b);
    await s.step('ConsumerGroupDescribe while reconciling', ApiKey.ConsumerGroupDescribe, 0, { groupIds: [group, 'conf-cg-nobody'], includeAuthorizedOperations: false });
    await step('member a, owning both, is asked to revoke one', hb({ memberId: 'conf-cg-a', memberEpoch: 1, owned: [0, 1] }, topicId));
    await step('member b before a has revoked', hb({ memberId: 'conf-cg-b', memberEpoch: 2, owned: [] }, topicId), b);
    await step('member a has revoked partition 1', hb({ memberId: 'conf-cg-a', memberEpoch: 1, owned: [0] }, topicId));
    await step('member b gets partition 1', hb({ memberId: 'conf-cg-b', memberEpoch: 2, owned: [] }, topicId), b);
    await s.step('ConsumerGroupDescribe when stable', ApiKey.ConsumerGroupDescribe, 0, { groupIds: [group], includeAuthorizedOperations: false });
    const commit = (memberEpoch: number, version = 9) => ({
      groupId: group,
      generationIdOrMemberEpoch: memberEpoch,
      memberId: 'conf-cg-a',
      groupInstanceId: null,
      retentionTimeMs: -1,
      topics: [{ name: topic, partitions: [{ partitionIndex: 0, committedOffset: 0, committedLeaderEpoch: -1, committedMetadata: '' }] }],
    });
    await s.step('OffsetCommit v9, an old member epoch', ApiKey.OffsetCommit, 9, commit(1));
    await s.step('OffsetCommit v9, the member epoch', ApiKey.OffsetCommit, 9, commit(2));
    await s.step('OffsetCommit v8 from a consumer-protocol member', ApiKey.OffsetCommit, 8, commit(2, 8));
    await s.step('ListGroups of type consumer', ApiKey.ListGroups, 5, { statesFilter: [], typesFilter: ['consumer'] });
    await s.step('DescribeGroups v5 of a consumer group', ApiKey.DescribeGroups, 5, { groups: [group], includeAuthorizedOperations: false });
    await step('member b leaves (-1)', hb({ memberId: 'conf-cg-b', memberEpoch: -1, topics: null, owned: null }), b);
    await step('member a leaves (-1)', hb({ memberId: 'conf-cg-a', memberEpoch: -1, topics: null, owned: null }));
    const statics = 'conf-cg-static';
    await findCoordinator(s, statics, 0);
    const st = (memberId: string, memberEpoch: number) => hb({ groupId: statics, memberId, memberEpoch, instanceId: 'conf-cg-instance', ...(memberEpoch < 0 ? { topics: null, owned: null } : {}) });
    await s.settled('static member s1 joins', ApiKey.ConsumerGroupHeartbeat, 0, st('conf-cg-s1', 0), ['COORDINATOR_LOAD_IN_PROGRESS', 'NOT_COORDINATOR', 'COORDINATOR_NOT_AVAILABLE'], a);
    await step('another member with the same instance id', st('conf-cg-s2', 0), b);
    await step('static member s1 leaves for a while (-2)', st('conf-cg-s1', -2));
    await step('s2 takes the instance id over', st('conf-cg-s2', 0), b);
    await step('s1 again', st('conf-cg-s1', 1));
    await s.step('ConsumerGroupDescribe of the static group', ApiKey.ConsumerGroupDescribe, 0, { groupIds: [statics], includeAuthorizedOperations: false });
  },
};

const consumerGroupRegex: Sequence = {
  id: 'consumer-group-regex',
  title: 'KIP-848 v1: client-made member ids and regex subscriptions',
  rules:
    'ConsumerGroupHeartbeat v1 (4.x only): an empty member id is INVALID_REQUEST (KIP-1082); an invalid SubscribedTopicRegex is INVALID_REGULAR_EXPRESSION; a member subscribed by regex joins at epoch 1 with nothing assigned, the coordinator resolves the regex after answering and bumps the group epoch, and the next heartbeat gets the matching topics; ConsumerGroupDescribe v1 shows the regex and the member type',
  async run(s) {
    if (!onKafka4()) return;
    const topic = 'conf-cgr-orders';
    const group = 'conf-cgr-group';
    await createTopic(s, topic, 2);
    await findCoordinator(s, group, 0);
    const hb = (memberId: string, memberEpoch: number, regex: string | null) => ({
      groupId: group,
      memberId,
      memberEpoch,
      instanceId: null,
      rackId: null,
      rebalanceTimeoutMs: memberEpoch === 0 ? 30_000 : -1,
      subscribedTopicNames: null,
      subscribedTopicRegex: regex,
      serverAssignor: null,
      topicPartitions: memberEpoch === 0 ? [] : null,
    });
    const step = (label: string, body: unknown) => s.step(label, ApiKey.ConsumerGroupHeartbeat, 1, body);
    await step('v1: joining without a member id', hb('', 0, 'conf-cgr-.*'));
    await s.settled('v1: an invalid regex', ApiKey.ConsumerGroupHeartbeat, 1, hb('conf-cgr-a', 0, '(conf'), ['COORDINATOR_LOAD_IN_PROGRESS', 'NOT_COORDINATOR', 'COORDINATOR_NOT_AVAILABLE']);
    await step('v1: a lookahead (not RE2 syntax)', hb('conf-cgr-a', 0, '(?=conf)conf-cgr-.*'));
    await step('v1: joining with a regex (not resolved yet: nothing assigned)', hb('conf-cgr-a', 0, 'conf-cgr-.*'));
    // The coordinator resolves the regex on its executor after answering.
    await new Promise((r) => setTimeout(r, 500));
    await step('the next heartbeat, the regex resolved: its topic at a new epoch', hb('conf-cgr-a', 1, null));
    await s.step('ConsumerGroupDescribe v1', ApiKey.ConsumerGroupDescribe, 1, { groupIds: [group], includeAuthorizedOperations: false });
    await step('the member leaves (-1)', { ...hb('conf-cgr-a', -1, null), topicPartitions: null });
  },
};

/** The sequences of what only 4.4 serves of 4.x (share groups) send nothing against 3.9 and 4.0. */
const onKafka44 = () => /^4\.4\./.test(process.env.KAFKAESQUE_CONFORMANCE_VERSION ?? '');

const shareGroups: Sequence = {
  id: 'share-groups',
  on44: true,
  title: 'KIP-932 share groups: ShareGroupHeartbeat, ShareFetch, ShareAcknowledge, the share-group offsets APIs',
  rules:
    'Share groups (4.4 only: KafkaApis, GroupMetadataManager#shareGroupHeartbeat, SharePartition, ShareSessionCache): the heartbeat checks (member id, first request), a join at epoch 2, share sessions (epoch 0 opens and takes no acknowledgements, the next epoch or INVALID_SHARE_SESSION_EPOCH, SHARE_SESSION_NOT_FOUND), acquisition with delivery counts, acknowledgements applied before the fetch (a RELEASEd record acquired again, delivery count 2), acknowledgements all or nothing (INVALID_REQUEST past the acquired records), DescribeShareGroupOffsets (start offset, lag), Alter and DeleteShareGroupOffsets on an Empty group (NON_EMPTY_GROUP otherwise), ListGroups of type share, DeleteGroups',
  async run(s) {
    if (!onKafka44()) return;
    const topic = 'conf-share';
    const group = 'conf-share-group';
    await createTopic(s, topic, 1);
    await findCoordinator(s, group, 0);
    await s.setup(ApiKey.IncrementalAlterConfigs, 1, { resources: [{ resourceType: 32, resourceName: group, configs: [{ name: 'share.auto.offset.reset', configOperation: 0, value: 'earliest' }] }], validateOnly: false });
    await s.setup(ApiKey.Produce, V.produce, produceBody(topic, batch(['s-0', 's-1', 's-2'])));
    const md = await s.setup<any>(ApiKey.Metadata, V.metadata, { topics: [{ name: topic }], allowAutoTopicCreation: false, includeTopicAuthorizedOperations: false });
    const topicId = md.topics[0].topicId as string;
    const hb = (memberId: string, memberEpoch: number, topics: string[] | null) => ({ groupId: group, memberId, memberEpoch, rackId: null, subscribedTopicNames: topics });
    await s.step('ShareGroupHeartbeat: an empty member id', ApiKey.ShareGroupHeartbeat, 1, hb('', 0, [topic]));
    await s.step('ShareGroupHeartbeat: the first request without topics', ApiKey.ShareGroupHeartbeat, 1, hb('conf-share-a', 0, null));
    await s.step('ShareGroupHeartbeat: an unknown group at epoch 1', ApiKey.ShareGroupHeartbeat, 1, hb('conf-share-a', 1, null));
    // Its assignment is known to differ (Kafka answers the partitions a heartbeat later): not compared.
    await s.setup(ApiKey.ShareGroupHeartbeat, 1, hb('conf-share-a', 0, [topic]), ['COORDINATOR_LOAD_IN_PROGRESS', 'NOT_COORDINATOR', 'COORDINATOR_NOT_AVAILABLE']);
    const fetch = (epoch: number, acks: { first: number; last: number; types: number[] }[] = [], partitions = [0]) => ({
      groupId: group,
      memberId: 'conf-share-a',
      shareSessionEpoch: epoch,
      maxWaitMs: 500,
      minBytes: 1,
      maxBytes: 1 << 20,
      maxRecords: 500,
      batchSize: 500,
      topics: [{ topicId, partitions: partitions.map((partitionIndex) => ({ partitionIndex, acknowledgementBatches: acks.map((a) => ({ firstOffset: a.first, lastOffset: a.last, acknowledgeTypes: a.types })) })) }],
      forgottenTopicsData: [],
    });
    await s.step('ShareFetch: a session epoch never opened', ApiKey.ShareFetch, 1, fetch(4));
    await s.step('ShareFetch: opening a session with acknowledgements', ApiKey.ShareFetch, 1, fetch(0, [{ first: 0, last: 0, types: [1] }]));
    // The share partition may still be initializing on a real broker: retried until it hands records out.
    const deadline = Date.now() + 10_000;
    let first = await s.setup<any>(ApiKey.ShareFetch, 1, fetch(0));
    while ((first.responses[0]?.partitions[0]?.acquiredRecords ?? []).length === 0 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 200));
      first = await s.setup<any>(ApiKey.ShareFetch, 1, fetch(0));
    }
    s.record('ShareFetch: opening a session acquires every record, delivery count 1', 'ShareFetch', 1, first);
    await s.step('DescribeShareGroupOffsets v1 before any acknowledgement', ApiKey.DescribeShareGroupOffsets, 1, { groups: [{ groupId: group, topics: [{ topicName: topic, partitions: [0] }] }] });
    await s.step('ShareFetch: a wrong epoch', ApiKey.ShareFetch, 1, fetch(5));
    await s.step('ShareFetch: ACCEPT 0 and 2, RELEASE 1, then fetch: 1 again, delivery count 2', ApiKey.ShareFetch, 1, fetch(1, [{ first: 0, last: 2, types: [1, 2, 1] }]));
    const ack = (epoch: number, batches: { first: number; last: number; types: number[] }[]) => ({
      groupId: group,
      memberId: 'conf-share-a',
      shareSessionEpoch: epoch,
      topics: [{ topicId, partitions: [{ partitionIndex: 0, acknowledgementBatches: batches.map((a) => ({ firstOffset: a.first, lastOffset: a.last, acknowledgeTypes: a.types })) }] }],
    });
    await s.step('ShareAcknowledge: epoch 0', ApiKey.ShareAcknowledge, 1, ack(0, [{ first: 1, last: 1, types: [1] }]));
    await s.step('ShareAcknowledge: past the acquired records (nothing applied)', ApiKey.ShareAcknowledge, 1, ack(2, [{ first: 1, last: 1, types: [1] }, { first: 2, last: 9, types: [1] }]));
    await s.step('ShareAcknowledge: ACCEPT 0-1 (0 is below the start offset: skipped)', ApiKey.ShareAcknowledge, 1, ack(3, [{ first: 0, last: 1, types: [1] }]));
    await s.step('ShareAcknowledge: ACCEPT 1 again (acknowledged already)', ApiKey.ShareAcknowledge, 1, ack(4, [{ first: 1, last: 1, types: [1] }]));
    await s.step('DescribeShareGroupOffsets v1 after every record is acknowledged', ApiKey.DescribeShareGroupOffsets, 1, { groups: [{ groupId: group, topics: [{ topicName: topic, partitions: [0] }] }, { groupId: 'conf-share-nobody', topics: [{ topicName: topic, partitions: [0] }] }] });
    await s.step('ShareFetch: closing the session (-1)', ApiKey.ShareFetch, 1, fetch(-1, [], []));
    await s.step('AlterShareGroupOffsets of a group with a member', ApiKey.AlterShareGroupOffsets, 0, { groupId: group, topics: [{ topicName: topic, partitions: [{ partitionIndex: 0, startOffset: 1 }] }] });
    await s.step('ListGroups of type share', ApiKey.ListGroups, 5, { statesFilter: [], typesFilter: ['share'] });
    await s.step('ShareGroupHeartbeat: the member leaves (-1)', ApiKey.ShareGroupHeartbeat, 1, hb('conf-share-a', -1, null));
    await s.step('AlterShareGroupOffsets of the Empty group', ApiKey.AlterShareGroupOffsets, 0, { groupId: group, topics: [{ topicName: topic, partitions: [{ partitionIndex: 0, startOffset: 1 }, { partitionIndex: 3, startOffset: 0 }] }, { topicName: 'conf-share-none', partitions: [{ partitionIndex: 0, startOffset: 0 }] }] });
    await s.step('DeleteShareGroupOffsets', ApiKey.DeleteShareGroupOffsets, 0, { groupId: group, topics: [{ topicName: topic }, { topicName: 'conf-share-none' }] });
    await s.step('DeleteGroups of the Empty share group', ApiKey.DeleteGroups, 2, { groupsNames: [group] });
  },
};

export const SEQUENCES: readonly Sequence[] = [
  idempotentProduce,
  transactions,
  transactionsV2,
  readCommitted,
  txnOffsets,
  groups,
  staticMembers,
  consumerGroup,
  consumerGroupRegex,
  offsets,
  listOffsets,
  produceErrors,
  fetchErrors,
  metadata,
  createTopics,
  describeConfigs,
  groupConfigs,
  shareGroups,
  apiVersions,
];
