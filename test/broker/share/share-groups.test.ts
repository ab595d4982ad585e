// KIP-932 over the wire: raw ShareGroupHeartbeat, ShareGroupDescribe,
// ShareFetch, ShareAcknowledge and the share-group offsets APIs against a 4.4
// cluster on a manual clock, each answer checked against what Kafka 4.4's
// GroupMetadataManager, SharePartition and ShareSessionCache answer: epochs
// from 1, the simple assignor sharing partitions, share sessions and their
// epochs, acquisition locks that run out, delivery counts and the delivery
// limit, acknowledgements all or nothing, the start offset, dead letters.
import { ManualClock, startCluster, type RunningCluster } from '../../../src/index.js';
import { ApiKey } from '../../../src/protocol/messages/index.js';
import { ErrorCode } from '../../../src/protocol/errors.js';
import { buildRecordBatch, decodeRecords, splitBatches } from '../../../src/protocol/record-batch.js';
import { WireClient } from '../../support/wire-client.js';

let kafka: RunningCluster;
let clock: ManualClock;
const clients: WireClient[] = [];
beforeAll(async () => {
  clock = new ManualClock();
  kafka = await startCluster({ brokers: 1, clock, kafkaVersion: '4.4', proxy: false });
});
afterAll(async () => {
  for (const c of clients) c.close();
  await kafka.stop();
});

async function connect(): Promise<WireClient> {
  const c = await WireClient.connect(kafka.bootstrap);
  clients.push(c);
  return c;
}

let topicSeq = 0;
function newTopic(partitions = 1, configs: Record<string, string> = {}): { name: string; id: string } {
  const name = `share-t${++topicSeq}`;
  const r = kafka.cluster.createTopic(name, { numPartitions: partitions, replicationFactor: 1, configs });
  if (!r.ok) throw new Error(r.message);
  return { name, id: kafka.cluster.topic(name)!.topicId };
}

async function produce(c: WireClient, topic: string, values: string[], partition = 0): Promise<void> {
  const records = buildRecordBatch(values.map((v) => ({ key: null, value: v })), { timestamp: clock.now() });
  const res = await c.request(ApiKey.Produce, 11, { transactionalId: null, acks: -1, timeoutMs: 5000, topicData: [{ name: topic, partitionData: [{ index: partition, records }] }] });
  expect(res.responses[0].partitionResponses[0].errorCode).toBe(0);
}

const hb = (groupId: string, memberId: string, memberEpoch: number, topics: string[] | null) => ({ groupId, memberId, memberEpoch, rackId: null, subscribedTopicNames: topics });

function setEarliest(groupId: string): void {
  kafka.cluster.groupConfigs.set(groupId, 'share.auto.offset.reset', 'earliest');
}

interface FetchOpts {
  epoch: number;
  topicId: string;
  partitions?: number[];
  acks?: { partition: number; first: number; last: number; types: number[] }[];
  maxWaitMs?: number;
  maxRecords?: number;
  version?: number;
  acquireMode?: number;
}

function shareFetch(c: WireClient, groupId: string, memberId: string, o: FetchOpts) {
  const partitions = new Set([...(o.partitions ?? [0]), ...(o.acks ?? []).map((a) => a.partition)]);
  return c.request(ApiKey.ShareFetch, o.version ?? 1, {
    groupId,
    memberId,
    shareSessionEpoch: o.epoch,
    maxWaitMs: o.maxWaitMs ?? 0,
    minBytes: 1,
    maxBytes: 1 << 20,
    maxRecords: o.maxRecords ?? 500,
    batchSize: 500,
    shareAcquireMode: o.acquireMode ?? 0,
    isRenewAck: false,
    topics: [
      {
        topicId: o.topicId,
        partitions: [...partitions].map((p) => ({
          partitionIndex: p,
          partitionMaxBytes: 0,
          acknowledgementBatches: (o.acks ?? []).filter((a) => a.partition === p).map((a) => ({ firstOffset: a.first, lastOffset: a.last, acknowledgeTypes: a.types })),
        })),
      },
    ],
    forgottenTopicsData: [],
  });
}

/** The values of the records a partition answer acquired for the member (the batches may hold more). */
function acquiredValues(part: { records: Buffer; acquiredRecords: { firstOffset: bigint | number; lastOffset: bigint | number; deliveryCount: number }[] }): string[] {
  const ranges = part.acquiredRecords.map((a) => [Number(a.firstOffset), Number(a.lastOffset)] as const);
  return splitBatches(part.records)
    .batches.flatMap((b) => decodeRecords(b))
    .filter((r) => ranges.some(([f, l]) => r.offset >= f && r.offset <= l))
    .map((r) => r.value!.toString());
}

const ACCEPT = 1;
const RELEASE = 2;
const REJECT = 3;

describe('ShareGroupHeartbeat and ShareGroupDescribe', () => {
  test('a first member joins at epoch 2 (4.4 groups start at 1) with every partition; describe shows the simple assignor', async () => {
    const t = newTopic(3);
    const c = await connect();
    const res = await c.request(ApiKey.ShareGroupHeartbeat, 1, hb('sg-1', 'member-a', 0, [t.name]));
    expect(res).toMatchObject({ errorCode: 0, errorMessage: null, memberId: 'member-a', memberEpoch: 2, heartbeatIntervalMs: 5000 });
    expect(res.assignment.topicPartitions).toEqual([{ topicId: t.id, partitions: [0, 1, 2] }]);
    // A heartbeat that changes nothing carries no assignment.
    expect((await c.request(ApiKey.ShareGroupHeartbeat, 1, hb('sg-1', 'member-a', 2, null))).assignment).toBeNull();
    const d = (await c.request(ApiKey.ShareGroupDescribe, 1, { groupIds: ['sg-1', 'nope', ''], includeAuthorizedOperations: false })).groups;
    expect(d[0]).toMatchObject({ errorCode: 0, groupState: 'Stable', groupEpoch: 2, assignmentEpoch: 2, assignorName: 'simple' });
    expect(d[0].members[0]).toMatchObject({ memberId: 'member-a', memberEpoch: 2, subscribedTopicNames: [t.name], assignment: { topicPartitions: [{ topicId: t.id, topicName: t.name, partitions: [0, 1, 2] }] } });
    expect(d[1]).toMatchObject({ errorCode: ErrorCode.GROUP_ID_NOT_FOUND, errorMessage: 'Group nope not found.' });
    expect(d[2]).toMatchObject({ errorCode: ErrorCode.INVALID_GROUP_ID });
  });

  test('more members than partitions share them: three members on one partition all get it', async () => {
    const t = newTopic(1);
    const c = await connect();
    const epochs = [];
    for (const m of ['m1', 'm2', 'm3']) epochs.push((await c.request(ApiKey.ShareGroupHeartbeat, 1, hb('sg-shared', m, 0, [t.name]))).memberEpoch);
    expect(epochs).toEqual([2, 3, 4]);
    // The earlier members move to the new epoch on their next heartbeat, still with the partition.
    const m1 = await c.request(ApiKey.ShareGroupHeartbeat, 1, hb('sg-shared', 'm1', 2, null));
    expect(m1.memberEpoch).toBe(4);
    const d = (await c.request(ApiKey.ShareGroupDescribe, 1, { groupIds: ['sg-shared'], includeAuthorizedOperations: false })).groups[0];
    expect(d.members.map((m: { assignment: { topicPartitions: { partitions: number[] }[] } }) => m.assignment.topicPartitions[0]?.partitions)).toEqual([[0], [0], [0]]);
  });

  test('the request checks of KafkaApis and GroupCoordinatorService, with their messages', async () => {
    const t = newTopic(1);
    const c = await connect();
    const call = (body: ReturnType<typeof hb>) => c.request(ApiKey.ShareGroupHeartbeat, 1, body);
    expect(await call(hb('sg-v', '', 0, [t.name]))).toMatchObject({ errorCode: ErrorCode.INVALID_REQUEST, errorMessage: null });
    expect(await call(hb('sg-v', 'x'.repeat(37), 0, [t.name]))).toMatchObject({ errorCode: ErrorCode.INVALID_REQUEST, errorMessage: null });
    expect(await call(hb('sg-v', '  ', 0, [t.name]))).toMatchObject({ errorCode: ErrorCode.INVALID_REQUEST, errorMessage: "MemberId can't be empty." });
    expect(await call(hb('sg-v', 'a', 0, null))).toMatchObject({ errorCode: ErrorCode.INVALID_REQUEST, errorMessage: 'SubscribedTopicNames must be set in first request.' });
    expect(await call(hb('sg-v', 'a', -2, null))).toMatchObject({ errorCode: ErrorCode.INVALID_REQUEST, errorMessage: 'MemberEpoch is invalid.' });
    expect(await call(hb('sg-v', 'a', 3, null))).toMatchObject({ errorCode: ErrorCode.GROUP_ID_NOT_FOUND, errorMessage: 'Share group sg-v not found.' });
    expect((await call(hb('sg-v', 'a', 0, [t.name]))).memberEpoch).toBe(2);
    expect(await call(hb('sg-v', 'b', 5, null))).toMatchObject({ errorCode: ErrorCode.UNKNOWN_MEMBER_ID, errorMessage: 'Member b is not a member of group sg-v.' });
    expect(await call(hb('sg-v', 'a', 9, null))).toMatchObject({
      errorCode: ErrorCode.FENCED_MEMBER_EPOCH,
      errorMessage: 'The share group member has a greater member epoch (9) than the one known by the group coordinator (2). The member must abandon all its partitions and rejoin.',
    });
    // Leaving answers epoch -1 and heartbeat interval 0; the group is Empty.
    expect(await call(hb('sg-v', 'a', -1, null))).toMatchObject({ errorCode: 0, memberId: 'a', memberEpoch: -1, heartbeatIntervalMs: 0, assignment: null });
    expect(kafka.cluster.groups.shareGroups.state('sg-v')).toBe('Empty');
  });

  test('a group id holds one type: share and consumer heartbeats refuse each other, JoinGroup is INCONSISTENT_GROUP_PROTOCOL', async () => {
    const t = newTopic(1);
    const c = await connect();
    await c.request(ApiKey.ShareGroupHeartbeat, 1, hb('sg-type', 'a', 0, [t.name]));
    const cg = await c.request(ApiKey.ConsumerGroupHeartbeat, 1, { groupId: 'sg-type', memberId: 'zz', memberEpoch: 0, instanceId: null, rackId: null, rebalanceTimeoutMs: 30000, subscribedTopicNames: [t.name], subscribedTopicRegex: null, serverAssignor: null, topicPartitions: [] });
    expect(cg).toMatchObject({ errorCode: ErrorCode.GROUP_ID_NOT_FOUND, errorMessage: 'Group sg-type is not a consumer group.' });
    const join = await c.request(ApiKey.JoinGroup, 5, { groupId: 'sg-type', sessionTimeoutMs: 10000, rebalanceTimeoutMs: 10000, memberId: '', groupInstanceId: null, protocolType: 'consumer', protocols: [{ name: 'range', metadata: Buffer.alloc(0) }] });
    expect(join.errorCode).toBe(ErrorCode.INCONSISTENT_GROUP_PROTOCOL);
    const listed = await c.request(ApiKey.ListGroups, 5, { statesFilter: [], typesFilter: ['share'] });
    expect(listed.groups.find((g: { groupId: string }) => g.groupId === 'sg-type')).toEqual({ groupId: 'sg-type', protocolType: 'share', groupState: 'Stable', groupType: 'share' });
    // Not Empty: not deleted. Once Empty, it goes.
    expect((await c.request(ApiKey.DeleteGroups, 2, { groupsNames: ['sg-type'] })).results[0].errorCode).toBe(ErrorCode.NON_EMPTY_GROUP);
    await c.request(ApiKey.ShareGroupHeartbeat, 1, hb('sg-type', 'a', -1, null));
    expect((await c.request(ApiKey.DeleteGroups, 2, { groupsNames: ['sg-type'] })).results[0].errorCode).toBe(0);
    expect(kafka.cluster.groups.shareGroups.has('sg-type')).toBe(false);
  });

  test('a session that runs out fences the member and bumps the group epoch', async () => {
    const t = newTopic(1);
    const c = await connect();
    await c.request(ApiKey.ShareGroupHeartbeat, 1, hb('sg-timeout', 'a', 0, [t.name]));
    clock.advance(45_001);
    expect(kafka.cluster.groups.shareGroups.get('sg-timeout')!.groupEpoch).toBe(3);
    expect((await c.request(ApiKey.ShareGroupHeartbeat, 1, hb('sg-timeout', 'a', 2, null))).errorCode).toBe(ErrorCode.UNKNOWN_MEMBER_ID);
  });
});

describe('ShareFetch and ShareAcknowledge', () => {
  test('records are acquired once: a second member gets what the first did not take, then nothing', async () => {
    const t = newTopic(1);
    setEarliest('sf-1');
    const c = await connect();
    await produce(c, t.name, ['a', 'b', 'c']);
    const first = await shareFetch(c, 'sf-1', 'm1', { epoch: 0, topicId: t.id, maxRecords: 2 });
    expect(first.errorCode).toBe(0);
    expect(first.acquisitionLockTimeoutMs).toBe(30_000);
    const p1 = first.responses[0].partitions[0];
    // New records are acquired in whole batches: the budget of 2 takes the batch of 3.
    expect(p1.acquiredRecords.map((a: { firstOffset: unknown; lastOffset: unknown; deliveryCount: number }) => [Number(a.firstOffset), Number(a.lastOffset), a.deliveryCount])).toEqual([[0, 2, 1]]);
    expect(acquiredValues(p1)).toEqual(['a', 'b', 'c']);
    const second = await shareFetch(c, 'sf-1', 'm2', { epoch: 0, topicId: t.id });
    expect(second.responses[0].partitions[0].acquiredRecords).toEqual([]);
  });

  test('a RELEASE makes a record available again with its delivery count; at the delivery limit it is archived', async () => {
    const t = newTopic(1);
    setEarliest('sf-limit');
    kafka.cluster.groupConfigs.set('sf-limit', 'share.delivery.count.limit', '3');
    const c = await connect();
    await produce(c, t.name, ['poison']);
    let epoch = 0;
    const counts: number[] = [];
    let acks: FetchOpts['acks'] = [];
    for (let i = 0; i < 5; i++) {
      const r = await shareFetch(c, 'sf-limit', 'm', { epoch, topicId: t.id, acks });
      epoch = epoch === 0 ? 1 : epoch + 1;
      const got = r.responses[0]?.partitions[0]?.acquiredRecords ?? [];
      counts.push(...got.map((a: { deliveryCount: number }) => a.deliveryCount));
      acks = got.length > 0 ? [{ partition: 0, first: 0, last: 0, types: [RELEASE] }] : [];
    }
    // Delivered 3 times (the limit), then archived by the third RELEASE: never again.
    expect(counts).toEqual([1, 2, 3]);
    expect(kafka.cluster.shares.get('sf-limit', t.id, 0)!.startOffset).toBe(1);
  });

  test('an acquisition lock that runs out gives the records to another member, delivery count 2', async () => {
    const t = newTopic(1);
    setEarliest('sf-lock');
    const c = await connect();
    await produce(c, t.name, ['x']);
    await shareFetch(c, 'sf-lock', 'slow', { epoch: 0, topicId: t.id });
    expect((await shareFetch(c, 'sf-lock', 'other', { epoch: 0, topicId: t.id })).responses[0].partitions[0].acquiredRecords).toEqual([]);
    clock.advance(30_001);
    const again = await shareFetch(c, 'sf-lock', 'other', { epoch: 1, topicId: t.id });
    expect(again.responses[0].partitions[0].acquiredRecords.map((a: { deliveryCount: number }) => a.deliveryCount)).toEqual([2]);
    // The slow member's acknowledgement now comes too late.
    const late = await shareFetch(c, 'sf-lock', 'slow', { epoch: 1, topicId: t.id, acks: [{ partition: 0, first: 0, last: 0, types: [ACCEPT] }] });
    expect(late.responses[0].partitions[0]).toMatchObject({ acknowledgeErrorCode: ErrorCode.INVALID_RECORD_STATE, acknowledgeErrorMessage: 'Member is not the owner of offset' });
  });

  test('acknowledgements are all or nothing per partition, and ACCEPT moves the start offset', async () => {
    const t = newTopic(1);
    setEarliest('sf-ack');
    const c = await connect();
    await produce(c, t.name, ['a', 'b', 'c', 'd']);
    await shareFetch(c, 'sf-ack', 'm', { epoch: 0, topicId: t.id });
    // Offset 5 is past what was acquired: nothing of the request applies.
    const bad = await c.request(ApiKey.ShareAcknowledge, 1, {
      groupId: 'sf-ack',
      memberId: 'm',
      shareSessionEpoch: 1,
      isRenewAck: false,
      topics: [{ topicId: t.id, partitions: [{ partitionIndex: 0, acknowledgementBatches: [{ firstOffset: 0, lastOffset: 1, acknowledgeTypes: [ACCEPT] }, { firstOffset: 3, lastOffset: 5, acknowledgeTypes: [ACCEPT] }] }] }],
    });
    expect(bad.responses[0].partitions[0]).toMatchObject({ errorCode: ErrorCode.INVALID_REQUEST, errorMessage: 'Batch record not found. The last offset in request is past acquired records.' });
    expect(kafka.cluster.shares.get('sf-ack', t.id, 0)!.startOffset).toBe(0);
    const ok = await c.request(ApiKey.ShareAcknowledge, 1, {
      groupId: 'sf-ack',
      memberId: 'm',
      shareSessionEpoch: 2,
      isRenewAck: false,
      topics: [{ topicId: t.id, partitions: [{ partitionIndex: 0, acknowledgementBatches: [{ firstOffset: 0, lastOffset: 3, acknowledgeTypes: [ACCEPT, ACCEPT, REJECT, ACCEPT] }] }] }],
    });
    expect(ok.responses[0].partitions[0].errorCode).toBe(0);
    expect(ok.acquisitionLockTimeoutMs).toBe(0);
    expect(kafka.cluster.shares.get('sf-ack', t.id, 0)!.startOffset).toBe(4);
    // DescribeShareGroupOffsets answers the state as written: the start offset before this acknowledgement moved it
    // (0), with the 4 records after it done, so lag 0, as a real 4.4.0 answers (test/conformance).
    const d = await c.request(ApiKey.DescribeShareGroupOffsets, 1, { groups: [{ groupId: 'sf-ack', topics: [{ topicName: t.name, partitions: [0] }] }] });
    expect(d.groups[0].topics[0].partitions[0]).toMatchObject({ partitionIndex: 0, startOffset: 0, lag: 0, errorCode: 0 });
  });

  test('v2 record_limit acquires exactly MaxRecords of a batch, the rest waits AVAILABLE; batch_optimized takes a started batch whole', async () => {
    const t = newTopic(1);
    setEarliest('sf-limit');
    const c = await connect();
    await produce(c, t.name, ['a', 'b', 'c', 'd', 'e']);
    await produce(c, t.name, ['f', 'g', 'h']);
    // The answers a real 4.4.0 gives to this sequence.
    const strict = await shareFetch(c, 'sf-limit', 'strict', { epoch: 0, topicId: t.id, maxRecords: 2, version: 2, acquireMode: 1 });
    expect(strict.responses[0].partitions[0].acquiredRecords).toEqual([{ firstOffset: 0, lastOffset: 1, deliveryCount: 1 }]);
    // SharePartition#createBatches: the batch is in flight to its end, what was not acquired AVAILABLE with no delivery.
    expect(kafka.cluster.shares.get('sf-limit', t.id, 0)!.recordState(4)).toEqual({ state: 'AVAILABLE', deliveryCount: 0, memberId: '' });
    // batch_optimized checks MaxRecords before each batch, not inside one: all three waiting records of the batch.
    const batch = await shareFetch(c, 'sf-limit', 'batch', { epoch: 0, topicId: t.id, maxRecords: 2, version: 2 });
    expect(batch.responses[0].partitions[0].acquiredRecords).toEqual([{ firstOffset: 2, lastOffset: 4, deliveryCount: 1 }]);
    const again = await shareFetch(c, 'sf-limit', 'strict', { epoch: 1, topicId: t.id, maxRecords: 2, version: 2, acquireMode: 1 });
    expect(again.responses[0].partitions[0].acquiredRecords).toEqual([{ firstOffset: 5, lastOffset: 6, deliveryCount: 1 }]);
  });

  test('share session epochs: 0 opens (no acknowledgements), the next must follow, -1 closes and gives the records back', async () => {
    const t = newTopic(1);
    setEarliest('sf-sess');
    const c = await connect();
    await produce(c, t.name, ['a']);
    expect((await shareFetch(c, 'sf-sess', 'm', { epoch: 3, topicId: t.id })).errorCode).toBe(ErrorCode.SHARE_SESSION_NOT_FOUND);
    expect((await shareFetch(c, 'sf-sess', 'm', { epoch: 0, topicId: t.id, acks: [{ partition: 0, first: 0, last: 0, types: [ACCEPT] }] })).errorCode).toBe(ErrorCode.INVALID_REQUEST);
    await shareFetch(c, 'sf-sess', 'm', { epoch: 0, topicId: t.id });
    expect((await shareFetch(c, 'sf-sess', 'm', { epoch: 5, topicId: t.id })).errorCode).toBe(ErrorCode.INVALID_SHARE_SESSION_EPOCH);
    // A later fetch that names no partition reads the session's, and answers none with nothing new.
    expect((await shareFetch(c, 'sf-sess', 'm', { epoch: 1, topicId: t.id, partitions: [] })).responses).toEqual([]);
    const ack0 = await c.request(ApiKey.ShareAcknowledge, 1, { groupId: 'sf-sess', memberId: 'm', shareSessionEpoch: 0, isRenewAck: false, topics: [] });
    expect(ack0.errorCode).toBe(ErrorCode.INVALID_SHARE_SESSION_EPOCH);
    await shareFetch(c, 'sf-sess', 'm', { epoch: -1, topicId: t.id, partitions: [] });
    expect(kafka.cluster.shares.sessionsOn(0).get('sf-sess', 'm')).toBeUndefined();
    const other = await shareFetch(c, 'sf-sess', 'n', { epoch: 0, topicId: t.id });
    expect(other.responses[0].partitions[0].acquiredRecords.map((a: { deliveryCount: number }) => a.deliveryCount)).toEqual([2]);
  });

  test("a connection that closes ends its session: the member's records go to the others at once", async () => {
    const t = newTopic(1);
    setEarliest('sf-close');
    const c = await connect();
    await produce(c, t.name, ['a', 'b']);
    const doomed = await WireClient.connect(kafka.bootstrap);
    await shareFetch(doomed, 'sf-close', 'gone', { epoch: 0, topicId: t.id });
    doomed.close();
    await new Promise((r) => setTimeout(r, 50));
    const other = await shareFetch(c, 'sf-close', 'stays', { epoch: 0, topicId: t.id });
    expect(acquiredValues(other.responses[0].partitions[0])).toEqual(['a', 'b']);
  });

  test('a waiting fetch is woken by a produce, not by time', async () => {
    const t = newTopic(1);
    const c = await connect();
    const p = await connect();
    await shareFetch(c, 'sf-wait', 'm', { epoch: 0, topicId: t.id });
    const waiting = shareFetch(c, 'sf-wait', 'm', { epoch: 1, topicId: t.id, maxWaitMs: 60_000 });
    await new Promise((r) => setTimeout(r, 20));
    await produce(p, t.name, ['late']);
    const r = await waiting;
    expect(acquiredValues(r.responses[0].partitions[0])).toEqual(['late']);
  });

  test('REJECT writes a dead letter when the group names a topic that takes them', async () => {
    const t = newTopic(2);
    const dlq = newTopic(1, { 'errors.deadletterqueue.group.enable': 'true' });
    setEarliest('sf-dlq');
    kafka.cluster.groupConfigs.set('sf-dlq', 'errors.deadletterqueue.topic.name', dlq.name);
    kafka.cluster.groupConfigs.set('sf-dlq', 'errors.deadletterqueue.copy.record.enable', 'true');
    const c = await connect();
    await produce(c, t.name, ['bad'], 1);
    await shareFetch(c, 'sf-dlq', 'm', { epoch: 0, topicId: t.id, partitions: [1] });
    await shareFetch(c, 'sf-dlq', 'm', { epoch: 1, topicId: t.id, partitions: [1], acks: [{ partition: 1, first: 0, last: 0, types: [REJECT] }] });
    const log = kafka.cluster.topic(dlq.name)!.partitions[0]!.log;
    const [letter] = log.batchesFrom(0).flatMap((b) => decodeRecords(b.bytes));
    expect(letter!.value!.toString()).toBe('bad');
    expect(Object.fromEntries(letter!.headers.map((h) => [h.key, h.value!.toString()]))).toEqual({
      '__dlq.errors.topic': t.name,
      '__dlq.errors.partition': '1',
      '__dlq.errors.offset': '0',
      '__dlq.errors.group': 'sf-dlq',
      '__dlq.errors.delivery.count': '1',
      '__dlq.errors.message': 'Offset rejected by client.',
    });
  });

  test('AlterShareGroupOffsets needs an Empty group; DeleteShareGroupOffsets forgets a topic', async () => {
    const t = newTopic(1);
    const c = await connect();
    await produce(c, t.name, ['a', 'b', 'c']);
    const alter = await c.request(ApiKey.AlterShareGroupOffsets, 0, { groupId: 'sf-admin', topics: [{ topicName: t.name, partitions: [{ partitionIndex: 0, startOffset: 2 }, { partitionIndex: 7, startOffset: 0 }] }] });
    expect(alter.responses[0].partitions.map((p: { errorCode: number }) => p.errorCode)).toEqual([0, ErrorCode.UNKNOWN_TOPIC_OR_PARTITION]);
    expect(kafka.cluster.groups.shareGroups.state('sf-admin')).toBe('Empty');
    const r = await shareFetch(c, 'sf-admin', 'm', { epoch: 0, topicId: t.id });
    expect(acquiredValues(r.responses[0].partitions[0])).toEqual(['c']);
    await c.request(ApiKey.ShareGroupHeartbeat, 1, hb('sf-admin', 'm', 0, [t.name]));
    const refused = await c.request(ApiKey.AlterShareGroupOffsets, 0, { groupId: 'sf-admin', topics: [{ topicName: t.name, partitions: [{ partitionIndex: 0, startOffset: 0 }] }] });
    expect(refused).toMatchObject({ errorCode: ErrorCode.NON_EMPTY_GROUP, errorMessage: 'The group is not empty.' });
    await c.request(ApiKey.ShareGroupHeartbeat, 1, hb('sf-admin', 'm', -1, null));
    const del = await c.request(ApiKey.DeleteShareGroupOffsets, 0, { groupId: 'sf-admin', topics: [{ topicName: t.name }, { topicName: 'no-such-topic' }] });
    expect(del.responses.map((x: { topicName: string; errorCode: number }) => [x.topicName, x.errorCode])).toEqual([[t.name, 0], ['no-such-topic', ErrorCode.UNKNOWN_TOPIC_OR_PARTITION]]);
    expect(kafka.cluster.shares.get('sf-admin', t.id, 0)).toBeUndefined();
    // The group had state: a second delete answers the topic, not nothing, as a real 4.4.0 does.
    const again = await c.request(ApiKey.DeleteShareGroupOffsets, 0, { groupId: 'sf-admin', topics: [{ topicName: t.name }] });
    expect(again.responses).toEqual([{ topicName: t.name, topicId: t.id, errorCode: ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, errorMessage: 'There is no offset information to delete.' }]);
  });
});
